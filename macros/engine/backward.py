"""The backward pass through one self-attention layer, step by step.

Training needs the gradient of a loss with respect to every weight. Given ``upstream``, the
gradient of the loss with respect to the layer's output Y (what the layers above send back),
the chain rule runs the forward steps in reverse:

    Y = concat · W_O           d_W_O = concatᵀ · d_Y,        d_concat = d_Y · W_Oᵀ
    Z = A · V    (per head)    d_A = d_Z · Vᵀ,               d_V = Aᵀ · d_Z
    A = softmax(S_scaled)      d_S_scaled = A ⊙ (d_A − rowsum(d_A ⊙ A))   (row by row: J_a · d_a)
    S_scaled = S / √d_k        d_S = d_S_scaled / √d_k
    S = Q · Kᵀ                 d_Q = d_S · K,                d_K = d_Sᵀ · Q
    Q = X · W_Q (and K, V)     d_W_Q = Xᵀ · d_Q, ...,        d_X = Σ_heads d_Q W_Qᵀ + d_K W_Kᵀ + d_V W_Vᵀ

A masked key has weight exactly 0, so its entries of d_S_scaled and d_S are exactly 0: no
gradient flows through a pair the mask hides.
"""

from dataclasses import dataclass

import numpy as np

from macros.engine.records import rows

HEAD_GRADIENTS = ("d_output", "d_weights", "d_scaled", "d_scores", "d_Q", "d_K", "d_V", "d_W_Q", "d_W_K", "d_W_V")


@dataclass(frozen=True)
class HeadGradients:
    d_output: np.ndarray  # (n, d_v)  this head's slice of d_concat
    d_weights: np.ndarray  # (n, n)
    d_scaled: np.ndarray  # (n, n)  0 where masked
    d_scores: np.ndarray  # (n, n)  0 where masked
    d_Q: np.ndarray  # (n, d_k)
    d_K: np.ndarray  # (n, d_k)
    d_V: np.ndarray  # (n, d_v)
    d_W_Q: np.ndarray  # (d_model, d_k)
    d_W_K: np.ndarray  # (d_model, d_k)
    d_W_V: np.ndarray  # (d_model, d_v)

    def to_dict(self):
        return {name: rows(getattr(self, name)) for name in HEAD_GRADIENTS}


@dataclass(frozen=True)
class Backward:
    """Every gradient of the layer, for the given gradient of its output."""

    upstream: np.ndarray  # (n, d_out)  d_Y, given
    d_W_O: np.ndarray  # (h * d_v, d_out)
    d_concat: np.ndarray  # (n, h * d_v)
    heads: tuple  # of HeadGradients
    d_X: np.ndarray  # (n, d_model)

    def to_dict(self):
        layer = {name: rows(getattr(self, name)) for name in ("upstream", "d_W_O", "d_concat", "d_X")}
        return {**layer, "heads": [head.to_dict() for head in self.heads]}


def output_projection_gradients(concat, W_O, d_Y):
    """Y = concat · W_O: the gradients of W_O and of the concatenation."""
    return concat.T @ d_Y, d_Y @ W_O.T  # (h·d_v, n) @ (n, d_out); (n, d_out) @ (d_out, h·d_v)


def split_heads(d_concat, widths):
    """The concatenation's gradient cut back into one block of columns per head."""
    ends = np.cumsum(widths)[:-1]
    return np.split(d_concat, ends, axis=1)  # each (n, d_v)


def reading_gradients(weights, V, d_Z):
    """Z = A · V: the gradients of the weights and of the values."""
    return d_Z @ V.T, weights.T @ d_Z  # (n, d_v) @ (d_v, n) -> (n, n); (n, n) @ (n, d_v) -> (n, d_v)


def softmax_jacobian(a):
    """∂a_i/∂s_j = a_i (δ_ij − a_j) for one row a of weights: diag(a) − a aᵀ."""
    a = np.asarray(a, dtype=float)
    return np.diag(a) - np.outer(a, a)  # (n_k, n_k)


def softmax_gradient(weights, d_weights):
    """Row by row, J_a · d_a, written without building J: a ⊙ (d_a − (d_a · a))."""
    inner = (d_weights * weights).sum(axis=1, keepdims=True)  # (n, 1)
    return weights * (d_weights - inner)  # (n, n); 0 wherever the weight is 0 (masked)


def score_gradients(d_scores, Q, K):
    """S = Q · Kᵀ: the gradients of the queries and of the keys."""
    return d_scores @ K, d_scores.T @ Q  # (n, n) @ (n, d_k); (n, n) @ (n, d_k)


def projection_gradient(X, d_projected):
    """P = X · W: the gradient of the projection W."""
    return X.T @ d_projected  # (d_model, n) @ (n, d) -> (d_model, d)


def head_backward(X, head, W_Q, W_K, W_V, d_Z):
    """One head's gradients, from the gradient of its reading back to its three projections."""
    d_A, d_V = reading_gradients(head.weights, head.V, d_Z)
    d_scaled = softmax_gradient(head.weights, d_A)
    d_scores = d_scaled * head.scale  # S_scaled = S · scale
    d_Q, d_K = score_gradients(d_scores, head.Q, head.K)
    grads = [projection_gradient(X, d) for d in (d_Q, d_K, d_V)]
    gradients = HeadGradients(d_Z, d_A, d_scaled, d_scores, d_Q, d_K, d_V, *grads)
    d_X = d_Q @ W_Q.T + d_K @ W_K.T + d_V @ W_V.T  # each (n, d) @ (d, d_model) -> (n, d_model)
    return gradients, d_X


def backward(X, projections, trace, upstream):
    """Every gradient of a self-attention layer (its trace, computed from X), for d_Y = upstream."""
    d_W_O, d_concat = output_projection_gradients(trace.concat, trace.W_O, upstream)
    parts = split_heads(d_concat, [head.d_v for head in trace.heads])
    heads, d_X = [], np.zeros_like(X, dtype=float)  # (n, d_model)
    for head, (W_Q, W_K, W_V), d_Z in zip(trace.heads, projections, parts, strict=True):
        gradients, d_X_head = head_backward(X, head, W_Q, W_K, W_V, d_Z)
        heads.append(gradients)
        d_X = d_X + d_X_head
    return Backward(np.asarray(upstream, dtype=float), d_W_O, d_concat, tuple(heads), d_X)
