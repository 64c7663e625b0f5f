"""The JSON form of the new steps' traces, by the same rules as ``trace.py``.

Matrices are lists of rows of Python floats; a masked or non-finite entry is None (JSON's
null). The rules are trace.py's own functions, named here once, so that the new traces
and the layer's trace cannot write the same matrix two ways.
"""

from macros.engine.trace import _masked_rows, _rows, head_to_dict, to_dict

rows = _rows
masked_rows = _masked_rows
head_record = head_to_dict
layer_record = to_dict


def trace_record(trace):
    """The trace command's JSON: every declared field the layer has."""
    return layer_record(trace)


__all__ = ["head_record", "layer_record", "masked_rows", "rows", "trace_record"]
