"""The site built for real: strict, offline, with the MkDocs wiring proved by a few builds.

What an author reads for each kind of mistake is tested in this process (tests/test_book.py);
here a strict build shows that it stops with that line and publishes nothing, and one
forgiving build (``make serve``'s) carries many mistakes at once and shows each on its page.
"""

import re
import shutil

import numpy as np
import pytest

from macros.notebooks import slug_file_name
from macros.sources import fixture
from tests.sitebuild import build, edit, lesson_page

LESSON = "lessons/two-heads-separate-projections"
PAGE = lesson_page("two-heads-separate-projections")


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
        text = site.page(PAGE)
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
        text = site.page(f"{lesson}/index.html").replace("\u2212", "-")
        for number in numbers:
            assert number in text, (lesson, number)

    def test_solution_notes_the_rounding_only_because_it_is_true(self, site):
        # ALiBi's last row, by hand: e^-1.5 + e^-2 + e^-1.5 + e^0 = 0.2231 + 0.1353 + 0.2231 + 1
        # = 1.5816 -> 1.582, while the exponentials as shown, 0.223 + 0.135 + 0.223 + 1.000, give 1.581
        assert "it comes to 1.581; unrounded, it is 1.582" in site.page(lesson_page("alibi"))

    def test_math_is_typeset_at_build_time(self, site):
        page = (site.site / PAGE).read_text(encoding="utf-8")
        assert 'class="katex"' in page and "arithmatex" not in page

    def test_the_search_index_reads_math_as_text(self, site):
        import json

        docs = json.loads((site.site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
        index = json.dumps(docs)  # the pages' text, not the index's settings (its word separator has brackets)
        assert "\\\\(" not in index and "\\\\[" not in index and "bmatrix" not in index
        assert "d_k" in index

    def test_the_search_finds_the_abbreviations_and_leaves_out_answers_and_tables(self, site):
        import json

        docs = json.loads((site.site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
        text = " ".join(doc["title"] + " " + doc["text"] for doc in docs)
        assert all(word in text for word in ("GQA", "MQA", "RoPE"))
        assert "Hint 1" not in text  # hints open only after attempts
        assert "needs JavaScript" not in text  # a widget's notice for readers without scripts
        assert not re.search(r"\d\.\d{3}, \d\.\d{3}, \d\.\d{3} [a-z]", text)  # no row of a table of numbers
        glossary = [doc for doc in docs if doc["location"].startswith("glossary.html")]
        assert len(glossary) > 5 and all(doc["text"].strip() for doc in glossary[1:])

    def test_search_from_disk_reads_the_same_index_with_the_published_worker_shim(self, site):
        """macros/site/compat.py, point 3: the offline plugin's script form of the index holds
        the plain-math index, and the one worker shim the pages load is the site's own copy."""
        index = (site.site / "search" / "search_index.json").read_text(encoding="utf-8")
        assert (site.site / "search" / "search_index.js").read_text(encoding="utf-8") == f"var __index = {index}"
        for page, prefix in (("index.html", ""), (PAGE, "../../")):
            html = (site.site / page).read_text(encoding="utf-8")
            shims = re.findall(r'<script src="([^"]*iframe-worker[^"]*)"', html)
            assert shims == [f"{prefix}assets/vendor/iframe-worker/shim.js"], (page, shims)
        assert (site.site / "assets/vendor/iframe-worker/shim.js").is_file()

    def test_every_page_is_a_file_that_links_to_files(self, site):
        """Opened from disk, a link to a folder shows a listing, not its page: every link between
        pages names the page's file (use_directory_urls: false)."""
        for name in ("index.html", "glossary.html", "authoring.html", PAGE):
            html = (site.site / name).read_text(encoding="utf-8")
            targets = set(re.findall(r'<a [^>]*href="([^"#:]+)(?:#[^"]*)?"', html))
            assert targets and all(t.endswith((".html", ".ipynb")) for t in targets), (name, sorted(targets))

    def test_the_author_guide_is_off_the_readers_path(self, site):
        lesson = (site.site / PAGE).read_text(encoding="utf-8")
        assert "authoring.html" not in lesson and "Writing a lesson" not in lesson
        assert 'href="authoring.html"' in (site.site / "index.html").read_text(encoding="utf-8")

    def test_nothing_is_loaded_from_another_host(self, site):
        loads = re.compile(r"""(?:<script[^>]*\bsrc|<link[^>]*\bhref|<img[^>]*\bsrc|url\()\s*=?\s*["']?(https?:)?//""")
        offenders = []
        for path in site.site.rglob("*"):
            if path.suffix in {".html", ".css"}:
                offenders += [f"{path}: {m.group(0)}" for m in loads.finditer(path.read_text(encoding="utf-8"))]
        assert offenders == []


def refused(result, *fragments):
    assert result.returncode != 0, result.output
    assert "Traceback" not in result.output, result.output
    for fragment in fragments:
        assert fragment in result.output, result.output
    return result


@pytest.mark.build
class TestAStrictBuildStops:
    def test_at_a_lesson_mistake_with_its_located_line_and_publishes_nothing(self, project):
        path = project / LESSON / "fixture.yaml"
        edit(path, "W_K: *first_pair", "W_K: [[1, 0, 0], [0, 1, 0], [0, 0, 0], [0, 0, 0]]")
        line = 1 + path.read_text(encoding="utf-8").split("W_K: [[1, 0, 0]")[0].count("\n")
        result = refused(
            build(project),
            f"{LESSON}/fixture.yaml:{line}: heads[0].W_K: expected a 4×2 matrix (d_model × d_k), got 4×3",
        )
        assert not (result.site / "index.html").exists()  # MkDocs writes no page before every page is read

    def test_at_a_broken_link(self, project):
        edit(
            project / LESSON / "lesson.md",
            "(../one-head-with-projections/lesson.md)",
            "(../one-head-with-projection/lesson.md)",
        )
        refused(build(project), "'../one-head-with-projection/lesson.md', but the target", "Aborted with 1 warnings")

    def test_without_node_it_says_what_is_missing(self, project):
        """Without Node.js the math cannot be typeset: the build says so instead of a traceback.
        (A build whose formulas are all in .cache/katex needs no Node.js at all.)"""
        shutil.rmtree(project / ".cache" / "katex")
        edit(project / "macros/render/katex.py", '["node", str(SERVER)', '["node-that-is-not-installed", str(SERVER)')
        refused(build(project), "Node.js (the `node` command) is needed to typeset math at build time")


@pytest.mark.build
def test_a_forgiving_build_shows_every_mistake_on_its_page(project):
    """``make serve``'s build (STRICT=false) keeps going: each broken page says what is wrong,
    the others are as they were, and a lesson whose page fails publishes no notebook."""
    edit(project / LESSON / "fixture.yaml", "- [1, 1, -1, 1]", "- [1, 1, -1]")
    claims = project / "lessons/tracing-two-heads/fixture.yaml"
    edit(claims, "[1, 1, 0, 0]", "[1, 0, 0, 0]")  # a tie where a claim names one winner
    edit(project / "lessons/masks/lesson.md", "## A row that can see no key", "## A row that can see no key\n\n0.768")
    # Text a page prints that looks like a template reaches the reader as it is: the page is
    # rendered once, by the book, never again by mkdocs-macros.
    edit(project / "lessons/attention-by-hand/lesson.md", "## The numbers", '## The numbers\n\n{{ "{{ kept }}" }}')
    edit(project / "docs/glossary.md", "# Glossary\n", "# Glossary\n\n$$\n\\frac{1}{\n$$\n")
    result = build(project, strict=False)
    assert result.returncode == 0, result.output
    assert "fixture.yaml:6: X[2] (row 3): expected 4 numbers like the first row, got 3" in result.page(PAGE)
    assert not (result.site / LESSON / slug_file_name(LESSON.split("/")[1])).exists()
    assert (result.site / "lessons/kv-cache" / slug_file_name("kv-cache")).exists()
    assert "is a tie as shown to 3 decimals, so no single position wins" in result.page(
        lesson_page("tracing-two-heads")
    )
    assert "typed number 0.768; show it with a helper" in result.page(lesson_page("masks"))
    assert "{{ kept }}" in result.page(lesson_page("attention-by-hand"))
    assert "glossary.md: malformed LaTeX" in result.output
    assert "Traceback" not in result.output


def test_numpy_is_float64_everywhere():
    trace = fixture.load(f"{LESSON}/fixture.yaml").run()
    assert all(head.weights.dtype == np.float64 for head in trace.heads)
