"""A worked solution's plain text read for its arithmetic: ``The reading: 0.002·2 + 0.668·2 +
0.329·1 ≈ 1.671.``, ``m + log l = 3.536 + log 2.035 ≈ 4.246``, ``[1.000, 0.120], adding up
to 1.120``, ``The scaled score 2 and the bias −1.500 add up to 0.500``.

Its own small reader, for text as ``macros/practice/quantities.py`` writes it: numbers with
a typographic minus (−) and thousands separators (67,108,864), ``·`` and ``×`` for products,
``⊙``, ``/``, ``√``, ``log``/``exp``/``tanh``, brackets, and words. A sentence is cut into
clauses at ``:``, ``;`` and a full stop; a word in a side makes it symbolic (``da · a``,
``1/√d_k``), so only numbers are redone. The same grammar and chains as the page's math
(``grammar.py``, ``chains.py``) then pair each calculation with its result.

A total stated in words, ``… add up to X`` (or ``adding up to X``), adds the last row of
numbers in its clause, or else every number written in it.
"""

import re

import numpy as np

from macros.redo import chains
from macros.redo import tokens as t
from macros.redo.latex import UnreadableError
from macros.redo.tokens import Token

PLAIN = re.compile(
    r"(?P<space>\s+)|(?P<number>\d{1,3}(?:,\d{3})+(?!\d|\.\d)|\d+(?:\.\d+)?)"
    r"|(?P<word>[A-Za-zα-ωΑ-Ω][A-Za-zα-ωΑ-Ω_'’ᵀ²-]*)|(?P<relation>[=≈<>→])|(?P<operator>[-+−·×⊙*/])"
    r"|(?P<root>√)|(?P<infinity>∞)|(?P<open>[(\[])|(?P<close>[)\]])|(?P<comma>,)|(?P<stop>[.;:])|(?P<other>.)",
    re.S,
)
SIGNED = r"[−-]?(?:\d{1,3}(?:,\d{3})+(?!\d|\.\d)|\d+(?:\.\d+)?)"
TOTAL = re.compile(rf"\badd(?:s|ing)? up to (?P<total>{SIGNED})")
CLAUSE = re.compile(r"[:;]|\.(?!\d)")
RELATED = re.compile(r"[=≈]|\badd(?:s|ing)? up to\b")


# What each kind of match becomes: the token's kind, and its text (None: as written).
_KINDS = {
    "relation": (t.RELATION, None),
    "root": (t.FUNCTION, "sqrt"),
    "infinity": (t.INFINITY, "∞"),
    "open": (t.OPEN, None),
    "close": (t.CLOSE, None),
    "comma": (t.COMMA, None),
    "stop": (t.BREAK, None),
    "other": (t.UNKNOWN, None),
}
_OPERATORS = {"−": "-", "*": "×"}


def tokens(text):
    """The tokens of a line of plain text (a whole sentence: clauses are cut by ``chains``)."""
    out = []
    for match in PLAIN.finditer(text):
        kind = match.lastgroup
        if kind == "space":
            continue
        found, start, end = match.group(), match.start(), match.end()
        if kind == "number":
            out.append(Token(t.NUMBER, found, (), False, start, end))
        elif kind == "word":
            out.append(Token(t.FUNCTION if found in t.FUNCTIONS else t.NAME, found, (), False, start, end))
        elif kind == "operator":
            out.append(Token(t.OPERATOR, _OPERATORS.get(found, found), (), False, start, end))
        else:
            token_kind, written = _KINDS[kind]
            out.append(Token(token_kind, found if written is None else written, (), False, start, end))
    return tuple(out)


def read(line):
    """The chains.Reading of one line: each calculation with its result, and each total in words."""
    if not RELATED.search(line):  # most lines state values: nothing to redo, nothing to cut
        return chains.Reading()
    reading = chains.read(tokens(line), line, {})
    reading.redone += totals(line)
    return reading


def totals(line):
    """A chains.Redone for each total stated in words in ``line``."""
    found = []
    for total in TOTAL.finditer(line):
        clause = CLAUSE.split(line[: total.start()])[-1]
        rows = re.findall(r"\[([^\]]*)\]", clause)
        added = re.findall(SIGNED, rows[-1] if rows else clause)
        if len(added) < 2:
            continue
        value = np.sum([_number(text) for text in added])
        shown = total["total"]
        found.append(chains.Redone(" ".join(clause.split()), value, np.array(_number(shown)), (shown,)))
    return found


def _number(text):
    return float(text.replace("−", "-").replace(",", ""))


__all__ = ["UnreadableError", "read", "tokens", "totals"]
