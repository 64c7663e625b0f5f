"""The JSON form of the new steps' traces, by the same rules as ``trace.py``.

Matrices are lists of rows of Python floats; a masked or non-finite entry is None (JSON's
null). The rules are trace.py's own functions, named here once, so that the new traces
and the layer's trace cannot write the same matrix two ways.
"""

import numpy as np

from macros.engine.trace import HeadTrace, Trace, _masked_rows, _rows, head_to_dict, to_dict

rows = _rows
masked_rows = _masked_rows
head_record = head_to_dict
layer_record = to_dict


def extras_record(value):
    """A trace's extras in JSON form: mappings and lists kept, layers and heads as the trace writes them."""
    if isinstance(value, Trace):
        return {**layer_record(value), **({"extras": extras_record(value.extras)} if value.extras else {})}
    if isinstance(value, HeadTrace):
        return head_record(value)
    if isinstance(value, dict):
        return {name: extras_record(inner) for name, inner in value.items()}
    if isinstance(value, list | tuple):
        return [extras_record(inner) for inner in value]
    if isinstance(value, np.ndarray) and value.dtype == bool:
        return value.tolist()
    return rows(value)


def trace_record(trace):
    """The trace command's JSON: the layer's contract, then its extras when it has any."""
    data = layer_record(trace)
    if trace.extras:
        data["extras"] = extras_record(trace.extras)
    return data


__all__ = ["extras_record", "head_record", "layer_record", "masked_rows", "rows", "trace_record"]
