"""How a head scores its keys, beyond q·k/√d_k: additive scoring and a linear bias (ALiBi).

- Additive (Bahdanau) scoring: score_ij = v_a · tanh(q_i W_a + k_j U_a). A small network of
  its own compares each query with each key; there is no √d_k to divide by, so the head's
  scale is 1 and its scaled scores are its scores.
- ALiBi: no position encodings; each head adds −m_h · (i − j) to its scaled scores, a
  penalty that grows with the distance back to key j, with a slope m_h of its own. With h
  heads the ALiBi paper takes the geometric slopes m_h = 2^(−8h/H), h = 1, …, H.

A ``Scoring`` says what one head does; the default (no additive, no slope) is plain
dot-product attention.
"""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Additive:
    W_a: np.ndarray  # (d_k, d_a): the query side
    U_a: np.ndarray  # (d_k, d_a): the key side
    v_a: np.ndarray  # (d_a,)


@dataclass(frozen=True)
class Scoring:
    """One head's scoring: additive instead of dot products, and an ALiBi slope, each optional."""

    additive: Additive | None = None
    slope: float | None = None


def additive_scores(Q, K, additive):
    """score_ij = v_a · tanh(Q_i W_a + K_j U_a), for every query i and key j."""
    queries = Q @ additive.W_a  # (n_q, d_k) @ (d_k, d_a) -> (n_q, d_a)
    keys = K @ additive.U_a  # (n_k, d_k) @ (d_k, d_a) -> (n_k, d_a)
    hidden = np.tanh(queries[:, None, :] + keys[None, :, :])  # (n_q, n_k, d_a)
    return hidden @ additive.v_a  # (n_q, n_k, d_a) @ (d_a,) -> (n_q, n_k)


def alibi_slopes(n_heads):
    """The ALiBi paper's slopes for H heads: 2^(−8h/H) for h = 1, …, H (1/2, 1/4, … for 8 heads)."""
    return [2.0 ** (-8.0 * h / n_heads) for h in range(1, n_heads + 1)]


def alibi_bias(n_q, n_k, slope):
    """−slope · (i − j): zero on the diagonal, more negative the further back key j lies.

    Above the diagonal (j > i) the bias is positive, but a causal mask hides those keys, so
    ALiBi is only used with one.
    """
    i, j = np.indices((n_q, n_k))
    return -slope * (i - j).astype(float)  # (n_q, n_k)
