"""Lesson pages rendered ahead of a build in forked workers (``macros.pages.ahead``): the pages
the book adopts are the ones it renders itself, the book waits for a page the workers have not
finished, a page that fails in a worker is left to the book's own render, which stops with the
located line an author reads, a worker runs what the build hands it once the pages are taken,
and a build that stops ends the workers."""

import os
import shutil

import pytest

from macros.pages import ahead
from macros.pages.book import PageError
from macros.sources import folders
from tests import computed
from tests.sitebuild import PROJECT, edit

SLUGS = ["why-attention", "attention-by-hand", "one-head-with-projections"]


@pytest.fixture
def copied(tmp_path):
    shutil.copytree(PROJECT / "lessons", tmp_path / "lessons", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


@pytest.fixture(autouse=True)
def workers_ended(monkeypatch):
    """Whatever workers a test starts are ended after it, whether it passes or fails."""
    started, start = [], ahead.Rendering.__init__

    def recorded(self, *args):
        started.append(self)
        start(self, *args)

    monkeypatch.setattr(ahead.Rendering, "__init__", recorded)
    yield
    for rendering in started:
        rendering.pool.terminate()
        rendering.pool.join()


def pages(root):
    return [(folders.src_uri(slug), root / folders.src_uri(slug)) for slug in SLUGS]


def test_pages_rendered_ahead_are_the_pages_rendered_in_turn(copied):
    book = computed.book_over(copied)
    ahead.render_ahead(book, pages(copied), 2)
    in_turn = computed.book_over(copied)
    for src_uri, path in pages(copied):
        adopted = book.kept(src_uri)
        assert adopted is not None, f"{src_uri} was not rendered ahead"
        made = in_turn.render(src_uri, path)
        assert (adopted.markdown, adopted.files, adopted.sources) == (made.markdown, made.files, made.sources)
    # every page taken, a worker runs what the build hands it, until the build's end
    rendering = book.ahead
    assert rendering.later(os.getpid, ()).get(timeout=30) != os.getpid()
    rendering.stop()
    assert book.ahead is None and rendering.later(os.getpid, ()) is None


def test_one_worker_renders_nothing_ahead(copied):
    # negative control for the case above: adopted pages come from the workers
    book = computed.book_over(copied)
    ahead.render_ahead(book, pages(copied), 1)
    assert [book.kept(src_uri) for src_uri, _ in pages(copied)] == [None] * len(SLUGS)


def test_a_page_that_fails_ahead_is_reported_by_the_books_own_render(copied):
    broken = f"lessons/{SLUGS[1]}/lesson.md"
    edit(copied / broken, "## Step 1: scores", "## Step 1: scores {{ trace.heads[0].weigths }}")
    book = computed.book_over(copied)
    ahead.render_ahead(book, pages(copied), 2)
    assert book.kept(folders.src_uri(SLUGS[0])) is not None and book.kept(broken) is None
    with pytest.raises(PageError, match=rf"^{broken}:\d+: head has no value 'weigths'; did you mean 'weights'\?$"):
        book.render(broken, copied / broken)
    assert book.kept(folders.src_uri(SLUGS[2])) is not None


def test_a_build_that_stops_ends_the_workers(copied):
    book = computed.book_over(copied)
    ahead.render_ahead(book, pages(copied), 2)
    rendering = book.ahead
    workers = list(rendering.pool._pool)  # noqa: SLF001 (the processes, to see them end)
    rendering.stop()
    assert book.ahead is None and not any(worker.is_alive() for worker in workers)
    assert book.kept(folders.src_uri(SLUGS[0])) is None  # nothing adopted, nothing waited for


def test_the_workers_are_the_cores_unless_set(monkeypatch):
    monkeypatch.setenv("LESSON_WORKERS", "1")
    assert ahead.workers() == 1
    monkeypatch.delenv("LESSON_WORKERS")
    monkeypatch.setattr(ahead.os, "sched_getaffinity", lambda _pid: {0, 1, 2})
    assert ahead.workers() == 3


def test_a_worker_that_dies_leaves_its_pages_to_the_book(copied, monkeypatch):
    """A worker killed mid-page never answers: past the wait's bound the workers are ended and
    the book renders the page itself."""
    monkeypatch.setattr(ahead, "PAGE_SECONDS", 0.5)
    monkeypatch.setattr(ahead, "_render", _die)
    book = computed.book_over(copied)
    ahead.render_ahead(book, pages(copied), 2)
    src_uri, path = pages(copied)[0]
    assert book.kept(src_uri) is None and book.ahead is None
    assert book.render(src_uri, path).markdown.startswith("# ")


def _die(page):
    os._exit(1)
