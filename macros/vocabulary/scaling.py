"""One row's softmax, at a temperature, and the study of why scores are scaled, as a lesson
names them: the weights of one masked row, the softmax of scores divided by T, and the
variance of q·k by width (``macros.engine.scale_study`` computes; this module names and
formats), and one row's Jacobian, for the backward pass through the softmax.
"""

import numpy as np

from macros.engine import backward, scale_study, scoring, steps
from macros.render.numbers import format_values


def softmax_row(scores, visible=None):
    """The weights of one row under a mask (all visible when none is given)."""
    row = np.asarray(scores, dtype=float)[None, :]  # (1, n_k)
    shown = np.ones_like(row, dtype=bool) if visible is None else np.asarray(visible, dtype=bool)[None, :]
    return steps.stable_softmax(row, shown).weights[0]  # (n_k,)


def softmax_parts(row):
    """Every step of one row's stable softmax (shift, exponentials, sum, weights)."""
    scores = np.asarray(row, dtype=float)[None, :]  # (1, n_k)
    return steps.stable_softmax(scores, np.ones_like(scores, dtype=bool))


def variances_agree(table, relative):
    """Every sampled variance of q . k within ``relative`` of its theory d_k, and within
    ``relative`` of 1 once divided by sqrt(d_k)."""
    return all(
        abs(var - theory) <= relative * theory and abs(scaled - 1) <= relative for _, var, scaled, theory in table
    )


def variance_rows(table, places):
    """The scale study as table rows of text: d_k, measured variance, theory, scaled variance."""
    return [[str(d_k), *format_values([var, theory, scaled], places)] for d_k, var, scaled, theory in table]


def temperature_weights(scores, temperatures):
    """The weights of one row of scores divided by each temperature in turn, one row per
    temperature ((n_T, n_k)): the rows a table of temperatures shows, for a note on their sums."""
    return np.array([scale_study.softmax(scores, T) for T in temperatures])  # (n_T, n_k)


def temperature_rows(scores, temperatures, places):
    """Rows of text: a temperature, then the weights of the scores divided by it."""
    return [
        [format_values([T], places)[0], ", ".join(format_values(scale_study.softmax(scores, T), places))]
        for T in temperatures
    ]


def names(places):
    return {
        "qk_norm_eps": scoring.QK_NORM_EPS,
        "softmax_row": softmax_row,
        "softmax_parts": softmax_parts,
        "softmax_jacobian": backward.softmax_jacobian,
        "variance_table": scale_study.variance_table,
        "variances_agree": variances_agree,
        "variance_rows": lambda table: variance_rows(table, places),
        "temperature_softmax": scale_study.softmax,
        "temperature_weights": temperature_weights,
        "temperature_rows": lambda scores, temperatures: temperature_rows(scores, temperatures, places),
    }
