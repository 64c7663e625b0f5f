"""How much of a lesson template is logic rather than prose; ``python -m macros.tools.lint`` prints it.

A line is logic when it holds only template tags or comments (``{% … %}``, ``{# … #}``),
counting every line of a tag or comment that spans several. The ``{% call claim(…) %}`` and
``{% endcall %}`` lines are not: the sentence between them is prose. The ratio is logic lines
over the non-blank lines after the front matter; a lesson may have at most ``LIMIT`` of it.

A lesson may not use Jinja's ``namespace(``: a value built up across a loop is computation,
and packed onto one line it would also slip past the count. It belongs in a named helper.
"""

import re
import sys
from pathlib import Path

LIMIT = 0.10
CLAIM_TAG = re.compile(r"\{%-?\s*(call\s+claim\b.*|endcall\s*-?%\})")
CLOSED = re.compile(r"\{%.*?%\}|\{#.*?#\}")
OPENING = re.compile(r"\{([%#])")
NAMESPACE = re.compile(r"\bnamespace\s*\(")
NAMESPACE_ADVICE = "namespace( builds a value in the template; compute it in a named helper, see docs/authoring.md"


def body(text):
    """The template after its front matter."""
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end > 0:
            return text[end + 4 :]
    return text


def logic_lines(text):
    """(logic lines, non-blank lines) of a template's body."""
    logic = total = 0
    open_tag = None
    for raw in body(text).splitlines():
        line = raw.strip()
        if not line:
            continue
        total += 1
        rest, was_inside = line, False
        if open_tag:
            end = rest.find(open_tag)
            if end < 0:
                logic += 1
                continue
            rest, was_inside, open_tag = rest[end + 2 :], True, None
        if CLAIM_TAG.fullmatch(line):
            continue
        stripped = CLOSED.sub("", rest)
        opening = OPENING.search(stripped)
        if opening:
            open_tag = opening.group(1) + "}"
            logic += not stripped[: opening.start()].strip()
            continue
        if not stripped.strip() and (was_inside or stripped != rest):
            logic += 1
    return logic, total


def namespace_uses(text, path):
    """One message per line of the template that uses ``namespace(``, naming file and line."""
    return [
        f"{path}:{number}: {NAMESPACE_ADVICE}"
        for number, line in enumerate(text.splitlines(), start=1)
        if NAMESPACE.search(line)
    ]


def ratio(text):
    logic, total = logic_lines(text)
    return logic / total if total else 0.0


def report(root="lessons"):
    """One line per lesson, one per use of ``namespace(``, and whether every lesson is within
    the limit and uses none."""
    lines, ok = [], True
    for path in sorted(Path(root).glob("*/lesson.md")):
        text = path.read_text(encoding="utf-8")
        uses = namespace_uses(text, path)
        ok = ok and not uses
        lines += uses
        logic, total = logic_lines(text)
        share = logic / total if total else 0.0
        over = share > LIMIT
        ok = ok and not over
        verdict = f"  over the limit of {LIMIT:.0%}" if over else ""
        lines.append(f"{path}: {logic} of {total} lines are template logic ({share:.1%}){verdict}")
    return lines, ok


def main():
    lines, ok = report()
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
