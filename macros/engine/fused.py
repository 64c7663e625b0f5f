"""Multi-head attention the way code runs it: one projection for all heads, batched heads.

The separate-heads computation (attention.py) loops over heads, each with its own d_model × d_k
matrices. Real implementations instead stack the heads' W_Q side by side into one
d_model × (h · d_k) matrix (likewise W_K and W_V), project once, and cut the result into
heads with a reshape. Every head's scores, softmax and readings are then one batched
product over a leading head axis. Each function here is one of those steps; the result is
the same numbers as the loop, up to floating-point rounding.

Shapes: n positions, d_model the input width, h heads, d_k the query/key width of a head,
d_v its value width.
"""

from dataclasses import dataclass

import numpy as np

from macros.engine import steps


def stack_heads(blocks):
    """The heads' projections side by side: head i owns columns i·d to (i+1)·d."""
    return np.hstack(blocks)  # h x (d_model, d) -> (d_model, h * d)


def project_all(X, W):
    """One product projects every head at once: the same numbers as h separate products."""
    return X @ W  # (n, d_model) @ (d_model, h * d) -> (n, h * d)


def split_heads(M, h):
    """Reshape then transpose: each row's h · d numbers become h rows of d, one per head,
    and the head axis moves first so that each head's rows sit together."""
    n, width = M.shape
    by_position = M.reshape(n, h, width // h)  # (n, h * d) -> (n, h, d)
    return by_position.transpose(1, 0, 2)  # (n, h, d) -> (h, n, d)


def by_position(M, h):
    """The intermediate (n, h, d) form of split_heads, which a lesson shows on its own."""
    n, width = M.shape
    return M.reshape(n, h, width // h)  # (n, h, d)


def batched_scores(Q, K):
    """Every head's scores in one product, batched over the leading head axis."""
    return Q @ K.transpose(0, 2, 1)  # (h, n, d_k) @ (h, d_k, n) -> (h, n, n)


def mask_scores(scaled, visible):
    """A hidden key's scaled score becomes −∞, so its exponential, and its weight, is exactly 0."""
    return np.where(visible, scaled, -np.inf)  # (h, n, n); visible (n, n) broadcast over heads


def batched_softmax(masked):
    """The stable softmax along the last axis, for every head and query at once."""
    shifted = masked - masked.max(axis=-1, keepdims=True)  # (h, n, n)
    exps = np.exp(shifted)  # (h, n, n)
    return exps / exps.sum(axis=-1, keepdims=True)  # (h, n, n)


def batched_readings(weights, V):
    """Every head's readings in one product."""
    return weights @ V  # (h, n, n) @ (h, n, d_v) -> (h, n, d_v)


def merge_heads(R):
    """The inverse of split_heads: transpose back, then reshape to one row per position, which
    puts the heads' readings side by side in head order: the concatenation."""
    h, n, d_v = R.shape
    return R.transpose(1, 0, 2).reshape(n, h * d_v)  # (h, n, d_v) -> (n, h, d_v) -> (n, h * d_v)


@dataclass(frozen=True)
class FusedTrace:
    """Every intermediate of the fused computation, named as a lesson shows them."""

    W_Q: np.ndarray  # (d_model, h * d_k)
    W_K: np.ndarray  # (d_model, h * d_k)
    W_V: np.ndarray  # (d_model, h * d_v)
    XW_Q: np.ndarray  # (n, h * d_k)
    XW_K: np.ndarray  # (n, h * d_k)
    XW_V: np.ndarray  # (n, h * d_v)
    Q_by_position: np.ndarray  # (n, h, d_k)
    Q: np.ndarray  # (h, n, d_k)
    K: np.ndarray  # (h, n, d_k)
    V: np.ndarray  # (h, n, d_v)
    scores: np.ndarray  # (h, n, n)
    scaled: np.ndarray  # (h, n, n)
    masked: np.ndarray  # (h, n, n), −∞ where hidden
    weights: np.ndarray  # (h, n, n)
    readings: np.ndarray  # (h, n, d_v)
    readings_by_position: np.ndarray  # (n, h, d_v)
    concat: np.ndarray  # (n, h * d_v)
    W_O: np.ndarray  # (h * d_v, d_model)
    output: np.ndarray  # (n, d_model)

    @property
    def h(self):
        return self.Q.shape[0]


def fused_attention(X, projections, causal=False, W_O=None):
    """Self-attention with every head computed at once; ``projections`` as for
    attention.self_attention: one (W_Q, W_K, W_V) per head, in head order."""
    h = len(projections)
    W_Q, W_K, W_V = (stack_heads([p[i] for p in projections]) for i in range(3))
    XW_Q, XW_K, XW_V = (project_all(X, W) for W in (W_Q, W_K, W_V))  # (n, h * d)
    Q, K, V = (split_heads(M, h) for M in (XW_Q, XW_K, XW_V))  # (h, n, d)
    scores = batched_scores(Q, K)  # (h, n, n)
    scaled = steps.scale(scores, steps.scale_factor(Q.shape[2]))  # (h, n, n)
    masked = mask_scores(scaled, steps.visibility(X.shape[0], X.shape[0], causal))  # (h, n, n)
    weights = batched_softmax(masked)  # (h, n, n)
    readings = batched_readings(weights, V)  # (h, n, d_v)
    concat = merge_heads(readings)  # (n, h * d_v)
    if W_O is None:
        W_O = np.eye(concat.shape[1])
    return FusedTrace(
        W_Q=W_Q,
        W_K=W_K,
        W_V=W_V,
        XW_Q=XW_Q,
        XW_K=XW_K,
        XW_V=XW_V,
        Q_by_position=by_position(XW_Q, h),
        Q=Q,
        K=K,
        V=V,
        scores=scores,
        scaled=scaled,
        masked=masked,
        weights=weights,
        readings=readings,
        readings_by_position=readings.transpose(1, 0, 2),  # (n, h, d_v)
        concat=concat,
        W_O=W_O,
        output=steps.output_projection(concat, W_O),  # (n, h * d_v) @ (h * d_v, d_model) -> (n, d_model)
    )


def run(fixture):
    """The fused computation of a self-attention lesson's layer."""
    projections = [(head.W_Q, head.W_K, head.W_V) for head in fixture.heads]
    return fused_attention(fixture.X, projections, fixture.causal, fixture.W_O)


def torch_layout(W):
    """How torch.nn.Linear and nn.MultiheadAttention store a projection: (out, in), used as x @ W.T."""
    return W.T  # (in, out) -> (out, in)
