"""Finished pages and notebooks kept in .cache/pages (macros/page_cache.py): an unchanged
page is read back, not computed, and every source a page depends on takes it out of use.

Each test renders from a copy of the project, once to fill the cache and again after an
edit, counting the lessons the second book computes and the pages it renders.
"""

import shutil

import pytest

import macros.lessons
from macros import page_cache, prepare
from macros.book import Book, PageError
from tests.sitebuild import copy_project

READER = "two-heads-of-dimension-one"  # its template reads lessons["attention-by-hand"]
READ = "attention-by-hand"


def page(slug):
    return f"lessons/{slug}/lesson.md"


@pytest.fixture
def project(tmp_path):
    return copy_project(tmp_path)


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


@pytest.mark.parametrize("edit", ["macros/render/numbers.py", "lessons/track.yaml"])
def test_an_edit_to_the_code_or_the_track_renders_it_again(project, counted, edit):
    render(project, READER)
    with open(project / edit, "a", encoding="utf-8") as file:
        file.write("\n# an edit\n")
    counted["rendered"].clear()
    render(project, READER)
    assert counted["rendered"] == [page(READER)]


def test_a_mistake_is_never_kept(project):
    fixture = project / "lessons" / READER / "fixture.yaml"
    good = fixture.read_text(encoding="utf-8")
    render(project, READER)
    fixture.write_text(good.replace("n_heads: 2", "n_heads: two", 1), encoding="utf-8")
    for _ in range(2):  # the second book finds the same mistake: nothing was kept for it
        with pytest.raises(PageError, match=rf"lessons/{READER}/fixture.yaml"):
            render(project, READER)


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
    cache = page_cache.PageCache(tmp_path, "context")
    cache.keep_page("k", "text", {"a"}, {"a": "1", "b": "2"})
    assert cache.page("k", {"a": "1", "b": "3"}) == ("text", {"a"})
    assert cache.page("k", {"a": "9", "b": "2"}) is None
    cache.keep_page("all", "text", None, {"a": "1", "b": "2"})
    assert cache.page("all", {"a": "1", "b": "2"}) == ("text", None)
    assert cache.page("all", {"a": "1", "b": "3"}) is None


@pytest.mark.slow
def test_a_build_computes_only_the_lessons_it_does_not_know(project, counted):
    """A second eager book computes nothing: every lesson computed before from the same sources."""
    assert not Book(project).failures  # computed in this process or in workers (macros/prepare.py)
    counted["computed"].clear()
    second = Book(project)
    assert counted["computed"] == [] and not second.failures
    assert second.render(page(READ), project / page(READ)) and counted["computed"] == []


@pytest.mark.slow
def test_workers_word_a_mistake_as_one_process_does(project):
    """A cold build computes its lessons in worker processes (macros/prepare.py); a broken
    fixture is reported with the same text as a build in one process, and nothing else fails."""
    fixture = project / "lessons" / READER / "fixture.yaml"
    fixture.write_text(fixture.read_text(encoding="utf-8").replace("n_heads: 2", "n_heads: two", 1), encoding="utf-8")
    assert prepare.worth_it(len(Book(project, eager=False).digests))
    in_workers = Book(project)
    in_one_process = Book(project, cache=False)
    assert list(in_workers.failures) == list(in_one_process.failures) == [READER]
    assert str(in_workers.failures[READER]) == str(in_one_process.failures[READER])
    assert (project / ".cache" / "pages").is_dir()
