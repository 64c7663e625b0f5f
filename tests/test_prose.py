"""Lesson prose never types a computed number: every decimal on a page comes from a helper.

The check reads the templates as text with the Jinja parts blanked out, so a number is
allowed inside {{ ... }} or {% ... %} (where it is code) and nowhere else; front matter
and code (fenced or inline, as in the author guide's examples) are skipped. A decimal
such as 0.5 or 1.41 in prose is a typed result. Section numbers
like 8.2 (one decimal, not starting with 0) pass.
"""

import re
from pathlib import Path

import pytest

TYPED_DECIMAL = re.compile(r"(?<![\w.])(?:-?\d+\.\d{2,}|-?0\.\d+)")
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
CODE = re.compile(r"^```.*?^```|`[^`\n]+`", re.S | re.M)  # examples in the author guide
PAGES = sorted(Path("lessons").rglob("*.md")) + sorted(Path("docs").rglob("*.md"))


STRING = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")


def _keep_strings(match):
    """A Jinja expression blanked except its string literals: prose passed to a widget
    (a choice's feedback, a question's label) is prose too."""
    code = match.group()
    kept = [" "] * len(code)
    for literal in STRING.finditer(code):
        kept[literal.start() : literal.end()] = literal.group()
    return "".join(c if c == "\n" or kept[i] != " " else kept[i] for i, c in enumerate(code))


def typed_decimals(text):
    """(line, number) for each decimal typed outside Jinja code and front matter."""
    if text.startswith("---"):
        end = text.find("\n---", 3)
        text = "\n" * text[:end].count("\n") + text[end:] if end > 0 else text
    blank = lambda m: re.sub(r"[^\n]", " ", m.group())  # noqa: E731  keeps line numbers
    prose = CODE.sub(blank, JINJA.sub(_keep_strings, text))
    return [(n, m.group()) for n, line in enumerate(prose.splitlines(), 1) for m in TYPED_DECIMAL.finditer(line)]


@pytest.mark.parametrize("path", PAGES, ids=str)
def test_no_typed_decimals(path):
    assert typed_decimals(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "text, found",
    [
        ("The weight is 0.248 here.", [(1, "0.248")]),
        ("Scaled: 1.414 and -0.707.", [(1, "1.414"), (1, "-0.707")]),
        ("---\ntitle: x\n---\nsee 0.5\n", [(4, "0.5")]),
        ('{{ choice("c", "?", [("within 0.01", "no")], 1) }}', [(1, "0.01")]),
    ],
)
def test_typed_decimals_are_found(text, found):
    assert typed_decimals(text) == found


@pytest.mark.parametrize(
    "text",
    [
        "{{ num(0.25) }}",
        "{% set t = 0.05 %}",
        "Lesson 8.2 is next.",
        "---\nx: 0.5\n---\n",
        "`x = 0.5`",
        "```\n0.5\n```",
    ],
)
def test_code_and_section_numbers_pass(text):
    assert typed_decimals(text) == []
