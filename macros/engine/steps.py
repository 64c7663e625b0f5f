"""One function per step of attention, in the order the lessons teach them.

Shapes: n_q queries, n_k keys, d_k the query/key width, d_v the value width, h heads.
"""

from dataclasses import dataclass

import numpy as np


def project(X, W):
    """Step 1: a head's queries, keys or values are the input rows times a projection."""
    return X @ W  # (n, d_model) @ (d_model, d) -> (n, d)


def score(Q, K):
    """Step 2: each query's raw dot product with every key."""
    return Q @ K.T  # (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k)


def scale_factor(d_k):
    """Step 3a: 1/sqrt(d_k), kept as its own value so a lesson can show it even when it is 1."""
    return 1.0 / np.sqrt(d_k)


def scale(scores, factor):
    """Step 3b: scaled scores; the factor keeps dot products from growing with d_k."""
    return scores * factor  # (n_q, n_k)


def add_bias(scaled, bias):
    """Step 3c (ALiBi): a bias added to the scaled (or capped) scores; the softmax then reads these."""
    return scaled + bias  # (n_q, n_k)


def visibility(n_q, n_k, causal):
    """Step 4: which keys each query may see; causal means position i sees positions <= i."""
    if not causal:
        return np.ones((n_q, n_k), dtype=bool)
    return np.tril(np.ones((n_q, n_k), dtype=bool))  # (n_q, n_k), True = visible


@dataclass(frozen=True)
class SoftmaxParts:
    """The stable softmax with every intermediate a lesson explains."""

    shift: np.ndarray  # (n_q,)  largest visible scaled score per row
    shifted: np.ndarray  # (n_q, n_k)  scaled - shift; -inf where masked
    exps: np.ndarray  # (n_q, n_k)  exp(shifted); exactly 0 where masked
    sums: np.ndarray  # (n_q,)
    weights: np.ndarray  # (n_q, n_k)  each row sums to 1
    plain_exps: np.ndarray  # (n_q, n_k)  exp(scaled) with no shift: what a hand calculation writes
    plain_sums: np.ndarray  # (n_q,)  may be inf for huge scores; the weights never are


def row_shift(scaled, visible):
    """Step 5a: subtracting the row maximum makes the largest exponent exp(0) = 1, never overflow."""
    return np.where(visible, scaled, -np.inf).max(axis=1)  # (n_q,)


def shift_scores(scaled, visible, shift):
    """Step 5b: masked entries become -inf so that their exponential is exactly 0."""
    return np.where(visible, scaled - shift[:, None], -np.inf)  # (n_q, n_k)


def exponentials(shifted):
    """Step 5c: every exponent is <= 0, so each exponential lies in [0, 1]."""
    return np.exp(shifted)  # (n_q, n_k)


def row_sums(exps):
    """Step 5d: the normaliser; at least 1, since the row maximum contributes exp(0)."""
    return exps.sum(axis=1)  # (n_q,)


def normalise(exps, sums):
    """Step 5e: the attention weights, a probability distribution over keys per query."""
    return exps / sums[:, None]  # (n_q, n_k)


def plain_exponentials(scaled, visible):
    """The unshifted exponentials, kept so a lesson can show that the shift cancels out.

    They overflow to inf for huge scores; that is the point a lesson makes with them.
    """
    with np.errstate(over="ignore"):
        return np.where(visible, np.exp(np.where(visible, scaled, 0.0)), 0.0)  # (n_q, n_k)


def stable_softmax(scaled, visible):
    """Step 5: softmax over the visible keys of each row, computed without overflow."""
    shift = row_shift(scaled, visible)
    shifted = shift_scores(scaled, visible, shift)
    exps = exponentials(shifted)
    sums = row_sums(exps)
    plain = plain_exponentials(scaled, visible)
    return SoftmaxParts(shift, shifted, exps, sums, normalise(exps, sums), plain, row_sums(plain))


def weigh_values(weights, V):
    """Step 6: each query's reading is its weights' average of the value rows."""
    return weights @ V  # (n_q, n_k) @ (n_k, d_v) -> (n_q, d_v)


def concatenate(outputs):
    """Step 7: the heads' readings side by side, in head order."""
    return np.hstack(outputs)  # h x (n_q, d_v) -> (n_q, h * d_v)


def output_projection(concat, W_O):
    """Step 8: W_O mixes the heads' features back into one representation."""
    return concat @ W_O  # (n_q, h * d_v) @ (h * d_v, d_out) -> (n_q, d_out)
