"""Position encodings as a lesson names them: sinusoidal rows, a query or key turned by
rotary's angles, a rotary score, the rotary lab (``macros.engine.positions`` computes), and
ALiBi's slopes and bias (``macros.engine.scoring``)."""

import numpy as np

from macros.engine import positions, scoring
from macros.render import rotary_widget


def rotate(row, position, base, layout="interleaved"):
    """One query or key row turned to ``position``, pair by pair (``layout="half"``: pair i is
    coordinates i and i + d_k/2, as many libraries write it)."""
    return positions.rotary(np.asarray(row, dtype=float)[None, :], [position], base, layout)[0]  # (d_k,)


def names(places):
    return {
        "sinusoidal": positions.sinusoidal,
        "rotary_score": positions.rotary_score,
        "rotate": rotate,
        "rotary_frequencies": positions.rotary_frequencies,
        "half_order": positions.half_order,
        "alibi_slopes": scoring.alibi_slopes,
        "alibi_bias": scoring.alibi_bias,
        "rotary_lab": lambda q, k, base, q_position, k_position, pairs: rotary_widget.lab(
            q, k, base, q_position, k_position, pairs, places
        ),
    }
