"""``make serve`` renders only what an edit touches, and the site it serves is the site a
clean build makes: every file, byte for byte, after each kind of edit.

The server's build loop (``macros.site.serve.Rebuilds``) runs in a subprocess over a copy
of the project, one build per line the test sends; after each edit the served folder is
compared with a clean ``mkdocs build`` of the same sources. A stale number on any page,
a search entry left behind or a nav missing a title would show as a differing file.
"""

import filecmp
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from macros.site import incremental
from tests.sitebuild import build, edit, environment

READER = "lessons/two-heads-of-dimension-one"  # its template reads lessons["attention-by-hand"]
READ = "lessons/attention-by-hand"

DRIVER = textwrap.dedent(
    """\
    import json, sys
    from macros.site.serve import Rebuilds

    rebuilds = Rebuilds("mkdocs.yml", sys.argv[1])
    for line in sys.stdin:
        pages = rebuilds.build()
        print(json.dumps(None if pages is None else sorted(pages)), flush=True)
    rebuilds.close()
    """
)


class Served:
    """The serve loop over a copied project, building into ``site``, one build per ``rebuild()``."""

    def __init__(self, root):
        self.root, self.site = Path(root), Path(root) / "served"
        self.process = subprocess.Popen(
            [sys.executable, "-c", DRIVER, str(self.site)],
            cwd=root,
            env=environment(strict=False),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def rebuild(self):
        self.process.stdin.write("build\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, "the serve loop stopped"
        pages = json.loads(line)
        return None if pages is None else set(pages)

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)


def differing(left, right):
    """Paths (relative) whose bytes differ, or that exist on one side only."""
    found = []

    def walk(cmp, prefix=""):
        found.extend(prefix + name for name in cmp.left_only + cmp.right_only + cmp.funny_files)
        _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
        found.extend(prefix + name for name in mismatch + errors)
        for name, sub in cmp.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(left, right))
    return sorted(found)


def clean_build(root):
    result = build(root, strict=False)
    assert result.returncode == 0, result.output
    return result.site


@pytest.fixture
def served(project):
    running = Served(project)
    assert running.rebuild() is None  # the first build renders every page
    yield running
    running.stop()


@pytest.mark.serve
def test_a_fixture_edit_renders_its_lesson_and_its_readers_and_nothing_is_stale(served, project):
    before = (served.site / READER / "index.html").read_bytes()
    edit(project / READ / "fixture.yaml", "  - [2, -1]", "  - [3, -1]")
    pages = served.rebuild()
    assert pages == {f"{READ}/lesson.md", f"{READER}/lesson.md"}
    assert (served.site / READER / "index.html").read_bytes() != before  # it shows the read numbers
    assert differing(served.site, clean_build(project)) == []


@pytest.mark.serve
def test_a_lesson_prose_edit_renders_that_lesson_and_nothing_is_stale(served, project):
    edit(project / READER / "lesson.md", "\n## ", "\n## Step: ")
    assert served.rebuild() == {f"{READER}/lesson.md"}
    assert differing(served.site, clean_build(project)) == []


@pytest.mark.serve
def test_a_title_edit_or_a_shared_partial_renders_everything(served, project):
    text = (project / READ / "lesson.md").read_text(encoding="utf-8")
    title = next(line for line in text.splitlines() if line.startswith("title:"))
    edit(project / READ / "lesson.md", title, title + " again")
    assert served.rebuild() is None
    partial = project / "macros/explain/steps.md.j2"
    partial.write_text(partial.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert served.rebuild() is None
    assert differing(served.site, clean_build(project)) == []


@pytest.mark.serve
def test_no_edit_renders_nothing(served):
    assert served.rebuild() == set()


class TestPlan:
    """The planner alone: which pages an edit touches (no build)."""

    def test_an_asset_touches_no_page_and_a_new_page_touches_all(self):
        readers = incremental.Readers()
        before = {"docs/assets/site.css": ("a", None)}
        assert incremental.plan(before, {"docs/assets/site.css": ("b", None)}, readers) == set()
        assert incremental.plan(before, {**before, "docs/new.md": ("c", "h")}, readers) is None

    def test_a_reader_of_every_lesson_is_touched_by_any_fixture(self):
        readers = incremental.Readers()
        readers.record("index.md", None)
        readers.record("lessons/b/lesson.md", {"a"})
        before = {"lessons/a/fixture.yaml": ("1", None), "lessons/c/fixture.yaml": ("1", None)}
        after = {**before, "lessons/c/fixture.yaml": ("2", None)}
        assert incremental.plan(before, after, readers) == {"lessons/c/lesson.md", "index.md"}
        after = {**before, "lessons/a/fixture.yaml": ("2", None)}
        assert incremental.plan(before, after, readers) == {"lessons/a/lesson.md", "index.md", "lessons/b/lesson.md"}

    def test_code_and_track_touch_everything(self):
        readers = incremental.Readers()
        for path in ("macros/engine/steps.py", "lessons/track.yaml", "mkdocs.yml"):
            assert incremental.plan({path: ("1", None)}, {path: ("2", None)}, readers) is None

    def test_a_fixture_touches_the_lessons_that_extend_it(self):
        readers = incremental.Readers()
        readers.record("lessons/d/lesson.md", {"c"})
        before = {
            "lessons/a/fixture.yaml": ("1", None),
            "lessons/b/fixture.yaml": ("1", "a"),  # extends: a
            "lessons/c/fixture.yaml": ("1", "b"),  # extends: b
            "lessons/d/fixture.yaml": ("1", None),
        }
        after = {**before, "lessons/a/fixture.yaml": ("2", None)}
        expected = {"lessons/a/lesson.md", "lessons/b/lesson.md", "lessons/c/lesson.md", "lessons/d/lesson.md"}
        assert incremental.plan(before, after, readers) == expected


def test_a_fixture_parent_is_read_from_its_text():
    """The quick reading of ``extends`` the planner and the lesson cache share (macros.book)."""
    from macros import book

    assert book.fixture_parent("# note\nextends: attention-by-hand\nn_heads: 2\n") == "attention-by-hand"
    assert book.fixture_parent("extends: 'two-heads'  # quoted\n") == "two-heads"
    assert book.fixture_parent("X: [[1]]\n") is None
    assert book.fixture_parent("{extends: a, n_heads: 2}\n") == book.ANY_LESSON


@pytest.mark.build
def test_the_readers_search_covers_the_book_not_the_author_guide(site):
    """Every page downloads the search index: the author guide (a third of it) stays out."""
    docs = json.loads((site.site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    pages = {entry["location"].split("#")[0] for entry in docs}
    assert "authoring/" not in pages
    assert {"lessons/attention-by-hand/", "lessons/online-softmax/", "glossary/"} <= pages


@pytest.mark.build
def test_the_search_index_holds_the_numbers_not_the_markup(site):
    """Readers search for numbers: the index has each formula's plain reading, never its TeX."""
    index = (site.site / "search" / "search_index.json").read_text(encoding="utf-8")
    for markup in (r"\\(", r"\\[", r"\\begin{bmatrix}", "arithmatex"):
        assert markup not in index, f"{markup} is in the search index"
    docs = json.loads(index)["docs"]
    text = " ".join(entry["text"] for entry in docs if entry["location"].startswith("lessons/attention-by-hand/"))
    page = (site.site / "lessons/attention-by-hand/index.html").read_text(encoding="utf-8")
    numbers = set(re.findall(r'<annotation encoding="application/x-tex">[^<]*?(\d+\.\d+)', page))
    assert numbers, "the page shows no decimal in its math"
    assert {n for n in numbers if n not in text} == set()
