"""The author's mark on a formula that is not arithmetic: ``{# not arithmetic: why #}``.

A Jinja comment written inside a formula, on its template line:

    $1 + \\dots + {{ n }} = {{ total }} {# not arithmetic: the terms between are elided #}$

Jinja drops comments before it renders; this extension (Jinja's documented ``preprocess``)
turns each such comment into an invisible marker first, carrying the template's name, the
line and the reason, so the check (``shown_arithmetic.py``) knows which rendered formula
the author marked and can say where. ``unmarked`` takes the markers out of the page before
it is published. Other comments, and anything in a ``{% raw %}`` block, are left to Jinja.
"""

import re
from dataclasses import dataclass

from jinja2.ext import Extension

COMMENT = re.compile(r"\{#-?\s*not arithmetic:\s*(?P<reason>[^#\n]*?)\s*-?#\}")
RAW = re.compile(r"\{%-?\s*raw\s*-?%\}.*?\{%-?\s*endraw\s*-?%\}", re.S)  # Jinja leaves it as written
OPEN, CLOSE = "\ue000", "\ue001"  # private-use characters: never in an author's text
MARKER = re.compile(f"{OPEN}(?P<where>[^{CLOSE}]*?:\\d+): (?P<reason>[^{CLOSE}]*){CLOSE}")


@dataclass(frozen=True)
class Mark:
    where: str  # "lessons/x/lesson.md:12"
    reason: str

    def __str__(self):
        return f"{self.where}: {self.reason}"


class ArithmeticMarks(Extension):
    def preprocess(self, source, name, filename=None):
        raws = [found.span() for found in RAW.finditer(source)]  # a raw block (the guide's examples) is text
        out, start = [], 0
        for found in COMMENT.finditer(source):
            if any(begin <= found.start() < end for begin, end in raws):
                continue
            line = source.count("\n", 0, found.start()) + 1
            reason = found["reason"].replace("$", "")  # a reason in words: it sits inside the formula
            out += [source[start : found.start()], f"{OPEN}{name}:{line}: {reason}{CLOSE}"]
            start = found.end()
        return "".join([*out, source[start:]])


def marks_in(text):
    """The marks written in ``text`` (a formula), in order."""
    return [Mark(found["where"], found["reason"]) for found in MARKER.finditer(text)]


def unmarked(text):
    """``text`` without its markers: the page as published, the formula as the reader sees it."""
    return MARKER.sub("", text) if OPEN in text else text


def stray(markdown, formulas):
    """The marks written outside every formula (``formulas``: the (start, end) of each)."""
    return [
        Mark(found["where"], found["reason"])
        for found in MARKER.finditer(markdown)
        if not any(start <= found.start() < end for start, end in formulas)
    ]
