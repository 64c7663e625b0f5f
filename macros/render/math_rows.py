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


# The only places a cut depends on: commands that open or close a group, separators,
# relations, braces; any other escaped character (\\{, \\\\) is skipped whole.
TOKEN = re.compile(r"\\(?:begin|end|left|right|qquad|quad|approx)(?![A-Za-z])|\\[A-Za-z]+|\\.|[{}=+]")
OPENS, CLOSES = ("\\begin", "\\left", "{"), ("\\end", "\\right", "}")


def items(tex):
    """The formulas of one display: cut at each top-level ``\\qquad``, and at ``\\quad`` after a comma."""
    return _cut(tex, lambda token, before: token == "\\qquad" or (token == "\\quad" and before.rstrip().endswith(",")))


def steps(tex):
    """One formula's steps: cut before each top-level relation (``=``, ``\\approx``) and ``+``,
    each kept at the head of its step (``X``, ``= A``, ``+ B``)."""
    return _cut(tex, lambda token, before: token in ("=", "+", "\\approx") and before.strip() != "", keep=True)


def _cut(tex, at, keep=False):
    """The pieces of ``tex`` between the top-level tokens ``at`` accepts (given the token and
    the text before it); with ``keep`` the token starts the next piece, else (a separator) it
    is dropped."""
    found, start, depth = [], 0, 0
    for match in TOKEN.finditer(tex):
        token = match.group()
        if token in OPENS:
            depth += 1
        elif token in CLOSES:
            depth -= 1
        elif depth == 0 and at(token, tex[start : match.start()]):
            found.append(tex[start : match.start()])
            start = match.start() if keep else match.end()
    found.append(tex[start:])
    pieces = [piece.strip().removesuffix("\\\\").strip() for piece in found]  # a line break ends no piece
    return [piece for piece in pieces if piece]


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
