"""The practice block wired into fixtures, the build and the page (macros/practice/build.py,
macros/sources/practice_key.py, macros/render/practice.py).

Sources of expected values: numpy's trace (macros.engine) of each variant's fixture, read
at the graded path; the browser's generator (docs/assets/js/practice/generator.js) through
node for variants 1..50 (1..3 in `make test-fast`, the rest marked slow), compared number
for number with Python's draw; the built page for variant 0. Messages are the author
guide's (docs/authoring.md, "Practice on fresh numbers").
"""

import html
import json
import re
import shutil

import pytest

from macros import lessons
from macros.engine.trace import to_dict
from macros.errors import FixtureError
from macros.practice import build, check, generator
from macros.sources import practice_key
from macros.sources.fixture import validate
from tests.nodejs import run_node
from tests.test_js_twin import ROOT

LESSONS = sorted(path.parent for path in (ROOT / "lessons").glob("*/fixture.yaml"))
SLUGS = [folder.name for folder in LESSONS]
COUNT = 50


def numpy_at(fixture, path):
    return generator.resolve_trace(to_dict(validate("variant.yaml", fixture).run()), path)


def copy_lessons(tmp_path, *slugs):
    for slug in slugs:
        shutil.copytree(ROOT / "lessons" / slug, tmp_path / "lessons" / slug)
    return tmp_path / "lessons"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Each test draws into its own cache, so none depends on what an earlier build left."""
    monkeypatch.setenv("ABH_PRACTICE_CACHE", str(tmp_path / "cache"))


# ---------------------------------------------------------------- the fixture key


class TestFixtureKey:
    def test_every_lesson_has_a_practice_block(self):
        assert all(practice_key.block(folder / "fixture.yaml") for folder in LESSONS)

    def test_extends_does_not_pass_the_parents_block_on(self, tmp_path):
        folder = copy_lessons(tmp_path, "tracing-two-heads", "output-projection-and-head-order")
        child = folder / "output-projection-and-head-order" / "fixture.yaml"
        child.write_text("extends: tracing-two-heads\n", encoding="utf-8")
        assert practice_key.block(folder / "tracing-two-heads" / "fixture.yaml") is not None
        assert practice_key.block(child) is None
        assert build.load(child) is None

    def test_a_childs_own_block_is_its_own(self):
        child = ROOT / "lessons" / "two-heads-of-dimension-one" / "fixture.yaml"
        parent = ROOT / "lessons" / "attention-by-hand" / "fixture.yaml"
        assert practice_key.block(child)["answer"] == "heads.0.weights.0.0"
        assert practice_key.block(parent)["answer"] == "heads.0.weights.0.1"

    @staticmethod
    def refused(tmp_path, require):
        """The error of tracing-two-heads with its ``require: [scores_within: 8]`` rewritten,
        and the line of that field."""
        folder = copy_lessons(tmp_path, "tracing-two-heads") / "tracing-two-heads"
        fixture = folder / "fixture.yaml"
        text = fixture.read_text(encoding="utf-8").replace("[scores_within: 8]", require)
        fixture.write_text(text, encoding="utf-8")
        line = text.splitlines().index(f"  require: {require}") + 1
        with pytest.raises(FixtureError) as caught:
            lessons.load(folder)
        return str(caught.value), line

    def test_an_unknown_constraint_is_located_by_line_and_path(self, tmp_path):
        message, line = self.refused(tmp_path, "[scores_within: 8, no_ties]")
        assert message.endswith(
            f"fixture.yaml:{line}: practice.require[1]: expected one of the constraints no_tied_top_weight, "
            "scores_within, no_fully_masked_row, got 'no_ties'"
        )

    def test_unsatisfiable_constraints_stop_the_build_with_a_located_message(self, tmp_path):
        message, line = self.refused(tmp_path, "[scores_within: 0.1]")
        assert re.search(
            rf"fixture.yaml:{line}: practice.require\[0\]: expected numbers satisfying scores_within: 0.1 "
            r"within 200 draws \(variant 1\), got \d+ of 200 draws failing it$",
            message,
        )


# ---------------------------------------------------------------- the cache


class TestLessonAnswers:
    LESSON = ROOT / "lessons" / "two-heads-separate-projections" / "fixture.yaml"

    def test_the_variant_zero_answers_are_the_lessons_trace(self):
        practice = build.load(self.LESSON)
        lesson = lessons.load(self.LESSON.parent)
        # heads.0.output.2.0: head 1's first coordinate of the reading at position 3.
        assert practice.answers == (float(lesson.trace.heads[0].output[2][0]),)


# ---------------------------------------------------------------- variants 1..50: Python, node and numpy agree


# `make test-fast` compares the first variants; the rest of 1..COUNT are the slow sweep.
PARTS = {"first": range(1, 4), "rest": range(4, COUNT + 1)}


class Drawn(dict):
    """part -> {slug: (Spec, [(n, (fixture, trace) drawn in Python, the browser's {fixture, answers})])}.

    Each part is drawn when a test first asks for it: in Python lesson by lesson, in the
    browser's generator in one call for every lesson.
    """

    def __missing__(self, part):
        numbers = PARTS[part]
        python = {}
        for folder in LESSONS:
            spec, base = practice_key.read(folder / "fixture.yaml")
            python[folder.name] = (spec, base, [generator.variant(spec, base, n, "variant.yaml") for n in numbers])
        payload = {
            "variants": [
                {"spec": generator.to_plain(spec), "base": base, "variant": n}
                for spec, base, _ in python.values()
                for n in numbers
            ]
        }
        out = iter(run_node("run_practice.mjs", payload)["variants"])
        self[part] = {
            slug: (spec, [(n, drawn, next(out)) for n, drawn in zip(numbers, variants, strict=True)])
            for slug, (spec, _, variants) in python.items()
        }
        return self[part]


@pytest.fixture(scope="module")
def drawn():
    return Drawn()


@pytest.mark.parametrize("part", ["first", pytest.param("rest", marks=pytest.mark.slow)])
@pytest.mark.parametrize("slug", SLUGS)
def test_variants_are_the_same_in_the_browser_and_their_answers_are_numpys(drawn, slug, part):
    spec, variants = drawn[part][slug]
    for n, (fixture, trace), browser in variants:
        assert "error" not in browser, f"{slug} variant {n}: {browser}"
        assert browser["fixture"] == fixture, f"{slug} variant {n}"
        for path, answer in zip(spec.answers, browser["answers"], strict=True):
            assert answer == pytest.approx(numpy_at(browser["fixture"], path), rel=1e-12, abs=1e-12), (slug, n)
        assert generator.answers(spec, trace) == [numpy_at(fixture, p) for p in spec.answers]


# ---------------------------------------------------------------- variant 0 on the built page


def practice_elements(page_html):
    """[(variant, fixture, [(path, answer)])] for each practice element of a built page."""
    found = []
    for match in re.finditer(r'<div class="abh-practice" ([^>]*)>(.*?)</div>', page_html, re.S):
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', match[1]))
        checks = re.findall(r'<li class="abh-practice-check" data-path="([^"]*)" data-answer="([^"]*)"', match[2])
        fixture = json.loads(html.unescape(attrs["data-fixture"]))
        found.append((int(attrs["data-variant"]), fixture, [(p, float(a)) for p, a in checks]))
    return found


@pytest.mark.build
@pytest.mark.parametrize("slug", SLUGS)
def test_the_pages_answers_are_numpys_trace_of_its_fixture(site, slug):
    page_html = (site.site / "lessons" / slug / "index.html").read_text(encoding="utf-8")
    elements = practice_elements(page_html)
    assert len(elements) == 1
    variant, fixture, graded = elements[0]
    assert variant == 0 and graded
    assert fixture == lessons.load(ROOT / "lessons" / slug).plain_fixture
    for path, answer in graded:
        assert answer == numpy_at(fixture, path)


@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
def test_the_first_thousand_variants_pass(slug):
    fixture = ROOT / "lessons" / slug / "fixture.yaml"
    results = check.check_variants(fixture, practice_key.block(fixture), count=1000)
    assert len(results) == 1001
