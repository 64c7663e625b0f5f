"""A shown calculation, redone from the numbers as shown: the check behind "shown arithmetic holds".

A reader who redoes a calculation a page writes out uses the numbers as printed. This module
reads every formula of a rendered lesson page with the grammar of ``macros.redo`` (sums,
products, quotients, powers and roots, functions, weighted sums of vectors and matrices,
products of matrices the page showed by name), redoes each calculation from the printed
operands and compares it with the printed result at the lesson's precision. Where they
differ, a rounding note must follow the formula, in the words the helpers of
``macros.render.arithmetic`` write ("The weights shown are rounded, so …"); a difference with
no note is a silent miss, and the build stops on it.

Nothing with numbers is passed over unread: a side of ``=`` or ``≈`` that holds a number and
cannot be read stops the build too, unless its formula carries the author's mark
``{# not arithmetic: why #}`` (``arithmetic_marks.py`` carries it into the page). A mark on a
formula the grammar reads is refused: it would hide a calculation.

Also read: a total stated in prose after the numbers it adds, "[1.0, 0.1], which add up to
1.1" ("add up to one" included).
"""

import re
from dataclasses import dataclass, field

import numpy as np

from macros.pages import arithmetic_marks
from macros.redo import chains, grammar, latex
from macros.redo.latex import UnreadableError

MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
RELATION = re.compile(r"=|\\approx|≈")
# A total stated in prose: "which add up to $10.525$", "whose sum is $2.195$", "add up to one."
TOTAL = re.compile(r"\b(?:adds? up to|sums? to|(?:whose|their|its) sum is)\s+(?:\$([^$]+)\$|(one)\b(?!\s*:))")
NEAR = 240  # how far before a stated total the numbers it adds may end (one short paragraph)


@dataclass(frozen=True)
class Miss:
    """A calculation whose shown operands do not give its shown result, with no note."""

    written: str
    redone: str
    shown: str
    what: str = "the calculation"

    def __str__(self):
        return (
            f"{self.what} ${self.written}$ gives {self.redone} from the numbers as shown, but the page "
            f"shows {self.shown} with no note: write it with a helper that adds the rounding note"
        )


@dataclass(frozen=True)
class Unread:
    """A formula with a number on a side of ``=`` or ``≈`` that the grammar cannot read."""

    tex: str
    reason: str


@dataclass
class Scan:
    """What the check found on one page: how many formulas it read, which it could not, the
    marks, and the misses."""

    formulas: int = 0  # every formula of the page
    equations: int = 0  # formulas with a number and = or ≈: the ones the check must account for
    read: int = 0  # formulas holding at least one calculation, every side with numbers read
    compared: int = 0  # of those, formulas where a calculation meets the result it must give
    redone: int = 0  # calculations compared with their results (and totals stated in prose)
    marked: list = field(default_factory=list)  # arithmetic_marks.Mark, one per marked formula
    unread: list = field(default_factory=list)  # Unread
    needless: list = field(default_factory=list)  # marks on formulas the grammar reads
    misses: list = field(default_factory=list)  # Miss


def formulas(markdown):
    """Each formula of the page: (its TeX, where it ends in the Markdown)."""
    return [(match.group(1) or match.group(2), match.end()) for match in MATH.finditer(markdown)]


def readings(markdown):
    """Each formula of the page read in order (names shown by one are known to the next):
    (its TeX without marks, where it ends, its marks, its chains.Reading)."""
    names = {}
    for tex, end in formulas(markdown):
        marks, tex = arithmetic_marks.marks_in(tex), arithmetic_marks.unmarked(tex)
        yield tex, end, marks, _reading(tex, names)


def scan(markdown, places):
    """What the check finds on the page: the counts, the marks, what it cannot read, the misses."""
    found = Scan()
    for tex, end, marks, reading in readings(markdown):
        _count(found, tex, marks, reading)
        if not marks and not reading.problems:
            found.misses += _missed(reading.redone, markdown, end, places)
    for end, redone in totals(markdown):
        found.redone += 1
        found.misses += _missed([redone], markdown, end, places, "the total of")
    return found


def _count(found, tex, marks, reading):
    """One formula counted: marked (and needlessly so), unread, or read and compared."""
    found.formulas += 1
    found.equations += bool(RELATION.search(tex) and re.search(r"\d", tex))
    if marks:
        found.marked.append(marks[0])
        found.needless += [marks[0]] if not reading.problems else []
    elif reading.problems:
        found.unread.append(Unread(tex, "; ".join(reading.problems)))
    else:
        found.read += reading.calculations > 0
        found.compared += bool(reading.redone)
        found.redone += len(reading.redone)


def _missed(redone, markdown, end, places, what="the calculation"):
    """A Miss for each calculation that does not give its shown result, unless a note follows."""
    wrong = [r for r in redone if not chains.agrees(r.value, r.shown, places)]
    if not wrong or _note_after(markdown, end):
        return []
    return [Miss(r.written, *_shown_text(r, places), what) for r in wrong]


