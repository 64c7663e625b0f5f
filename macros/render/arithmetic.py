"""Shown arithmetic: a displayed calculation must check out from the displayed numbers.

A reader who redoes a calculation the page writes out uses the numbers as shown, rounded
to the lesson's decimals. The book's policy: the result beside an expansion is always the
exact (unrounded) value, so one quantity reads the same everywhere on a page; where the
shown operands give a different result at the shown precision, a computed note says so
right there. No note appears when rounding changes nothing that shows.

The first note of a page says it in full ("The weights shown are rounded, so a result worked
from them can come out slightly different: here it comes to 0.751; unrounded, it is 0.752.");
the notes after it on the same page (``shortened_repeats``) give the figures alone ("From the rounded
weights, it comes to 0.751; unrounded, it is 0.752."), so a reader meets the reason once.
Outside a page (a worked solution, read alone in its panel), every note is in full.

Relations written in prose ("the sum of", "changed by", "add up to one") go through the
predicates at the bottom: they judge the relation on the numbers as shown and raise a
``ClaimError`` naming the numbers when it does not hold, which the page reports with its
``lesson.md:LINE``.
"""

import re

import numpy as np

from macros.errors import ClaimError
from macros.render.numbers import as_shown, format_values

FULL = "The {operands} shown are rounded, so a result worked from them can come out slightly different: here {body}."
SHORT = "From the rounded {operands}, {body}."
_FULL = re.compile(
    re.escape(FULL).replace(r"\{operands\}", r"(?P<operands>[\w '’-]+?)").replace(r"\{body\}", r"(?P<body>[^\n]*?)")
    + r"(?!\d)"
)


def _worded(operands, body):
    """A rounding note, in full: ``shortened_repeats`` shortens the page's later ones."""
    return FULL.format(operands=operands, body=body)


def shortened_repeats(markdown):
    """A page's rounding notes after its first, as the figures alone: the reason is given once,
    where the reader first meets it (the page's order, not the order its template ran in). The
    practice panel's worked solutions are left whole: each is read alone, and gives its own."""
    panels = _spans(markdown, PANEL)
    seen = [False]

    def shorten(found):
        if any(start <= found.start() < end for start, end in panels):
            return found.group()
        if not seen[0]:
            seen[0] = True
            return found.group()
        return SHORT.format(operands=found["operands"], body=found["body"])

    return _FULL.sub(shorten, markdown)


PANEL = '<div class="abh-practice"'


def _spans(markdown, opening):
    """(start, end) of each element that opens with ``opening``, to its matching ``</div>``."""
    spans, start = [], markdown.find(opening)
    while start >= 0:
        depth, end = 0, len(markdown)
        for found in re.finditer(r"<(/?)div\b", markdown[start:]):
            depth += -1 if found[1] else 1
            if depth == 0:
                end = start + found.end()
                break
        spans.append((start, end))
        start = markdown.find(opening, end)
    return spans


def shortened_lines(lines):
    """``shortened_repeats`` over the lines of one worked solution, read in turn."""
    return tuple(shortened_repeats("\n".join(lines)).split("\n")) if lines else ()


def _text(values, places):
    """A number or a row as a sentence shows it: '0.752' or '[0.25, 0.74]'."""
    values = np.asarray(values, dtype=float)
    texts = format_values(values, places)
    return texts[0] if values.ndim == 0 else "[" + ", ".join(texts) + "]"


