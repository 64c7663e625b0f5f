"""The site built for real: strict, offline, with computed numbers that follow the fixture.

Each negative scenario breaks a copy of the project the way an author might and checks
that the build stops with a located message and no traceback.
"""

import re
import sys

import numpy as np
import pytest

from macros import engine, prepare
from macros.notebooks import slug_file_name
from macros.render.numbers import format_values
from macros.sources import fixture
from tests.sitebuild import build, edit

LESSON = "lessons/two-heads-separate-projections"
# A cold build of a copy uses worker processes only where they can run (macros/prepare.py).
WITH_WORKERS = pytest.mark.skipif(
    sys.platform != "linux" or prepare.workers() < 2, reason="no worker processes: one core, or not Linux"
)


@pytest.mark.build
class TestRealSite:
    def test_builds_strictly_without_warnings(self, site):
        assert "WARNING" not in site.output and "ERROR" not in site.output

    @pytest.mark.parametrize(
        "number",
        # seed 000, every published value: scaled scores, weights, readings, concatenation,
        # and the solution's sum from rounded weights.
        ["0.707", "1.414", "0.248", "0.503", "0.752", "0.074", "0.306", "0.620", "-0.546", "0.926", "0.751"],
    )
    def test_first_lesson_shows_the_seed_numbers(self, site, number):
        text = site.page(LESSON)
        assert re.search(rf"(?<![\d.]){re.escape(number)}(?!\d)", text.replace("\u2212", "-")), number

    @pytest.mark.parametrize(
        "lesson, numbers",
        [
            # seed 001: the single head of width two
            ("lessons/attention-by-hand", ["1.1740", "0.7643"]),
            # seed 001, head A: scores, plain exponentials, their sum, weights, output
            ("lessons/two-heads-of-dimension-one", ["2, 0, 2, -2", "7.3891, 1.0000, 7.3891, 0.1353", "15.9134"]),
            ("lessons/two-heads-of-dimension-one", ["0.4643, 0.0628, 0.4643, 0.0085", "1.3760"]),
            # seed 001, head B and the comparison with the single head, differences included
            ("lessons/two-heads-of-dimension-one", ["0.4754, 0.1749, 0.1749, 0.1749", "2.1036", "0.8744"]),
            ("lessons/two-heads-of-dimension-one", ["1.1740", "0.7643", "0.2019", "0.1101"]),
            # seed 003: the scaled score matrix and one dot-product expansion
            ("lessons/tracing-two-heads", ["0.71", "1.41", r"1\cdot 1+0\cdot 0"]),
        ],
    )
    def test_track_lessons_show_the_seed_numbers(self, site, lesson, numbers):
        text = site.page(lesson).replace("\u2212", "-")
        for number in numbers:
            assert number in text, (lesson, number)

    def test_solution_notes_the_rounding_only_because_it_is_true(self, site):
        # 0.248 + 0.503 = 0.751 from displayed weights; unrounded 0.75174... -> 0.752 (seed 000)
        assert "the last decimal moves" in site.page(LESSON)

    def test_math_is_typeset_at_build_time(self, site):
        page = (site.site / LESSON / "index.html").read_text(encoding="utf-8")
        assert 'class="katex"' in page and "arithmatex" not in page

    def test_nothing_is_loaded_from_another_host(self, site):
        loads = re.compile(r"""(?:<script[^>]*\bsrc|<link[^>]*\bhref|<img[^>]*\bsrc|url\()\s*=?\s*["']?(https?:)?//""")
        offenders = []
        for path in site.site.rglob("*"):
            if path.suffix in {".html", ".css"}:
                offenders += [f"{path}: {m.group(0)}" for m in loads.finditer(path.read_text(encoding="utf-8"))]
        assert offenders == []


@pytest.mark.build
class TestFixtureDrivesThePage:
    def test_changing_the_fixture_changes_every_computed_number(self, project):
        edit(project / LESSON / "fixture.yaml", "- [1, 1, -1, 1]", "- [2, 1, -1, 3]")
        result = build(project)
        assert result.returncode == 0, result.output
        text = result.page(LESSON).replace("\u2212", "-")
        trace = engine.run(fixture.load(project / LESSON / "fixture.yaml"))
        for head in trace.heads:
            for value in format_values(head.weights[2], 3) + format_values(head.output[2], 3):
                assert value.replace("\u2212", "-") in text
        assert "0.503" not in text and "0.926" not in text  # the old seed values are gone


def refused(result, *fragments):
    assert result.returncode != 0, result.output
    assert "Traceback" not in result.output, result.output
    for fragment in fragments:
        assert fragment in result.output, result.output
    return result


