"""Names chapter 3's lessons use beyond the shared ones: masked matrices, a layer recomputed
with one field changed, the scale study, rotary scores and the weights of a masked row.

``macros.context`` adds these to every lesson's names; they only compute and format.
"""

import dataclasses

import numpy as np

from macros.engine import positions, scale_study, steps
from macros.render.numbers import format_masked


def masked_mat(M, visible, places):
    r"""A bmatrix with -\infty wherever the mask hides an entry: the scores the softmax is given."""
    rows = format_masked(M, visible, places, masked=r"-\infty", minus="-")
    return r"\begin{bmatrix} " + r" \\ ".join(" & ".join(row) for row in rows) + r" \end{bmatrix}"


def recomputed(fixture, **changes):
    """The same lesson's layer with some fields changed: causal=True, positions=None, X=...

    Labels follow a change of X's rows only when given; the numbers are the engine's.
    """
    return dataclasses.replace(fixture, **changes).run()


def permuted(fixture, order):
    """The layer on X's rows taken in ``order`` (0-based), and the same order applied to the first run."""
    order = list(order)
    return recomputed(fixture, X=fixture.X[order])


def softmax_row(scores, visible=None):
    """The weights of one row under a mask (all visible when none is given)."""
    row = np.asarray(scores, dtype=float)[None, :]
    shown = np.ones_like(row, dtype=bool) if visible is None else np.asarray(visible, dtype=bool)[None, :]
    return steps.stable_softmax(row, shown).weights[0]


def hidden_weights_are_zero(head):
    """Every weight the mask hides is exactly 0.0, not merely small."""
    return bool(np.all(head.weights[~head.visible] == 0.0))


def rows_sum_to_one(head, tolerance=1e-12):
    """Each query's weights add up to one over the keys it sees."""
    return bool(np.all(np.abs(head.weights.sum(axis=1) - 1.0) <= tolerance))


def names(places):
    return {
        "masked_mat": lambda M, visible: masked_mat(M, visible, places),
        "hidden_weights_are_zero": hidden_weights_are_zero,
        "rows_sum_to_one": rows_sum_to_one,
        "recomputed": recomputed,
        "permuted": permuted,
        "softmax_row": softmax_row,
        "variance_table": scale_study.variance_table,
        "temperature_softmax": scale_study.softmax,
        "sinusoidal": positions.sinusoidal,
        "rotary_score": positions.rotary_score,
        "rotate": positions.rotary,
        "rotary_frequencies": positions.rotary_frequencies,
    }
