"""Typed numbers in lesson prose: every decimal on a page must come from a helper.

The check reads a template as text with the Jinja parts blanked out, so a number is
allowed inside {{ ... }} or {% ... %} (where it is code) and nowhere else; front matter
and code (fenced or inline, as in the author guide's examples) are skipped. A decimal
such as 0.5 or 1.41 in prose is a typed result. Section numbers like 8.2 (one decimal,
not starting with 0) pass. The build runs it on every lesson; the tests on every page.
"""

import re

TYPED_DECIMAL = re.compile(r"(?<![\w.])(?:-?\d+\.\d{2,}|-?0\.\d+)")
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
CODE = re.compile(r"^```.*?^```|`[^`\n]+`", re.S | re.M)  # examples in the author guide
STRING = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")


def _keep_strings(match):
    """A Jinja expression blanked except its string literals: prose passed to a widget
    (a choice's feedback, a question's label) is prose too."""
    code = match.group()
    kept = [" "] * len(code)
    for literal in STRING.finditer(code):
        kept[literal.start() : literal.end()] = literal.group()
    return "".join(c if c == "\n" or kept[i] != " " else kept[i] for i, c in enumerate(code))


def _blank(match):
    return re.sub(r"[^\n]", " ", match.group())  # keeps line numbers


def typed_decimals(text):
    """(line, number) for each decimal typed outside Jinja code and front matter."""
    if text.startswith("---"):
        end = text.find("\n---", 3)
        text = "\n" * text[:end].count("\n") + text[end:] if end > 0 else text
    prose = CODE.sub(_blank, JINJA.sub(_keep_strings, text))
    return [(n, m.group()) for n, line in enumerate(prose.splitlines(), 1) for m in TYPED_DECIMAL.finditer(line)]
