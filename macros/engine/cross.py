"""Cross-attention: queries from one sequence, keys and values from another.

X (n, d_model) asks; source (m, d_model) answers. The score matrix is n x m, not square,
and each query's weights still sum to one over the m source rows. With source = X it is
self-attention, exactly.
"""

import numpy as np

from macros.engine import masks, steps
from macros.engine.attention import combine


def check_source(X, source):
    """The source must be a matrix as wide as X: both are multiplied by the same W_K, W_V rows."""
    source = np.asarray(source, dtype=float)
    if source.ndim != 2 or source.shape[0] < 1:
        raise ValueError(f"source must be a matrix of at least one row, got shape {source.shape}")
    if source.shape[1] != X.shape[1]:
        raise ValueError(f"source must have d_model = {X.shape[1]} columns, like X, got {source.shape[1]}")
    return source


def cross_visibility(n, m, causal=False, key_length=None):
    """Which source rows each query sees: all, or causal (needs m == n), then source padding."""
    if causal and m != n:
        raise ValueError(f"causal cross-attention needs as many source rows as queries ({n}), got {m}")
    visible = steps.visibility(n, m, causal)  # (n, m)
    if key_length is not None:
        visible = masks.combine(visible, masks.key_padding(n, m, key_length))
    return visible


def cross_attention(X, source, projections, causal=False, key_length=None, W_O=None):
    """Each head: Q = X W_Q (n, d_k), K = source W_K (m, d_k), V = source W_V (m, d_v)."""
    source = check_source(X, source)
    visible = cross_visibility(X.shape[0], source.shape[0], causal, key_length)  # (n, m)
    heads = [
        masks.attend_visible(
            steps.project(X, W_Q),  # (n, d_model) @ (d_model, d_k) -> (n, d_k)
            steps.project(source, W_K),  # (m, d_model) @ (d_model, d_k) -> (m, d_k)
            steps.project(source, W_V),  # (m, d_model) @ (d_model, d_v) -> (m, d_v)
            visible,
        )
        for W_Q, W_K, W_V in projections
    ]
    return combine(heads, W_O)
