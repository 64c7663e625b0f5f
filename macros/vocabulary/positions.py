"""Position encodings as a lesson names them: sinusoidal rows, a query or key turned by
rotary's angles, a rotary score, the rotary lab (``macros.engine.positions`` computes), and
ALiBi's slopes and bias (``macros.engine.scoring``)."""

from types import SimpleNamespace

import numpy as np

from macros.engine import positions, scoring, steps
from macros.render import rotary_widget
from macros.vocabulary.claims import roughly_equal


def rotate(row, position, base, layout="interleaved"):
    """One query or key row turned to ``position``, pair by pair (``layout="half"``: pair i is
    coordinates i and i + d_k/2, as many libraries write it)."""
    return positions.rotary(np.asarray(row, dtype=float)[None, :], [position], base, layout)[0]  # (d_k,)


def turns_by_one(PE, base=10000, within=1e-12):
    """Whether each row of sinusoidal encodings (``PE``: (n, d_model), pairs (sin, cos)) is the
    row before it with every pair turned by one position's angles: the linear map from p to
    p + 1 that is the same at every p. The pairs hold (sin, cos) where rotary's hold (x, y), so
    the turn is rotary's to position -1."""
    PE = np.asarray(PE, dtype=float)  # (n, d_model)
    return all(roughly_equal(rotate(PE[p - 1], -1, base), PE[p], within) for p in range(1, PE.shape[0]))


def half_layout(head, base):
    """A rotary head's queries and keys turned in the rotate-half layout instead (``.Q``,
    ``.K``: (n, d_k), row i at position i), the weights they give with every key seen
    (``.weights``: (n, n)), and the same turn on columns reordered by ``half_order`` (``.Qr``,
    ``.Kr``), which gives the interleaved layout's scores: the two layouts differ only in the
    order of the columns."""
    Q, K = np.asarray(head.Q_projected, dtype=float), np.asarray(head.K_projected, dtype=float)  # (n, d_k)
    at, order = range(Q.shape[0]), positions.half_order(Q.shape[1])
    Q_half, K_half = positions.rotary(Q, at, base, "half"), positions.rotary(K, at, base, "half")  # (n, d_k)
    scaled = steps.score(Q_half, K_half) * head.scale  # (n, d_k) @ (d_k, n) -> (n, n)
    return SimpleNamespace(
        Q=Q_half,
        K=K_half,
        Qr=positions.rotary(Q[:, order], at, base, "half"),  # (n, d_k)
        Kr=positions.rotary(K[:, order], at, base, "half"),  # (n, d_k)
        weights=steps.stable_softmax(scaled, np.ones_like(scaled, dtype=bool)).weights,  # (n, n)
    )


def names(places):
    return {
        "sinusoidal": positions.sinusoidal,
        "rotary_score": positions.rotary_score,
        "rotate": rotate,
        "rotary_frequencies": positions.rotary_frequencies,
        "half_order": positions.half_order,
        "turns_by_one": turns_by_one,
        "half_layout": half_layout,
        "alibi_slopes": scoring.alibi_slopes,
        "alibi_bias": scoring.alibi_bias,
        "rotary_lab": lambda q, k, base, q_position, k_position, pairs: rotary_widget.lab(
            q, k, base, q_position, k_position, pairs, places
        ),
    }
