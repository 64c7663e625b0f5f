"""Where in a lesson's template a rendered formula is written, for an error an author can act on.

A formula on the page is the template's TeX with the values of ``{{ … }}`` filled in, so a
piece of a template line between two ``$`` "fits" a formula when its own TeX (everything but
its Jinja parts), in order, is written in the formula. The line with the most TeX of its own
that fits is the one named; a formula written wholly by a helper or a shared step fits no line of the lesson
(None), and the page alone is named.
"""

import re

JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")
MATHS = re.compile(r"\\[A-Za-z]+|[-+=/^_\\]")  # a piece with one of these is TeX, not prose


def template_line(template, tex):
    """The line number (from 1) of ``template`` that writes ``tex`` with the most TeX of its
    own, or None when no line does."""
    flat = " ".join(tex.split())
    best, best_size = None, 0
    for number, line in enumerate(template.splitlines(), 1):
        for part in _outside_jinja_split(line):
            pieces = [" ".join(piece.split()) for piece in JINJA.split(part)]
            pieces = [piece for piece in pieces if piece]
            size = sum(len(piece) for piece in pieces)
            if size <= best_size or not any(MATHS.search(piece) for piece in pieces):
                continue
            if re.search(".*?".join(re.escape(piece) for piece in pieces), flat):
                best, best_size = number, size
    return best


def _outside_jinja_split(line):
    """The line cut at each ``$`` that is not inside a Jinja part."""
    parts, start, depth = [], 0, 0
    for match in re.finditer(r"\{\{|\{%|\{#|\}\}|%\}|#\}|\$", line):
        token = match.group()
        if token in ("{{", "{%", "{#"):
            depth += 1
        elif token in ("}}", "%}", "#}"):
            depth = max(0, depth - 1)
        elif depth == 0:
            parts.append(line[start : match.start()])
            start = match.end()
    return [*parts, line[start:]]


def short(tex, most=160):
    """A formula as a message quotes it: on one line, cut after ``most`` characters."""
    flat = " ".join(tex.split())
    return flat if len(flat) <= most else flat[: most - 1] + "…"