@pytest.mark.build
class TestAuthorMistakesStopTheBuild:
    def test_a_build_of_the_untouched_copy_passes(self, project):
        # negative control for this class: the scenarios below fail only because of their edit
        assert build(project).returncode == 0

    def test_bad_fixture(self, project):
        path = project / LESSON / "fixture.yaml"
        edit(path, "W_K: *first_pair", "W_K: [[1, 0, 0], [0, 1, 0], [0, 0, 0], [0, 0, 0]]")
        line = 1 + path.read_text(encoding="utf-8").split("W_K: [[1, 0, 0]")[0].count("\n")
        result = refused(
            build(project),
            f"{LESSON}/fixture.yaml:{line}: heads[0].W_K: expected a 4×2 matrix (d_model × d_k), got 4×3",
        )
        assert not (result.site / LESSON / "index.html").exists()

    @WITH_WORKERS
    def test_a_lesson_mistake_is_reported_before_an_earlier_pages_mistake(self, project):
        """A cold build computes its lessons in worker processes while it converts the first
        pages (macros/prepare.py); it still reports what a build that computed every lesson
        first reports: the fixture's mistake, not the page mistake it reaches earlier."""
        edit(project / "lessons/attention-by-hand/lesson.md", "{{ mat(", "{{ mat(fixture.Xs) }}{{ mat(")
        path = project / LESSON / "fixture.yaml"
        edit(path, "W_K: *first_pair", "W_K: [[1, 0, 0], [0, 1, 0], [0, 0, 0], [0, 0, 0]]")
        result = refused(build(project), f"{LESSON}/fixture.yaml:")
        assert "Xs" not in result.output, result.output

    @WITH_WORKERS
    def test_a_practice_check_left_for_later_still_stops_the_build(self, project):
        """A strict cold build checks the practice variants last, while it writes the pages
        (macros/prepare.py): an impossible constraint still stops it with the located message,
        and stops the next build too (the lesson was never marked known good)."""
        path = project / "lessons/tracing-two-heads/fixture.yaml"
        edit(path, "[scores_within: 8]", "[scores_within: 0.1]")
        line = path.read_text(encoding="utf-8").splitlines().index("  require: [scores_within: 0.1]") + 1
        message = f"tracing-two-heads/fixture.yaml:{line}: practice.require[0]: expected numbers satisfying"
        for _ in range(2):
            refused(build(project), message)

    def test_false_claim_names_the_lesson_and_the_claim(self, project):
        # Give head 2 head 1's projections: the heads' weights no longer differ.
        edit(project / LESSON / "fixture.yaml", "W_Q: &last_pair [[0, 0], [0, 0], [1, 0], [0, 1]]", "W_Q: *first_pair")
        edit(project / LESSON / "fixture.yaml", "W_K: *last_pair", "W_K: *first_pair")
        edit(project / LESSON / "fixture.yaml", "W_V: *last_pair", "W_V: *first_pair")
        result = refused(build(project), "this claim is false for the fixture's numbers: Head 2 puts")
        assert re.search(rf"ERROR +- +{LESSON}/lesson\.md:\d+: this claim is false", result.output), result.output

    def test_false_claim_in_another_lesson(self, project):
        # "mouse" embedded like "chases": it no longer attends most to itself in head 1.
        lesson = "lessons/tracing-two-heads"
        edit(project / lesson / "fixture.yaml", "[1, 1, 0, 0]", "[0, 1, 0, 1]")
        refused(build(project), f"{lesson}/lesson.md")

    def test_a_tie_where_a_claim_needs_one_winner_names_the_place(self, project):
        lesson = "lessons/tracing-two-heads"
        edit(project / lesson / "fixture.yaml", "[1, 1, 0, 0]", "[1, 0, 0, 0]")
        refused(build(project), f"{lesson}/lesson.md:", "is a tie as shown to 3 decimals, so no single position wins")

    def test_misspelled_variable_names_the_file_and_line(self, project):
        template = project / LESSON / "lesson.md"
        edit(template, "{{ mat(fixture.X) }}", "{{ mat(fixture.Xs) }}")
        line = 1 + template.read_text(encoding="utf-8").split("fixture.Xs")[0].count("\n")
        refused(build(project), f"{LESSON}/lesson.md:{line}: fixture has no value 'Xs'; did you mean 'X'?")

    def test_an_expression_jinja_cannot_compile(self, project):
        edit(project / LESSON / "lesson.md", "{{ mat(fixture.X) }}", "{{ mat(fixture.X[:, 0]) }}")
        result = refused(build(project), f"{LESSON}/lesson.md: an expression Jinja cannot compile")
        assert "<template>" not in result.output  # nothing of the code Jinja generated

    def test_unknown_name_names_the_file(self, project):
        edit(project / LESSON / "lesson.md", "{{ trace.n_heads }}", "{{ traec.n_heads }}")
        refused(build(project), f"{LESSON}/lesson.md:", "'traec' is undefined")

    def test_malformed_latex_names_the_page(self, project):
        edit(project / "docs/index.md", "# Attention by Hand", "# Attention by Hand\n\n$$\n\\frac{1}{\n$$\n")
        refused(build(project), "index.md: malformed LaTeX")

    def test_broken_link(self, project):
        edit(project / "docs/index.md", "(glossary.md)", "(glossry.md)")
        refused(build(project), "contains a link 'glossry.md', but the target is not found")

    def test_broken_link_between_lessons(self, project):
        edit(project / LESSON / "lesson.md", "(../attention-by-hand/lesson.md)", "(../attention-by-head/lesson.md)")
        refused(build(project), "'../attention-by-head/lesson.md', but the target", "Aborted with 1 warnings")

    def test_lesson_missing_from_the_track(self, project):
        edit(project / "lessons/track.yaml", "      - compare-heads-before-averaging\n", "")
        refused(build(project), "lessons/track.yaml: chapters: expected every lesson folder listed, got not listed")

    def test_prerequisite_after_the_lesson(self, project):
        edit(project / LESSON / "lesson.md", "requires: [attention-by-hand]", "requires: [tracing-two-heads]")
        refused(build(project), f"{LESSON}/lesson.md: front matter: requires: expected lessons listed earlier")

    def test_a_typed_number_in_prose(self, project):
        template = project / LESSON / "lesson.md"
        edit(template, "## The input", "## The input\n\nThe first weight is 0.768.")
        line = 1 + template.read_text(encoding="utf-8").split("0.768")[0].count("\n")
        refused(build(project), f"{LESSON}/lesson.md:{line}: typed number 0.768; show it with a helper")

    def test_unknown_front_matter_field(self, project):
        edit(project / LESSON / "lesson.md", "decimals: 3", "decimal: 3")
        refused(build(project), f"{LESSON}/lesson.md: front matter: decimal: expected one of")


