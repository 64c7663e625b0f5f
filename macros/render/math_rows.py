"""Formulas written side by side, set as rows that wrap, so that on a phone they stack.

A display such as ``E = [...], \\qquad X = [...]`` or ``X = A + B = C`` reads well across a
wide column and is cut on a 390 px screen, however well it scrolls. Cut where it may wrap,
each piece becomes a display of its own: the formulas a display lists (``items``, cut at
``\\qquad`` and at ``, \\quad``) go side by side in a ``math-row``, and each formula's steps
(``steps``, cut before each relation and each ``+``) in a ``math-chain``; lesson.css lays
both out in a line where they fit and wraps them where they do not. Only the top level is cut,
never inside braces, ``\\begin``…``\\end`` or ``\\left``…``\\right``. Runs on the page's HTML
before KaTeX typesets it (``macros.site.hooks``), on pymdownx.arithmatex's generic markup.
"""

import re

DISPLAY = re.compile(r'<div class="arithmatex">\s*\\\[(?P<tex>.*?)\\\]\s*</div>', re.S)
RELATIONS = ("=", "\\approx", "+")  # a step starts at one of these


def items(tex):
    """The formulas of one display: cut at each top-level ``\\qquad``, and at ``\\quad`` after a comma."""
    return _cut(tex, _separator)


def _separator(tex, i):
    return _command(tex, i, "\\qquad") or (_command(tex, i, "\\quad") and _after_comma(tex, i))


def steps(tex):
    """One formula's steps: cut before each top-level relation (``=``, ``\\approx``) and ``+``,
    each kept at the head of its step (``X``, ``= A``, ``+ B``)."""
    return _cut(tex, lambda tex, i: i > 0 and (tex[i] in "=+" or _command(tex, i, "\\approx")), keep=True)


def _cut(tex, at, keep=False):
    """The pieces of ``tex`` between the top-level places ``at`` accepts; with ``keep`` the
    place starts the next piece, else (a separator) it is dropped."""
    found, start, depth, i = [], 0, 0, 0
    while i < len(tex):
        if _command(tex, i, "\\begin", "\\left") or tex[i] == "{":
            depth += 1
        elif _command(tex, i, "\\end", "\\right") or tex[i] == "}":
            depth -= 1
        elif depth == 0 and at(tex, i):
            found.append(tex[start:i])
            start = i if keep else _end_of_command(tex, i)
            i = max(i + 1, start)
            continue
        i += 2 if tex[i] == "\\" and not tex[i + 1 : i + 2].isalpha() else 1  # \{ \} \\ are no braces
    found.append(tex[start:])
    pieces = [piece.strip().removesuffix("\\\\").strip() for piece in found]  # a line break ends no piece
    return [piece for piece in pieces if piece]


def _command(tex, i, *names):
    """Whether one of the commands ``names`` starts at ``i`` (\\left, not \\leftarrow)."""
    return any(tex.startswith(name, i) and not tex[i + len(name) : i + len(name) + 1].isalpha() for name in names)


def _end_of_command(tex, i):
    j = i + 1
    while j < len(tex) and tex[j].isalpha():
        j += 1
    return j


def _after_comma(tex, i):
    return tex[:i].rstrip().endswith(",")


def side_by_side(page_html):
    """The page with every display that lists formulas or chains steps set as rows of displays."""

    def row(match):
        pieces = [steps(item) for item in items(match["tex"])]
        if len(pieces) == 1 and len(pieces[0]) < 2:
            return match.group()
        chains = "".join(
            '<div class="math-chain">' + "".join(f'<div class="arithmatex">\\[{s}\\]</div>' for s in chain) + "</div>"
            for chain in pieces
        )
        return f'<div class="math-row">{chains}</div>'

    return DISPLAY.sub(row, page_html)
