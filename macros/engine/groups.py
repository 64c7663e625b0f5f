"""Grouped-query attention: h query heads share g key/value heads.

Query head i reads key/value head i // (h / g): consecutive query heads form a group. g = h
is multi-head attention, g = 1 multi-query attention. The cache then holds g heads' keys
and values instead of h. A multi-head layer is converted by mean-pooling each group's W_K
and W_V, as the GQA paper (Ainslie et al., 2023) converts a multi-head checkpoint.
"""

import numpy as np

from macros.engine import masks, steps
from macros.engine.attention import combine


def check_groups(n_heads, kv_heads):
    """g must divide h, so that every group has the same number of query heads."""
    if kv_heads < 1 or n_heads < 1 or n_heads % kv_heads:
        raise ValueError(
            f"the number of key/value heads must divide the number of query heads ({n_heads}), got {kv_heads}"
        )
    return n_heads // kv_heads


def kv_head_for(i, n_heads, kv_heads):
    """The key/value head that query head i reads."""
    return i // check_groups(n_heads, kv_heads)


def kv_head_map(n_heads, kv_heads):
    """For each query head in order, the key/value head it reads: [0, 0, 1, 1] for h = 4, g = 2."""
    return [kv_head_for(i, n_heads, kv_heads) for i in range(n_heads)]


def mean_pool(matrices, kv_heads):
    """Average each group's matrices: h projections -> g, one per group."""
    size = check_groups(len(matrices), kv_heads)
    stacked = np.asarray(matrices, dtype=float)  # (h, d_model, d)
    return list(stacked.reshape(kv_heads, size, *stacked.shape[1:]).mean(axis=1))  # g x (d_model, d)


def pool_kv(projections, kv_heads):
    """A multi-head layer's (W_K, W_V) pooled into kv_heads shared pairs."""
    W_Ks = mean_pool([W_K for _, W_K, _ in projections], kv_heads)
    W_Vs = mean_pool([W_V for _, _, W_V in projections], kv_heads)
    return list(zip(W_Ks, W_Vs, strict=True))


def copy_across_groups(kv_projections, n_heads):
    """Each shared (W_K, W_V) repeated for every query head of its group: h pairs again."""
    kv_heads = len(kv_projections)
    return [kv_projections[kv_head_for(i, n_heads, kv_heads)] for i in range(n_heads)]


def grouped_attention(X, W_Qs, kv_projections, causal=False, W_O=None):
    """Query head i uses its own W_Q and the (W_K, W_V) of key/value head i // (h / g).

    Each key/value head's K and V are computed once and shared by its group.
    """
    n_heads, kv_heads = len(W_Qs), len(kv_projections)
    check_groups(n_heads, kv_heads)
    shared = [
        (steps.project(X, W_K), steps.project(X, W_V))  # (n, d_model) @ (d_model, d) -> (n, d)
        for W_K, W_V in kv_projections
    ]
    visible = steps.visibility(X.shape[0], X.shape[0], causal)  # (n, n)
    heads = []
    for i, W_Q in enumerate(W_Qs):
        K, V = shared[kv_head_for(i, n_heads, kv_heads)]
        heads.append(masks.attend_visible(steps.project(X, W_Q), K, V, visible))  # Q: (n, d_k)
    return combine(heads, W_O)


def grouped_from_multi_head(X, projections, kv_heads, causal=False, W_O=None):
    """A multi-head layer converted to kv_heads key/value heads by mean-pooling, then run."""
    return grouped_attention(X, [W_Q for W_Q, _, _ in projections], pool_kv(projections, kv_heads), causal, W_O)
