"""Lessons read as prose: at most 10% of a lesson's lines are template logic (issue 8, section 1).

The measure is ``macros.tools.lint``; the hand-counted templates below pin down what it counts.
"""

import pytest

from macros.tools import lint
from tests.sitebuild import PROJECT

LESSONS = sorted((PROJECT / "lessons").glob("*/lesson.md"))


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.parent.name)
def test_every_lesson_is_mostly_prose(path):
    logic, total = lint.logic_lines(path.read_text(encoding="utf-8"))
    print(f"{path}: {logic} of {total} lines are template logic ({logic / total:.1%})")
    assert logic / total <= lint.LIMIT, f"{path}: {logic} of {total} lines are template logic"


def test_there_are_lessons_to_measure():
    assert len(LESSONS) >= 6


FRONT = "---\ntitle: T\n---\n"


def test_what_counts_as_logic():
    text = FRONT + "\n".join(
        [
            "{% set a = 1 %}",  # logic
            "{#- a comment",  # logic: every line of a comment that spans lines
            "    still the comment -#}",  # logic
            "{% call claim(a == 1) -%}",  # a claim's own tags do not count
            "A sentence with {{ a }} in it.",  # prose
            "{%- endcall %}",
            "{% if a %}Prose after a tag.{% endif %}",  # prose: the line holds words
            "",  # blank lines are not counted at all
            "{% for i in [1] %}",  # logic
            "{% endfor %}",  # logic
        ]
    )
    assert lint.logic_lines(text) == (5, 9)


def test_a_template_above_the_limit_fails():
    # The negative control: 2 logic lines of 10 is 20%, over the limit.
    text = FRONT + "{% set a = 1 %}\n{% set b = 2 %}\n" + "A line of prose.\n" * 8
    assert lint.ratio(text) == pytest.approx(0.2)
    assert lint.ratio(text) > lint.LIMIT


def test_the_report_flags_a_lesson_over_the_limit(tmp_path):
    for slug, body in [("good", "Prose.\n" * 10), ("bad", "{% set a = 1 %}\n" * 2 + "Prose.\n" * 3)]:
        (tmp_path / slug).mkdir()
        (tmp_path / slug / "lesson.md").write_text(FRONT + body, encoding="utf-8")
    lines, ok = lint.report(tmp_path)
    assert not ok
    assert any("bad" in line and "over the limit" in line for line in lines)
    assert any("good" in line and "0 of 10" in line and "over" not in line for line in lines)


def test_a_tag_spanning_lines_counts_every_line():
    text = FRONT + "{% set questions = [\n  (1, 2),\n  (3, 4),\n] %}\nProse.\n"
    assert lint.logic_lines(text) == (4, 5)


def test_no_lesson_uses_namespace():
    uses = [message for path in LESSONS for message in lint.namespace_uses(path.read_text(encoding="utf-8"), path)]
    assert not uses, "\n".join(uses)


def test_a_namespace_fails_the_report_naming_file_and_line(tmp_path):
    # A value accumulated across a loop on one line: under the logic limit, but computation.
    loop = "{% set ns = namespace(xs=[]) %}{% for x in [1] %}{% set ns.xs = ns.xs + [x] %}{% endfor %}\n"
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "lesson.md").write_text(FRONT + "Prose.\n" * 9 + loop + "Prose.\n" * 10, encoding="utf-8")
    lines, ok = lint.report(tmp_path)
    assert not ok
    [message] = [line for line in lines if "namespace(" in line]
    assert message.startswith(f"{tmp_path / 'bad' / 'lesson.md'}:13: ")  # 3 lines of front matter, 9 of prose
    assert "compute it in a named helper, see docs/authoring.md" in message