def same_when_shown(a, b, places):
    """Two numbers (or arrays) read the same at ``places`` decimals."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and format_values(a, places) == format_values(b, places)


def from_shown_product(A, B, places):
    """A product (dot, vector times matrix, matrix times matrix) of the operands as shown."""
    return np.asarray(as_shown(A, places), dtype=float) @ np.asarray(as_shown(B, places), dtype=float)


def note(from_shown, exact, places, operands="numbers"):
    """'' when the shown operands give the exact result at ``places``; else one sentence. A
    matrix result names only the entries that differ, by row and column, each with its own
    unrounded value."""
    from_shown, exact = np.asarray(from_shown, dtype=float), np.asarray(exact, dtype=float)
    if same_when_shown(from_shown, exact, places):
        return ""
    if from_shown.ndim < 2:
        return _worded(operands, f"it comes to {_text(from_shown, places)}; unrounded, it is {_text(exact, places)}")
    shown_texts = np.array(format_values(from_shown, places)).reshape(from_shown.shape)
    exact_texts = np.array(format_values(exact, places)).reshape(exact.shape)
    cells = [(r, c) for r, c in np.ndindex(from_shown.shape) if shown_texts[r, c] != exact_texts[r, c]]
    each = [
        f"row {r + 1}, column {c + 1} {'comes to' if i == 0 else 'to'} {shown_texts[r, c]} "
        f"(unrounded, {exact_texts[r, c]})"
        for i, (r, c) in enumerate(cells)
    ]
    return _worded(operands, " and ".join(each))


def product_note(A, B, exact, places, operands="numbers"):
    """The note for a shown product A·B (a weighted sum, a dot product, Y = Z W_O)."""
    return note(from_shown_product(A, B, places), exact, places, operands)


def total_note(rows, places, total=1.0, operands="weights"):
    """The note for rows said to add up to ``total`` (1 for weights): which shown rows do not."""
    rows = np.atleast_2d(np.asarray(rows, dtype=float))
    sums = as_shown(rows, places).sum(axis=1)
    off = [i for i, s in enumerate(sums) if not same_when_shown(s, total, places)]
    if not off:
        return ""
    listed = " and ".join(f"row {i + 1} adds up to {_text(sums[i], places)}" for i in off)
    return _worded(operands, f"{listed}; unrounded, every row adds up to exactly {_text(total, places)}")


# ---------------------------------------------------------------- relations in prose


def _refuse(what, expected, shown, places):
    raise ClaimError(
        f"{what} does not hold as shown to {places} decimals: the shown numbers give "
        f"{_text(expected, places)}, the page shows {_text(shown, places)}; "
        "write the relation with a helper that adds the rounding note, or show more decimals"
    )


def is_sum(result, a, b, places):
    """``result`` is a + b on the shown numbers (raises, naming them, when it is not)."""
    expected = as_shown(a, places) + as_shown(b, places)
    if not same_when_shown(expected, result, places):
        _refuse("'the sum of'", expected, result, places)
    return True


def is_difference(result, a, b, places):
    """``result`` is a − b on the shown numbers (a change "by" result from b to a)."""
    expected = as_shown(a, places) - as_shown(b, places)
    if not same_when_shown(expected, result, places):
        _refuse("'the difference of' (or 'changed by')", expected, result, places)
    return True


def adds_up_to(values, total, places):
    """The shown ``values`` add up to the shown ``total`` ("add up to one")."""
    expected = as_shown(values, places).sum()
    if not same_when_shown(expected, total, places):
        _refuse("'add up to'", expected, total, places)
    return True


def holds_as_shown(result, from_shown, places):
    """A general relation: ``from_shown`` (computed from as_shown values) reads as ``result``."""
    if not same_when_shown(from_shown, result, places):
        _refuse("this relation", from_shown, result, places)
    return True


def changed_by(new, old, places):
    """'by 1.00' for a change from ``old`` to ``new``, computed from the two shown numbers so the
    reader's subtraction checks out; a note follows when the unrounded change reads otherwise."""
    shown = as_shown(new, places) - as_shown(old, places)
    exact = np.asarray(new, dtype=float) - np.asarray(old, dtype=float)
    text = f"by {_text(shown, places)}"
    if same_when_shown(shown, exact, places):
        return text
    unrounded = _text(exact, places)
    return f"{text} (the two values shown are rounded; unrounded the change is {unrounded})"
