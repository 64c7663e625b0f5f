"""A formula's statements and their chains of ``=`` and ``≈``: which calculation must give
which shown result, and the rule for when it does.

A formula may hold several statements (``Q = … \\qquad K = …``, the rows of an aligned block,
``m = \\frac{1}{2},\\; \\frac{1}{4}``); each is cut at its relations into sides. The sides
joined by ``=`` or ``≈`` form a chain (another relation, ``→`` or ``<``, starts a new one).
In a chain, each calculation is compared with the first value written after it, or, with
none after it, the last one before it: ``q = [1, 0, 1] W = [1·1 + …] = [2, 1]`` compares both
calculations with ``[2, 1]``.

A name standing alone on a side of a chain with a value (``V = …``, ``A \\approx …``) is
remembered as that value, so a later calculation may use it (``A V``); a name given again
with no value (``A = \\operatorname{softmax}(S)``) is forgotten.

The rule for agreeing (one precision policy for the book): the redone value lies within half
a unit in the last place of the lesson's decimals of the shown one, entry by entry; a whole
number shown without decimals is exact, so 0.999 does not read as 1.
"""

import re
from dataclasses import dataclass, field

import numpy as np

from macros.redo import grammar
from macros.redo import tokens as t
from macros.redo.latex import UnreadableError

# The rounding note that explains a miss, as the helpers of macros.render.arithmetic write it:
# "The weights shown are rounded, so …", "From the rounded weights, …", "(the two values shown are
# rounded; …)". "Unrounded" alone is no note: it is said of the exact value, not of what the
# reader redid.
NOTE = re.compile(r"\bshown (?:are|is) rounded\b|\bfrom the rounded\b", re.I)


@dataclass(frozen=True)
class Redone:
    """A calculation as written, its value redone from the shown numbers, and the shown result."""

    written: str
    value: object
    shown: object
    texts: tuple  # the shown result's numbers as written


@dataclass
class Reading:
    """What one formula holds: its calculations paired with their results, how many
    calculations it has (a calculation with no result beside it is read but compared with
    nothing), and why a side joined by ``=`` or ``≈`` could not be read."""

    redone: list = field(default_factory=list)
    calculations: int = 0
    problems: list = field(default_factory=list)


def statements(found):
    """The token lists of each statement: cut at breaks and at commas outside brackets."""
    out, current, depth = [], [], 0
    for token in found:
        depth += {t.OPEN: 1, t.CLOSE: -1}.get(token.kind, 0)
        if depth == 0 and (token.kind == t.BREAK or token.kind == t.COMMA):
            out.append(current)
            current = []
        else:
            current.append(token)
    out.append(current)
    return [statement for statement in out if statement]


def chains(statement):
    """The chains of one statement: lists of sides (token lists) joined by ``=`` or ``≈``."""
    found, sides, depth = [], [[]], 0
    for token in statement:
        depth += {t.OPEN: 1, t.CLOSE: -1}.get(token.kind, 0)
        if depth == 0 and token.kind == t.RELATION:
            if token.text not in t.COMPARED:
                found.append(sides)
                sides = []
            sides.append([])
        else:
            sides[-1].append(token)
    found.append(sides)
    return [[side for side in chain if side] for chain in found]


def read(found, text, names):
    """The Reading of a formula's tokens ``found`` (``text``: the formula, for quoting its
    sides); ``names`` (what the page showed by name so far) gains the formula's own."""
    reading = Reading()
    for statement in statements(found):
        for chain in chains(statement):
            _read_chain(chain, text, names, reading)
    return reading


def _read_chain(chain, text, names, reading):
    sides = [_side(side, len(chain) > 1, text, names, reading) for side in chain]
    values = [i for i, side in enumerate(sides) if side is not None and side.kind == grammar.VALUE]
    for i, side in enumerate(sides):
        if side is not None and side.kind == grammar.CALCULATION:
            reading.calculations += 1
            after = [j for j in values if j > i]
            target = after[0] if after else (values[-1] if values else None)
            if target is not None:
                _pair(chain[i], side, chain[target], sides[target], text, reading)
    _remember(chain, sides, values, names)


def _side(side, joined, text, names, reading):
    """The grammar.Side of one side, or None, with a problem when it holds a number and is
    joined to another by = or ≈."""
    try:
        return grammar.read(side, names)
    except UnreadableError as error:
        if joined and t.has_number(side):
            reading.problems.append(f"${quoted(side, text)}$ cannot be read: {error}")
        return None


def _pair(written, calculation, result, shown, text, reading):
    """A calculation and the result it must give, or a problem when their shapes differ."""
    if np.shape(calculation.value) == np.shape(shown.value):
        reading.redone.append(Redone(quoted(written, text), calculation.value, shown.value, shown.texts))
    elif not calculation.named:  # with names, they stand for something else here (grammar.SYMBOLIC)
        reading.problems.append(
            f"${quoted(written, text)}$ gives {grammar.shape_words(calculation.value)}, but the result beside "
            f"it, ${quoted(result, text)}$, is {grammar.shape_words(shown.value)}"
        )


def _remember(chain, sides, values, names):
    """Each name alone on a side of the chain stands for the chain's first value from now on,
    when that value is a row or a matrix (or a stack of them): a page's ``A``, ``V``, ``q``
    keep their meaning from display to display, where a letter given a single number (``h``,
    ``p``, ``l``) is often that of one example, the next sentence another."""
    for side in chain:
        if len(side) == 1 and side[0].kind == t.NAME and not side[0].transposed:
            if values and np.ndim(sides[values[0]].value) >= 1:
                names[side[0].text] = sides[values[0]].value
            else:
                names.pop(side[0].text, None)


def quoted(side, text):
    """A side as the formula writes it (its TeX, spaces collapsed)."""
    start, end = side[0].start, side[-1].end
    if 0 <= start < end <= len(text):
        return " ".join(text[start:end].split())
    return t.written(side)


def agrees(value, shown, places):
    """The redone value reads as the shown one at ``places`` decimals, entry by entry: it lies
    within half a unit of the last place of the lesson's precision (a whole number printed
    without decimals is exact, so 0.999 does not read as 1). A value exactly halfway reads as
    either neighbour, as a reader rounding a final 5 may go either way."""
    for got, want in zip(np.ravel(np.asarray(value, dtype=float)), np.ravel(shown), strict=True):
        if np.isinf(want) or np.isinf(got):
            if got != want:
                return False
            continue
        if abs(float(got) - float(want)) > 0.5 * 10.0**-places + 1e-9:
            return False
    return True
