"""Finished pages and notebooks kept in .cache/pages (macros/page_cache.py): an unchanged
page is read back, not computed, and every source a page depends on takes it out of use.

Each test renders from a copy of the project, once to fill the cache and again after an
edit, counting the lessons the second book computes and the pages it renders. Copies of
the project are `build` tests (pyproject.toml), so they run in `make test`, not test-fast.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import macros.lessons
from macros import page_cache
from macros.book import Book, PageError
from macros.errors import LessonError
from tests.sitebuild import copy_project

# The reader's template reads lessons["output-projection-and-head-order"], a lesson its own
# fixture does not extend: only the record of what it read can tell the cache to redo it.
READER = "two-heads-separate-projections"
READ = "output-projection-and-head-order"


def page(slug):
    return f"lessons/{slug}/lesson.md"


@pytest.fixture
def project(tmp_path):
    return copy_project(tmp_path)


def broken(project, slug):
    """The lesson's fixture with a mistake in a field (its number of heads written in words)."""
    fixture = project / "lessons" / slug / "fixture.yaml"
    text = fixture.read_text(encoding="utf-8")
    fixture.write_text(text + "\nn_heads: two\n", encoding="utf-8")


@pytest.fixture
def counted(monkeypatch):
    """The slugs each new book computes, and the pages it renders, in order."""
    seen = {"computed": [], "rendered": []}
    load, render_page = macros.lessons.load, Book._render_page

    def counting_load(folder):
        seen["computed"].append(folder.name)
        return load(folder)

    def counting_render(self, src_uri, *args):
        seen["rendered"].append(src_uri)
        return render_page(self, src_uri, *args)

    monkeypatch.setattr(macros.lessons, "load", counting_load)
    monkeypatch.setattr(Book, "_render_page", counting_render)
    return seen


def render(root, slug, eager=False):
    book = Book(root, eager=eager)
    return book, book.render(page(slug), root / page(slug))


def test_an_unchanged_page_is_read_back_without_computing(project, counted):
    _, first = render(project, READER)
    counted["computed"].clear(), counted["rendered"].clear()
    _, second = render(project, READER)
    assert second == first
    assert counted == {"computed": [], "rendered": []}


def test_an_edit_to_the_page_own_template_renders_it_again(project, counted):
    render(project, READER)
    template = project / page(READER)
    template.write_text(template.read_text(encoding="utf-8") + "\nA sentence added at the end.\n", encoding="utf-8")
    _, markdown = render(project, READER)
    assert "A sentence added at the end." in markdown
    assert counted["rendered"][-1] == page(READER)


def test_an_edit_to_a_lesson_it_reads_renders_it_again(project, counted):
    render(project, READER)
    fixture = project / "lessons" / READ / "fixture.yaml"
    fixture.write_text(fixture.read_text(encoding="utf-8") + "\n# a comment changes the digest\n", encoding="utf-8")
    counted["rendered"].clear()
    render(project, READER)
    assert counted["rendered"] == [page(READER)]


