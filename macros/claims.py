"""Claims a lesson's prose makes about its numbers, evaluated from the trace.

A template writes the sentence once, inside a claim block, so the sentence is both what
the reader sees and what the build reports if the numbers stop supporting it:

    {% call claim(argmax(weights[2]) == 2) %}Row 3 attends most to itself.{% endcall %}

The predicates below are the vocabulary for such conditions; "roughly equal" and
"differ by more than" always take an explicit tolerance, which the prose should state.
"""

import numpy as np

from macros.errors import ClaimError


def argmax(values):
    """Position of the largest value; a tie is not a single answer, so it is refused."""
    values = np.asarray(values, dtype=float)
    best = int(np.argmax(values))
    if np.sum(values == values[best]) > 1:
        raise ClaimError(f"argmax of {values.tolist()} is a tie, so no single position is the largest")
    return best


def positions_of_largest(values):
    """1-based positions holding the largest value: a tie gives several, which prose must say."""
    values = np.asarray(values, dtype=float)
    return [int(i) + 1 for i in np.flatnonzero(values == values.max())]


def argmin(values):
    return argmax(-np.asarray(values, dtype=float))


def roughly_equal(a, b, within):
    """|a − b| ≤ within, element by element."""
    return bool(np.all(np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float)) <= within))


def differ_by_more_than(a, b, by):
    """Some element of a − b exceeds ``by`` in size."""
    return bool(np.any(np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float)) > by))


def each_differs_by_more_than(a, b, by):
    """Every element of a − b exceeds ``by`` in size: "every entry moves by more than"."""
    return bool(np.all(np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float)) > by))


def equal(a, b):
    """Exactly equal, element by element: for facts about the fixture (W_Q is W_K)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.all(a == b))


def claim(condition, caller):
    """The ``claim`` block: renders its sentence, or fails quoting it (the page adds where)."""
    sentence = caller()
    if not bool(condition):
        raise ClaimError(f"this claim is false for the fixture's numbers: {' '.join(sentence.split())}")
    return sentence
