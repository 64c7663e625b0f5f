"""Variants of a computed layer, for lessons that compare a layer with a changed copy of it.

The engine computes one layer per fixture. Some lessons make their point by changing one
thing after the heads have run (the order of the heads in the concatenation, the order of
the row blocks of W_O) or by summarising the heads (the head-averaged attention map).
These pure functions build such variants from a ``Trace`` without running attention
again, so the heads being compared are provably the same heads.

Shapes: n_q queries, n_k keys, h heads, head i of value width d_v[i], d_out = W_O's width.
"""

import numpy as np

from macros.engine import steps


def _check_order(order, count):
    """An order must name every head exactly once: a reordering, not a selection."""
    if sorted(order) != list(range(count)):
        raise ValueError(f"expected an order of the {count} heads (each of 0..{count - 1} once), got {list(order)}")
    return list(order)


def row_blocks(W_O, sizes):
    """W_O cut into one block of rows per head.

    Concat(Z_1, ..., Z_h) W_O = Z_1 B_1 + ... + Z_h B_h, so head i meets W_O only through
    its own block B_i: the rows that its d_v[i] columns of the concatenation multiply.
    """
    if sum(sizes) != W_O.shape[0]:
        raise ValueError(f"block sizes {list(sizes)} do not add up to W_O's {W_O.shape[0]} rows")
    return np.split(W_O, np.cumsum(sizes)[:-1], axis=0)  # (sum d_v, d_out) -> h x (d_v[i], d_out)


def head_contributions(trace):
    """Each head's share of the layer's output, Z_i B_i; the shares add up to trace.output."""
    blocks = row_blocks(trace.W_O, [head.d_v for head in trace.heads])
    return [head.output @ block for head, block in zip(trace.heads, blocks, strict=True)]  # h x (n_q, d_out)


def reorder_heads(trace, order):
    """The concatenation with the heads' readings in ``order`` instead of head order.

    ``order=[1, 0]`` puts head 2's reading first: what a layer whose heads were numbered the
    other way round would concatenate, with W_O left as it is.
    """
    order = _check_order(order, trace.n_heads)
    return steps.concatenate([trace.heads[i].output for i in order])  # (n_q, sum d_v)


def reorder_row_blocks(W_O, sizes, order):
    """W_O with its row blocks in ``order``: each block moved along with the head it belongs to.

    ``sizes`` are the heads' value widths in the original head order. Reordering the heads
    and the blocks by the same ``order`` leaves every product Z_i B_i, hence the output, unchanged.
    """
    blocks = row_blocks(W_O, sizes)
    order = _check_order(order, len(blocks))
    return np.vstack([blocks[i] for i in order])  # (sum d_v, d_out)


def head_average(trace):
    """The attention map averaged over heads, as inspection tools often draw it.

    No head computes this map: each head applies its own weights to its own values.
    """
    return np.mean([head.weights for head in trace.heads], axis=0)  # h x (n_q, n_k) -> (n_q, n_k)