@pytest.mark.build
class TestServeIsForgiving:
    def test_a_typed_number_shows_on_the_page_and_macros_does_not_render_twice(self, project):
        edit(project / LESSON / "lesson.md", "## The input", "## The input\n\nThe first weight is 0.768.")
        # Text a page prints that looks like a template must reach the reader as it is:
        # the page is rendered once, by the book, never again by mkdocs-macros.
        other = project / "lessons/attention-by-hand/lesson.md"
        edit(other, "## The numbers", '## The numbers\n\n{{ "{{ kept as written }}" }}')
        result = build(project, strict=False)
        assert result.returncode == 0, result.output
        assert "lesson.md:" in result.page(LESSON) and "typed number 0.768; show it with a helper" in result.page(
            LESSON
        )
        assert "{{ kept as written }}" in result.page("lessons/attention-by-hand")

    def test_a_bad_fixture_shows_on_the_page_instead_of_stopping(self, project):
        edit(project / LESSON / "fixture.yaml", "- [1, 1, -1, 1]", "- [1, 1, -1]")
        result = build(project, strict=False)
        assert result.returncode == 0, result.output
        assert "fixture.yaml:6: X[2] (row 3): expected 4 numbers like the first row, got 3" in result.page(LESSON)
        assert not (result.site / LESSON / slug_file_name(LESSON.split("/")[1])).exists()  # and no notebook
        assert (result.site / "lessons/masks" / slug_file_name("masks")).exists()

    def test_a_false_claim_shows_on_the_page(self, project):
        edit(project / LESSON / "fixture.yaml", "W_V: *last_pair", "W_V: *first_pair")
        edit(project / LESSON / "fixture.yaml", "W_Q: &last_pair [[0, 0], [0, 0], [1, 0], [0, 1]]", "W_Q: *first_pair")
        edit(project / LESSON / "fixture.yaml", "W_K: *last_pair", "W_K: *first_pair")
        result = build(project, strict=False)
        assert result.returncode == 0, result.output
        assert "this claim is false" in result.page(LESSON)


def test_numpy_is_float64_everywhere():
    trace = engine.run(fixture.load(f"{LESSON}/fixture.yaml"))
    assert all(head.weights.dtype == np.float64 for head in trace.heads)


@pytest.mark.build
def test_missing_node_is_a_clear_error(project):
    """Without Node.js the math cannot be typeset: the build says so instead of a traceback."""
    edit(project / "macros/render/katex.py", '["node", str(SERVER)', '["node-that-is-not-installed", str(SERVER)')
    refused(build(project), "Node.js (the `node` command) is needed to typeset math at build time")