def _reading(tex, names):
    """The formula's chains.Reading; a formula with no relation holds no calculation to check."""
    if not RELATION.search(tex):
        return chains.Reading()
    try:
        found = latex.tokens(tex)
    except UnreadableError as error:
        return chains.Reading(problems=[str(error)] if re.search(r"\d", tex) else [])
    return chains.read(found, tex, names)


def calculations(tex, names=None):
    """(written calculation, its value redone, (the shown result, its numbers as written)) for
    each calculation of one formula that meets its result."""
    reading = _reading(tex, {} if names is None else names)
    return [(r.written, r.value, (r.shown, list(r.texts))) for r in reading.redone]


def misses(markdown, places):
    """Every calculation on the page whose shown operands give another result at ``places``
    decimals (the lesson's), with no note after its formula (in the rest of its paragraph,
    or the paragraph that follows)."""
    return scan(markdown, places).misses


# ---------------------------------------------------------------- messages


def _shown_text(redone, places):
    """(the redone result, the shown one) as the message quotes them: a number or a row in
    full; of a matrix or a stack, only the entries that differ, each named by where it is."""
    values, texts = np.asarray(redone.shown, dtype=float), [text.replace("\\infty", "∞") for text in redone.texts]
    value = np.broadcast_to(np.asarray(redone.value, dtype=float), np.shape(values))
    formatted = [(("-" if v < 0 else "") + "\u221e" if np.isinf(v) else f"{v:.{places}f}") for v in np.ravel(value)]
    if np.ndim(values) == 0:
        return formatted[0], texts[0]
    if np.ndim(values) == 1:
        return "[" + ", ".join(formatted) + "]", ", ".join(texts)
    cells = list(np.ndindex(np.shape(values)))
    wrong = [i for i, at in enumerate(cells) if not chains.agrees(value[at], values[at], places)]
    return tuple(" and ".join(f"{said[i]} {_where(cells[i])}" for i in wrong) for said in (formatted, texts))


def _where(index):
    """'in row 4, column 2', or 'in matrix 2, row 3, column 1' for a stack: counted from 1."""
    words = ("matrix", "row", "column")[-len(index) :]
    return "in " + ", ".join(f"{word} {i + 1}" for word, i in zip(words, index, strict=True))


def _note_after(markdown, end):
    """A rounding note in the rest of the paragraph after ``end``, or in the next one when the
    formula ends its own (a display)."""
    after = markdown[end : end + 600].split("\n\n")
    nearby = " ".join(after[:2]) if after and not after[0].strip() else after[0]
    return bool(chains.NOTE.search(nearby))


# ---------------------------------------------------------------- totals stated in prose


def _added(tex):
    """The numbers a formula ends with, as a stated total adds them: a row's entries, or each
    row of a matrix (a stack: each row of each matrix), with the side as written; None for a
    single number or anything but numbers."""
    try:
        statement = chains.statements(latex.tokens(arithmetic_marks.unmarked(tex)))[-1]
        last = chains.chains(statement)[-1][-1]
        side = grammar.read(last)
    except (UnreadableError, IndexError):
        return None
    if side.kind != grammar.VALUE or np.ndim(side.value) == 0:
        return None
    return side.value.sum(axis=-1), chains.quoted(last, arithmetic_marks.unmarked(tex))


def _adjacent(gap):
    """The text between some numbers and a total keeps them together: the same paragraph, or
    the paragraph right after a display, and no more than a short sentence apart."""
    paragraphs = re.split(r"\n[ \t]*\n", gap)
    return len(gap) <= NEAR and not any(p.strip() for p in paragraphs[:-1])


def totals(markdown):
    """(where the total ends, a chains.Redone: the numbers added as written, their sum redone,
    the shown total) for each total stated in prose right after the numbers it adds."""
    found, maths = [], list(MATH.finditer(markdown))
    for total in TOTAL.finditer(markdown):
        before = [m for m in maths if m.end() <= total.start()]
        if not before or not _adjacent(markdown[before[-1].end() : total.start()]):
            continue
        added = _added(before[-1].group(1) or before[-1].group(2))
        shown = _total(total.group(1))
        if added is None or shown is None:
            continue
        value, written = added
        word = total.group(1) or "one"
        found.append(
            (
                total.end(),
                chains.Redone(written, value, np.broadcast_to(shown, np.shape(value)), (word,) * np.size(value)),
            )
        )
    return found


def _total(tex):
    """The number a prose total states ("one" is 1), or None for anything else."""
    if tex is None:
        return np.array(1.0)
    try:
        side = grammar.read(latex.tokens(tex))
    except UnreadableError:
        return None
    return side.value if side.kind == grammar.VALUE and np.ndim(side.value) == 0 else None
