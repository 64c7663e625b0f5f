"""The unseen-answer rule: a graded answer must not be readable on the page above its question.

After a lesson is rendered, ``enforce`` takes every check element (``li.abh-check[data-answer]``,
from ``macros.render.widgets``) not marked ``data-recall``, collects the text and math a
reader sees before it, and fails with ``lesson.md:LINE`` when the answer, written at the
lesson's decimals, is among the numbers there. The line is where the template names the
check's id.

What a reader "sees before" leaves out what opens only after an attempt: hints
(``details[data-after]``) and folded work (``[data-fold-until]``), and everything that is
no text on the page: tags and their attributes (a check's own ``data-answer``), scripts and
HTML comments. Whole-number answers are not searched: a count or an index such as 2 is on
every page, so only answers with decimals are judged.
"""

import re

import numpy as np

from macros.errors import LessonError
from macros.render.numbers import format_number

CHECK = re.compile(r'<li class="abh-check"([^>]*)>')
ANSWER = re.compile(r'data-answer="([^"]+)"')
NUMBER = re.compile(r"(?<![\d.])-?\d+(?:\.\d+)?(?![\d])")
CONTEXT = 30  # characters shown on each side of where an answer was first seen
HIDDEN_OPENING = re.compile(r"<(div|details)\b[^>]*\b(?:data-after|data-fold-until)=[^>]*>")
REMOVED = [
    re.compile(r"<script\b.*?</script>", re.S),
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"<[^>]+>"),
]


class UnseenAnswerError(LessonError):
    """A graded answer that the page already shows above its question."""


def template_line(template, check_id):
    """The first line of the lesson's template that names the check (its id, or for a gate's
    question ``name-2`` the gate's name) in quotes, or None when the id is computed."""
    names = [check_id, re.sub(r"-\d+$", "", check_id)]
    for name in names:
        for number, line in enumerate(template.splitlines(), 1):
            if f'"{name}"' in line or f"'{name}'" in line:
                return number
    return None


def _cut_hidden(text):
    """``text`` without the elements that open only after an attempt (nesting respected)."""
    out, pos = [], 0
    while (found := HIDDEN_OPENING.search(text, pos)) is not None:
        out.append(text[pos : found.start()])
        tag, depth, end = found.group(1), 1, found.end()
        pattern = re.compile(rf"<{tag}\b|</{tag}>")
        while depth and (inner := pattern.search(text, end)) is not None:
            depth += -1 if inner.group().startswith("</") else 1
            end = inner.end()
        pos = end if depth == 0 else len(text)
    out.append(text[pos:])
    return "".join(out)


def visible_text(markdown, minus="-"):
    """The text and math a reader sees in ``markdown`` before any attempt at a check, with
    typographic minus signs written as ``minus`` (one character for one)."""
    text = _cut_hidden(markdown)
    for pattern in REMOVED:
        text = pattern.sub(" ", text)
    return text.replace("\u2212", minus)


def checks(markdown):
    """Each check element: (start offset, check id, answer, recall)."""
    found = []
    for match in CHECK.finditer(markdown):
        attrs = match.group(1)
        check_id = re.search(r'data-check="([^"]+)"', attrs)
        found.append(
            (
                match.start(),
                check_id.group(1) if check_id else "?",
                float(ANSWER.search(attrs).group(1)),
                "data-recall" in attrs,
            )
        )
    return found


def first_sight(markdown, offset, answer, places):
    """The words around the first place above ``offset`` where a reader sees ``answer`` at
    ``places`` decimals, as the page writes them (often a step inside a partial, an
    exponential or a sum, that the lesson's text never names); None if a reader does not."""
    shown = format_number(answer, places, minus="-", whole=False)
    written = " ".join(visible_text(markdown[:offset], minus="\u2212").split())
    searched = written.replace("\u2212", "-")  # the same length: positions agree
    match = next((m for m in NUMBER.finditer(searched) if m.group() == shown), None)
    if match is None:
        return None
    start, end = max(0, match.start() - CONTEXT), min(len(written), match.end() + CONTEXT)
    return ("…" if start else "") + written[start:end] + ("…" if end < len(written) else "")


def enforce(name, markdown, places, template=""):
    """The lesson's Markdown, or UnseenAnswerError at the line of ``template`` naming the check."""
    for offset, check_id, answer, recall in checks(markdown):
        whole = bool(np.isclose(answer, round(answer), rtol=0, atol=1e-12))
        seen = None if recall or whole else first_sight(markdown, offset, answer, places)
        if seen is None:
            continue
        line = template_line(template, check_id)
        where = f"{name}:{line}" if line else name
        shown = format_number(answer, places, whole=False)
        raise UnseenAnswerError(
            f"{where}: the answer to check {check_id!r}, {shown}, is already on the page above the question"
            f', in "{seen}"; ask for a value the page has not shown, '
            "fold the worked numbers until an attempt (fold), or mark the question recall=True"
        )
    return markdown
