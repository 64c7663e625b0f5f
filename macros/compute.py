"""A validated fixture computed: its trace, guarded against overflow, and the steps of generation
its keys ask for. The lesson, the practice's sets of new numbers and the trace command all
compute through here.
"""

import numpy as np

from macros.engine import generation
from macros.engine.trace import HEAD_FIELDS, LAYER_FIELDS, guarded, present
from macros.errors import FixtureError


def generation_of(data, trace):
    """The generation steps the fixture's keys ask for (kv_heads, window, block_size, params), or None."""
    keys = getattr(data, "generation", None)
    if keys is None or not keys.any:
        return None
    projections = [(head.W_Q, head.W_K, head.W_V) for head in data.heads]
    try:
        return generation.generate(
            data.X,
            projections,
            data.causal,
            data.W_O,
            trace,
            keys.kv_heads,
            keys.window,
            keys.block_size,
            keys.params,
            scorings=data.scorings(len(projections)),
            sink_tokens=keys.sink_tokens,
            page_size=keys.page_size,
        )
    except ValueError as error:
        raise FixtureError(data.path, "params", "sizes the tables can be computed from", str(error)) from None


def overflowed(trace, where=""):
    """The first published field that is not finite, e.g. 'heads[0].scores', or None.

    Checked fixtures hold finite numbers, but their products can still overflow float64
    (1e200 · 1e200). The plain exponentials may overflow by design and are not checked;
    each layer of a batch is checked like the trace itself.
    """
    for i, head in enumerate(trace.heads):
        for name in guarded(present(head, HEAD_FIELDS)):
            if not np.isfinite(getattr(head, name)).all():
                return f"{where}heads[{i}].{name}"
    for name in guarded(present(trace, LAYER_FIELDS)):
        if not np.isfinite(getattr(trace, name)).all():
            return where + name
    for b, layer in enumerate(trace.batch or ()):
        found = overflowed(layer, f"{where}batch[{b}].")
        if found:
            return found
    if trace.train is not None and not np.isfinite(trace.train.loss_after):
        return f"{where}train.loss_after"
    for l, layer in enumerate(trace.layers or ()):  # noqa: E741
        found = overflowed(layer, f"{where}layers[{l}].")
        if found:
            return found
    return None


def compute(data):
    """The fixture's trace, or a FixtureError if its numbers are too large for float64."""
    with np.errstate(over="ignore", invalid="ignore"):
        trace = data.run()
    field = overflowed(trace)
    if field:
        raise FixtureError(
            data.path, "", "numbers small enough for attention to stay finite", f"an overflow in {field}"
        )
    return trace
