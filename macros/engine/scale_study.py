"""Why scores are divided by sqrt(d_k): dot products of random vectors, and temperature.

For q and k with independent entries of mean 0 and variance 1, q . k is a sum of d_k
products of variance 1 each, so its variance is d_k (its spread, sqrt(d_k)). Dividing by
sqrt(d_k) brings the variance back to 1 whatever the width. A sample drawn with numpy's
``default_rng(seed)`` shows it on numbers a reader can reproduce.
"""

import numpy as np

from macros.engine import steps


def dot_products(d_k, samples, rng):
    """``samples`` dot products of a fresh standard-normal q and k of width d_k each."""
    q = rng.standard_normal((samples, d_k))  # (samples, d_k)
    k = rng.standard_normal((samples, d_k))  # (samples, d_k)
    return np.einsum("sd,sd->s", q, k)  # (samples,)


def variance_table(d_k_sizes, samples, seed):
    """Per width: (d_k, variance of q . k, variance after dividing by sqrt(d_k), theory = d_k).

    One generator for the whole table, drawn in the order of the sizes, so the table is
    reproduced by ``default_rng(seed)`` and the same loop.
    """
    rng = np.random.default_rng(int(seed))
    table = []
    for d_k in d_k_sizes:
        dots = dot_products(int(d_k), int(samples), rng)
        table.append((int(d_k), float(np.var(dots)), float(np.var(dots / np.sqrt(d_k))), float(d_k)))
    return table


def softmax(scores, temperature=1.0):
    """The weights of one row of scores divided by a temperature: T > 1 flattens, T < 1 sharpens."""
    row = np.asarray(scores, dtype=float)[None, :] / temperature  # (1, n_k)
    return steps.stable_softmax(row, np.ones_like(row, dtype=bool)).weights[0]  # (n_k,)
