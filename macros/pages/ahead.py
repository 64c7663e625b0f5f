"""Lesson pages rendered ahead of the build, in forked processes, when a build makes many.

A cold build spends most of its time on lesson pages: each lesson computed, its practice
sets drawn and checked, its template compiled, rendered and checked, one page after another
while the machine's other cores wait. The pages do not depend on one another's results (a
page that reads another lesson computes it itself), so each worker renders whole pages with
the same ``Book.render`` the build's own process runs, keeps each in the page cache as that
would, and hands the finished page back.

A page that fails in a worker is not reported there: the build's own process renders it
again when it reaches it and stops, or shows the mistake, exactly as it does without workers.
Only ``mkdocs build`` renders ahead: ``mkdocs serve`` runs threads, which a fork must not copy,
and rebuilds a few pages at a time. ``LESSON_WORKERS=1`` turns it off.
"""

import multiprocessing
import os
from pathlib import Path

_book = None  # the book the forked workers render with (inherited, never pickled)


def workers():
    """How many processes render ahead: LESSON_WORKERS, else the cores this process may use."""
    given = os.environ.get("LESSON_WORKERS", "").strip()
    return int(given) if given.isdigit() else len(os.sched_getaffinity(0))


def render_ahead(book, pages, count):
    """Each (src_uri, path) in ``pages`` that the page cache does not hold, rendered by
    ``count`` forked workers and adopted by ``book``; one that failed is left to the caller."""
    # The longest first (a template's size stands for its cost), so that no long page is
    # left for one worker to finish alone while the others wait.
    todo = sorted((page for page in pages if book.kept(page[0]) is None), key=_size, reverse=True)
    if count < 2 or len(todo) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return
    global _book
    _book = book
    try:
        with multiprocessing.get_context("fork").Pool(min(count, len(todo))) as pool:
            for src_uri, made in pool.imap_unordered(_render, todo):
                if made is not None:
                    book.adopt(src_uri, made)
    finally:
        _book = None


def _size(page):
    return Path(page[1]).stat().st_size


def _render(page):
    """(src_uri, the page made), or (src_uri, None) when it failed: the build renders it again."""
    src_uri, path = page
    try:
        return src_uri, _book.render(src_uri, path)
    except Exception:  # noqa: BLE001 (reported by the build's own render of the page)
        return src_uri, None
