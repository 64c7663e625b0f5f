"""One set of a lesson's numbers, computed and read by path: what a practice question grades.

A record holds what ``python -m macros trace`` prints for the numbers (the layer's trace and
the steps of generation the fixture asks for) and, for a layer of two heads or more, the
layer with its heads swapped (``swapped`` keeps W_O as it is, ``swapped_with_blocks`` moves
W_O's row blocks with their heads: the output comes out unchanged) and the heads' weights
averaged (``average``), the map many inspection tools draw. Paths are dotted:
``heads.1.weights.2.0``, ``online.heads.0.blocks.1.m.4``, ``swapped.output.2.0``.
"""

from dataclasses import dataclass
from functools import cached_property

from macros import compute
from macros.engine import steps, variants
from macros.engine.trace import to_dict
from macros.sources.fixture import validate


@dataclass(frozen=True)
class Record:
    fixture: object  # the validated Fixture
    trace: object  # its Trace
    generation: object = None  # the steps of generation, or None

    @cached_property
    def data(self):
        data = to_dict(self.trace)
        if self.generation is not None:
            data |= self.generation.to_dict()
        if self.trace.n_heads >= 2:
            data |= swaps(self.trace) | {"average": variants.head_average(self.trace).tolist()}
        return data

    def value(self, path):
        """The value at a dotted path, or None when the path names nothing."""
        value = self.data
        for part in str(path).split("."):
            if isinstance(value, list) and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
            elif isinstance(value, dict) and part in value:
                value = value[part]
            else:
                return None
        return value


def swaps(trace):
    """The layer with its heads in reverse order: W_O kept, and W_O's row blocks moved with them."""
    order = list(range(trace.n_heads))[::-1]
    concat = variants.reorder_heads(trace, order)  # (n_q, h * d_v)
    blocks = variants.reorder_row_blocks(trace.W_O, [head.d_v for head in trace.heads], order)  # (h * d_v, d_out)
    return {
        "swapped": {"concat": concat.tolist(), "output": steps.output_projection(concat, trace.W_O).tolist()},
        "swapped_with_blocks": {"concat": concat.tolist(), "output": steps.output_projection(concat, blocks).tolist()},
    }


def computed(plain, file):
    """The record of a fixture's JSON form: validated, computed, generation steps included."""
    fixture = validate(file, plain)
    trace = compute.compute(fixture)
    return Record(fixture, trace, compute.generation_of(fixture, trace))
