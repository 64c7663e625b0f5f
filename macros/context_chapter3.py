"""Names chapter 3's lessons use beyond the shared ones: masked matrices, a layer recomputed
with one field changed, the scale study, rotary scores and the weights of a masked row.

``macros.context`` adds these to every lesson's names; they only compute and format.
"""

import dataclasses

import numpy as np

from macros.engine import positions, scale_study, steps
from macros.render import rotary_widget
from macros.render.numbers import format_masked, format_values


def masked_mat(M, visible, places):
    r"""A bmatrix with -\infty wherever the mask hides an entry: the scores the softmax is given."""
    rows = format_masked(M, visible, places, masked=r"-\infty", minus="-")
    return r"\begin{bmatrix} " + r" \\ ".join(" & ".join(row) for row in rows) + r" \end{bmatrix}"


def changed(fixture, **changes):
    """The same lesson's numbers with some fields changed, not yet computed."""
    return dataclasses.replace(fixture, **changes)


def recomputed(fixture, **changes):
    """The same lesson's layer with some fields changed: causal=True, positions=None, X=...

    Labels follow a change of X's rows only when given; the numbers are the engine's.
    """
    return dataclasses.replace(fixture, **changes).run()


def take_rows(M, order):
    """The rows of M in ``order``, counted from 1 as the lessons count positions."""
    return np.asarray(M)[[i - 1 for i in order]]


def permuted(fixture, order):
    """The layer on X's rows taken in ``order`` (counted from 1), labels following their rows."""
    labels = tuple(take_rows(fixture.query_labels, order)) if fixture.query_labels else ()
    return recomputed(fixture, X=take_rows(fixture.X, order), query_labels=labels, key_labels=labels)


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


def variances_agree(table, relative):
    """Every sampled variance of q . k within ``relative`` of its theory d_k, and within
    ``relative`` of 1 once divided by sqrt(d_k)."""
    return all(
        abs(var - theory) <= relative * theory and abs(scaled - 1) <= relative for _, var, scaled, theory in table
    )


def variance_rows(table, places):
    """The scale study as table rows of text: d_k, measured variance, theory, scaled variance."""
    return [[str(d_k), *format_values([var, theory, scaled], places)] for d_k, var, scaled, theory in table]


def temperature_rows(scores, temperatures, places):
    """Rows of text: a temperature, then the weights of the scores divided by it."""
    return [
        [format_values([T], places)[0], ", ".join(format_values(scale_study.softmax(scores, T), places))]
        for T in temperatures
    ]


def rotate(row, position, base):
    """One query or key row turned to ``position``, pair by pair."""
    return positions.rotary(np.asarray(row, dtype=float)[None, :], [position], base)[0]  # (d_k,)


def names(places):
    return {
        "masked_mat": lambda M, visible: masked_mat(M, visible, places),
        "hidden_weights_are_zero": hidden_weights_are_zero,
        "rows_sum_to_one": rows_sum_to_one,
        "recomputed": recomputed,
        "changed": changed,
        "permuted": permuted,
        "take_rows": take_rows,
        "softmax_row": softmax_row,
        "softmax_parts": lambda row: steps.stable_softmax(
            np.asarray(row, dtype=float)[None, :], np.ones((1, len(row)), dtype=bool)
        ),
        "variance_table": scale_study.variance_table,
        "variances_agree": variances_agree,
        "temperature_rows": lambda scores, temperatures: temperature_rows(scores, temperatures, places),
        "variance_rows": lambda table: variance_rows(table, places),
        "temperature_softmax": scale_study.softmax,
        "sinusoidal": positions.sinusoidal,
        "rotary_score": positions.rotary_score,
        "rotate": rotate,
        "rotary_frequencies": positions.rotary_frequencies,
        "rotary_lab": lambda q, k, base, q_position, k_position, pairs: rotary_widget.lab(
            q, k, base, q_position, k_position, pairs, places
        ),
    }
