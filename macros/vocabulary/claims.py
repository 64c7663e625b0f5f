"""Claims a lesson's prose makes about its numbers, evaluated from the trace.

A template writes the sentence once, inside a claim block, so the sentence is both what
the reader sees and what the build reports if the numbers stop supporting it:

    {% call claim(argmax(weights[2]) == 2) %}Row 3 attends most to itself.{% endcall %}

The predicates below are the vocabulary for such conditions; "roughly equal" and
"differ by more than" always take an explicit tolerance, which the prose should state.
"""

import contextlib
from dataclasses import dataclass

import numpy as np

from macros.errors import ClaimError
from macros.render.numbers import as_shown, format_values


def one_row(values):
    """The numbers of one row; a matrix (even 1 × n) is refused, since its winner is not a position."""
    values = np.asarray(values, dtype=float)
    if values.ndim != 1:
        shape = "×".join(str(n) for n in values.shape)
        raise ClaimError(f"expected one row of numbers, got a {shape} matrix (pick a row, e.g. weights[0])")
    return values


def argmax(values, places=None):
    """Position of the largest value; a tie is not a single answer, so it is refused.

    With ``places``, values that look equal when shown to that many decimals count as a
    tie too: prose must not name a winner the reader cannot see.
    """
    values = one_row(values)
    compared = values if places is None else as_shown(values, places)
    best = int(np.argmax(compared))
    if np.sum(compared == compared[best]) > 1:
        shown = "" if places is None else f" as shown to {places} decimals"
        raise ClaimError(
            f"the largest of {format_values(values, places or 4)} is a tie{shown}, so no single position wins"
        )
    return best


def positions_of_largest(values, places=None):
    """1-based positions holding the largest value (as shown, with ``places``): a tie gives
    several, which prose must say."""
    values = np.asarray(values, dtype=float)
    compared = values if places is None else as_shown(values, places)
    return [int(i) + 1 for i in np.flatnonzero(compared == compared.max())]


def argmin(values, places=None):
    return argmax(-np.asarray(values, dtype=float), places)


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


@dataclass(frozen=True)
class Claimed:
    """One claim as a page rendered it: where it is written, its sentence, whether it held."""

    where: str  # the template's name: lessons/masks/lesson.md, macros/explain/steps.md.j2
    line: int
    sentence: str
    held: bool


_recorders = []  # open recorders: (list of Claimed, lenient)


@contextlib.contextmanager
def recorded(lenient=False):
    """Every claim rendered inside the block, in order; with ``lenient``, a false claim is
    recorded instead of stopping the page (to see every claim of one render)."""
    found = []
    _recorders.append((found, lenient))
    try:
        yield found
    finally:
        _recorders.pop()


def claim(where, line, condition, caller):
    """The ``claim`` block: renders its sentence, or fails quoting it (the page adds where).
    ``where`` and ``line`` are given by the page environment (macros.pages.claim_lines)."""
    sentence = caller()
    held = bool(condition)
    for found, _ in _recorders:
        found.append(Claimed(where, line, " ".join(sentence.split()), held))
    if not held and not any(lenient for _, lenient in _recorders):
        raise ClaimError(f"this claim is false for the fixture's numbers: {' '.join(sentence.split())}")
    return sentence
