"""Attention layers stacked on the residual stream: each adds its output to the rows it read.

    x_0 = X;    x_l = x_(l−1) + layer_l(x_(l−1));    output = the last x

A layer is an ordinary attention layer (its heads, then W_O), so that every layer's trace is
a whole layer's trace. The sum keeps what each token was (its own row) beside what each
layer wrote into it, which is how a later layer can read what an earlier one found: the
induction head, for instance, reads the previous token that a first layer's head copied
into each row. (A single layer given without ``layers`` has no residual: its output is the
layer's own.)
"""

from dataclasses import dataclass

import numpy as np

from macros.engine import attention
from macros.engine.records import rows
from macros.engine.trace import Trace


@dataclass(frozen=True)
class LayerSpec:
    """One layer of the stack: its heads (each with W_Q, W_K, W_V) and W_O (None: the identity)."""

    heads: tuple
    W_O: np.ndarray | None = None

    @property
    def projections(self):
        return [(head.W_Q, head.W_K, head.W_V) for head in self.heads]

    def to_plain(self):
        heads = [{name: rows(getattr(head, name)) for name in ("W_Q", "W_K", "W_V")} for head in self.heads]
        return {"heads": heads} | ({"W_O": rows(self.W_O)} if self.W_O is not None else {})


def residual(x, added):
    """The stream after a layer: what it held, plus what the layer wrote."""
    return x + added  # (n, d_model)


def stack(X, layers, causal=False):
    """Every layer in order on the residual stream; the trace's output is the last stream."""
    traces, x = [], X  # (n, d_model)
    for spec in layers:
        layer = attention.self_attention(x, spec.projections, causal, spec.W_O)
        traces.append(layer)
        x = residual(x, layer.output)
    return Trace(heads=(), concat=None, W_O=None, output=x, layers=tuple(traces))


def streams(X, trace):
    """The stream before each layer and after the last: X, then each sum in turn."""
    found = [X]
    for layer in trace.layers:
        found.append(residual(found[-1], layer.output))
    return found
