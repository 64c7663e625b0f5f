"""Lesson pages rendered ahead of the build, in forked processes, when a build makes many.

A cold build spends most of its time on lesson pages: each lesson computed, its practice
sets drawn and checked, its template compiled, rendered and checked, one page after another
while the machine's other cores wait. The pages do not depend on one another's results (a
page that reads another lesson computes it itself), so each worker renders whole pages with
the same ``Book.render`` the build's own process runs, keeps each in the page cache as that
would, and hands the finished page back.

The build does not wait for all of them: while the workers render, MkDocs goes on reading
pages, converting their Markdown and laying them out, and the book waits only for the page
MkDocs asks for next (``Rendering.wait_for``). The workers take the pages in the order
MkDocs reads them, so the one it asks for is usually done or nearly.

Once every page is rendered, the workers stay until the build ends, for work the build can
hand them while it writes the site (``later``): the search index's plain math.

A page that fails in a worker is not reported there: the build's own process renders it
again when it reaches it and stops, or shows the mistake, exactly as it does without workers.
Only ``mkdocs build`` renders ahead: ``mkdocs serve`` runs threads, which a fork must not copy,
and rebuilds a few pages at a time. ``LESSON_WORKERS=1`` turns it off.
"""

import gc
import importlib
import multiprocessing
import os

_book = None  # the book the forked workers render with (inherited, never pickled)
PAGE_SECONDS = 120  # the longest wait for the next page from the workers (a page takes well under 1 s)
# The modules a lesson page imports when it is first rendered (each imports the engine, numpy
# and the rest): imported once before the fork, every worker has them, instead of each
# importing them again.
FIRST_RENDER_IMPORTS = (
    "macros.explain",
    "macros.lessons",
    "macros.notebooks",
    "macros.notebooks.build",
    "macros.pages.context",
    "macros.pages.shown_arithmetic",
    "macros.pages.unseen_answers",
    "macros.render.practice",
    "macros.render.track",
    "macros.render.widgets",
)


def workers():
    """How many processes render ahead: LESSON_WORKERS, else the cores this process may use."""
    given = os.environ.get("LESSON_WORKERS", "").strip()
    return int(given) if given.isdigit() else len(os.sched_getaffinity(0))


def render_ahead(book, pages, count):
    """Start rendering each (src_uri, path) in ``pages`` that the page cache does not hold, in
    that order, by ``count`` forked workers; the book waits for a page when it needs it
    (``book.ahead``). Returns at once; nothing starts for fewer than two workers or pages."""
    todo = [page for page in pages if book.kept(page[0]) is None]
    if count < 2 or len(todo) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return
    book.ahead = Rendering(book, todo, min(count, len(todo)))


class Rendering:
    """The pages the workers are rendering. Their results arrive in the pool's own thread;
    ``wait_for`` takes them in this one, each adopted by the book as it is taken."""

    def __init__(self, book, todo, count):
        global _book
        for module in FIRST_RENDER_IMPORTS:
            importlib.import_module(module)
        book.environment.get_template(importlib.import_module("macros.explain").TEMPLATE)  # compiled once
        self.book = book
        self.outstanding = {src_uri for src_uri, _ in todo}
        _book = book
        gc.freeze()  # Python's advice before a fork: the workers' collections skip what they inherit
        try:
            self.pool = multiprocessing.get_context("fork").Pool(count)  # the workers are forked here
        finally:
            _book = None
            gc.unfreeze()  # this process collects as before
        self.results = self.pool.imap_unordered(_render, todo)

    def wait_for(self, src_uri):
        """Until the workers are done with ``src_uri`` (at once for a page they do not render).
        A page that takes longer than PAGE_SECONDS (a worker that died takes its page with it,
        and its result never comes) ends the workers: the build renders what is left itself."""
        while src_uri in self.outstanding:
            try:
                done, made = self.results.next(timeout=PAGE_SECONDS)
            except multiprocessing.TimeoutError:
                self.stop()
                return
            self.outstanding.discard(done)
            if made is not None:
                self.book.adopt(done, made)

    def later(self, function, args):
        """``function(*args)`` run by a worker (once the pages are rendered, the workers have
        nothing else to do): its result (``get``), or None when the workers are gone."""
        if self.book.ahead is not self:
            return None
        return self.pool.apply_async(function, args)

    def stop(self):
        """The workers ended: at the build's end, or at once, mid-page, when it stopped with a
        mistake."""
        if self.book.ahead is self:
            self.book.ahead = None
        self.pool.terminate()
        self.pool.join()


def _render(page):
    """(src_uri, the page made), or (src_uri, None) when it failed: the build renders it again."""
    src_uri, path = page
    try:
        return src_uri, _book.render(src_uri, path)
    except Exception:  # noqa: BLE001 (reported by the build's own render of the page)
        return src_uri, None
