"""Typed numbers in lesson prose: every decimal on a page must come from a helper.

The check reads a template as text with the Jinja parts blanked out, so a number is
allowed inside {{ ... }} or {% ... %} (where it is code) and nowhere else; front matter
and code (fenced or inline, as in the author guide's examples) are skipped. A decimal
such as 0.5 or 1.41 in prose is a typed result. Section numbers like 8.2 (one decimal,
not starting with 0) pass. The build runs it on every lesson; the tests on every page.
"""

import re

from macros.sources import front_matter

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
    text = front_matter.blanked(text)
    prose = CODE.sub(_blank, JINJA.sub(_keep_strings, text))
    return [(n, m.group()) for n, line in enumerate(prose.splitlines(), 1) for m in TYPED_DECIMAL.finditer(line)]


NAMED = 10  # typed numbers named after the first; a pasted table is counted beyond that


def typed_numbers_message(name, text):
    """The message refusing the decimals typed in a lesson's prose, each named, or None.

    Every one is named (up to ``NAMED`` after the first), so that one build shows them all."""
    found = typed_decimals(text)
    if not found:
        return None
    (line, number), others = found[0], found[1:]
    named = [f"{n} on line {at}" for at, n in others[:NAMED]]
    named += [f"{len(others) - NAMED} more"] if len(others) > NAMED else []
    also = f" (also {', '.join(named)})" if others else ""
    return f"{name}:{line}: typed number {number}; show it with a helper{also}"


# ---------------------------------------------------------------- claims' own words

CLAIM = re.compile(r"\{%-?\s*call\s+claim\(.*?\)\s*-?%\}(?P<sentence>.*?)\{%-?\s*endcall\s*-?%\}", re.S)
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$", re.S)
PLACES = (
    r"positions?|keys?|query|queries|rows?|columns?|coordinates?|tokens?|slots?|pairs?|sequences?|blocks?|steps?"
    r"|heads?|entry|entries|layers?|groups?"
)
# "heads 1 and 2", "heads 1, 2 and 3", "keys 2 to 4", "row 3": the whole list is one typed value
LISTED = r"\d+(?:\s*(?:,|\band\b|\bor\b|\bto\b|–)\s*\d+)*"
TYPED_PLACE = re.compile(rf"\b(?:{PLACES})\s+{LISTED}\b|\b\d+\s+(?:{PLACES})\b", re.I)
QUOTED = re.compile(r"“([^”]*)”")


def typed_in_claims(text, labels=()):
    """(line, what) for each position, count or token label typed in a claim's sentence:
    the sentence must take them from the computation, as it takes its numbers, or it can say
    "row 3" of a row the condition does not check. Jinja expressions and math are skipped."""
    labels = {str(label) for label in labels}
    found = []
    for block in CLAIM.finditer(text):
        sentence = block["sentence"]
        prose = MATH.sub(_blank, JINJA.sub(_blank, sentence))
        start = block.start("sentence")
        typed = [(m.start(), m.group()) for m in TYPED_PLACE.finditer(prose)]
        typed += [(m.start(), m.group()) for m in QUOTED.finditer(prose) if m.group(1) in labels]
        found += [(text.count("\n", 0, start + at) + 1, what) for at, what in sorted(typed)]
    return found


def typed_in_claims_message(name, text, labels=()):
    """The message refusing the positions, counts and labels typed in a lesson's claims, or None."""
    found = typed_in_claims(text, labels)
    if not found:
        return None
    (line, what), others = found[0], found[1:]
    also = f" (also {', '.join(f'{w!r} on line {at}' for at, w in others)})" if others else ""
    return (
        f"{name}:{line}: a claim's sentence types {what!r}; write it from the computation "
        f"(position {{{{ r + 1 }}}}, {{{{ counted('key', keys) }}}}, “{{{{ tokens[i] }}}}”), as its numbers are{also}"
    )