def test_an_edit_to_a_lesson_it_does_not_read_leaves_it_cached(project, counted):
    render(project, READER)
    fixture = project / "lessons" / "masks" / "fixture.yaml"
    fixture.write_text(fixture.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    counted["rendered"].clear()
    render(project, READER)
    assert counted["rendered"] == []


def test_other_code_renders_it_again(project, counted, monkeypatch):
    """The key holds a digest of the code that runs (macros/, wherever it is imported from)."""
    render(project, READER)
    digest = page_cache.code_digest()
    monkeypatch.setattr(page_cache, "code_digest", lambda: digest + "-edited")
    counted["rendered"].clear()
    render(project, READER)
    assert counted["rendered"] == [page(READER)]


def test_code_digest_follows_every_file_of_the_package(tmp_path, monkeypatch):
    copy = tmp_path / "macros"
    shutil.copytree(Path(page_cache.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(page_cache, "__file__", str(copy / "page_cache.py"))
    before = page_cache.code_digest()
    with open(copy / "render" / "numbers.py", "a", encoding="utf-8") as file:
        file.write("\n# an edit\n")
    assert page_cache.code_digest() != before


def test_a_chapter_title_renders_it_again_a_comment_does_not(project, counted):
    render(project, READER)
    track = project / "lessons" / "track.yaml"
    text = track.read_text(encoding="utf-8")
    track.write_text(text + "\n# a comment\n", encoding="utf-8")
    counted["rendered"].clear()
    render(project, READER)
    assert counted["rendered"] == []
    track.write_text(text.replace("title: One head", "title: One head, by hand", 1), encoding="utf-8")
    render(project, READER)
    assert counted["rendered"] == [page(READER)]


def test_a_page_mistake_is_found_again_by_every_build(project):
    """A typed number refused on the page of a lesson that computes fine: a second (eager)
    book, which knows the lesson, refuses it again; mended, the page renders once more."""
    template = project / page(READER)
    good = template.read_text(encoding="utf-8")
    render(project, READER, eager=True)
    template.write_text(good + "\nThe weight is 0.768 here.\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(PageError, match="typed number 0.768"):
            render(project, READER, eager=True)
    template.write_text(good, encoding="utf-8")
    render(project, READER, eager=True)


def test_deleting_the_cache_changes_nothing_but_time(project, counted):
    _, first = render(project, READER)
    shutil.rmtree(project / ".cache" / "pages")
    counted["rendered"].clear()
    _, again = render(project, READER)
    assert again == first and counted["rendered"] == [page(READER)]


def test_a_notebook_is_kept_by_its_lesson_sources(project, counted):
    first = Book(project, eager=False).notebook(READ)
    counted["computed"].clear()
    assert Book(project, eager=False).notebook(READ) == first
    assert counted["computed"] == []


def test_an_entry_is_used_only_while_the_lessons_it_read_are_unchanged(tmp_path):
    cache = page_cache.PageCache(tmp_path, "code", "track")
    cache.keep_page("k", "text", {"a"}, {"a": "1", "b": "2"})
    assert cache.page("k", {"a": "1", "b": "3"}) == ("text", {"a"})
    assert cache.page("k", {"a": "9", "b": "2"}) is None
    cache.keep_page("all", "text", None, {"a": "1", "b": "2"})
    assert cache.page("all", {"a": "1", "b": "2"}) == ("text", None)
    assert cache.page("all", {"a": "1", "b": "3"}) is None


@pytest.mark.slow
def test_a_build_computes_only_the_lessons_it_does_not_know(project, counted):
    """A second eager book computes nothing: every lesson computed before from the same sources."""
    first = Book(project)  # computed in this process or in workers (macros/prepare.py)
    assert not first.failures
    shown = first.render(page(READ), project / page(READ))
    counted["computed"].clear()
    second = Book(project)
    assert counted["computed"] == [] and not second.failures
    assert second.render(page(READ), project / page(READ)) == shown and counted["computed"] == []


def test_a_later_check_marks_nothing_for_a_lesson_that_fails(project):
    """A worker checks practice variants last (Book.check): a lesson that fails to compute
    is never marked known good, even with no practice block to fail, so the next build
    computes it again and reports it."""
    fixture = project / "lessons" / READ / "fixture.yaml"
    fixture.write_text(fixture.read_text(encoding="utf-8").split("\npractice:")[0] + "\n", encoding="utf-8")
    broken(project, READ)
    with pytest.raises(LessonError, match="n_heads"):
        Book(project, eager=False, check_practice=False).check(READ)
    assert READ in Book(project, parallel=False).failures


# Run in a process of its own: the test session runs threads (Node, servers), and a process
# with threads never forks workers (prepare.worth_it).
IN_A_FRESH_PROCESS = """
import json, os, sys
import macros.lessons
here, computed, load = os.getpid(), [], macros.lessons.load
def counting_load(folder):
    if os.getpid() == here:
        computed.append(folder.name)
    return load(folder)
macros.lessons.load = counting_load
from macros.book import Book
from macros import prepare
book = Book(sys.argv[1], cache=sys.argv[2] == "cache")
failures = {slug: str(error) for slug, error in book.failures.items()}
print(json.dumps({"workers": prepare.worth_it(prepare.SMALLEST), "computed": computed, "failures": failures}))
"""


def book_in_a_fresh_process(project, cache):
    command = [sys.executable, "-c", IN_A_FRESH_PROCESS, str(project), "cache" if cache else "none"]
    result = subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.slow
def test_workers_word_mistakes_as_one_process_does(project):
    """A cold build computes its lessons in worker processes (macros/prepare.py): broken
    fixtures are reported with the same texts, in the same order, as in one process."""
    broken(project, READER), broken(project, "attention-by-hand")
    in_workers = book_in_a_fresh_process(project, cache=True)
    if not in_workers["workers"]:
        pytest.skip("one core, or not Linux: no worker processes")
    assert in_workers["computed"] == []  # the build's own process computed nothing: the workers did
    in_one_process = book_in_a_fresh_process(project, cache=False)
    assert len(in_one_process["computed"]) == len(Book(project, eager=False).digests)
    assert list(in_workers["failures"].items()) == list(in_one_process["failures"].items())
    assert {READER, "attention-by-hand"} <= set(in_workers["failures"])
