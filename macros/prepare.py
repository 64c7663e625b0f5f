"""Lessons a build does not know yet, computed and rendered in worker processes, one per core.

A cold build (a fresh clone, CI) has every lesson to compute, its template to compile, its
page to render and its notebook to write: independent work per lesson. Each worker makes
its own ``Book`` and leaves what it made in the caches the build reads (``.cache/practice``,
``.cache/jinja``, ``.cache/pages``), so nothing crosses between processes but slugs and
messages. A MkDocs build does not wait for them all: it waits for a lesson when it reaches
its page, reading it back as a warm build would, while the workers prepare the next ones.

A strict build also leaves the last step of computing a lesson, drawing and checking its
50 practice variants, for tasks queued after every page's: they run at a lower priority
while MkDocs writes the pages, which is then the build's slowest part, and the build's end
waits for them. Until its check passes, a lesson is not marked known good.

A lesson whose sources are wrong comes back as its message, the same text a build in one
process gives. A page that fails to render is simply not kept: the build renders it again
in its own process and reports the mistake there, located as usual."""

import multiprocessing
import os
import sys
import threading
import weakref
from concurrent.futures import ProcessPoolExecutor

from macros.errors import LessonError
from macros.sources import folders

# Below this many unknown lessons, starting workers costs more than it saves.
SMALLEST = 4
# The later checks run while the build's own process writes the pages, which is then the
# slowest part of the build: at this niceness they take only what it leaves of the cores.
CHECK_NICENESS = 10

_book = None  # the worker's own Book


def workers():
    """The cores this process may be scheduled on (its CPU affinity), at least 1."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def worth_it(count):
    """Enough lessons, more than one core, and a process that forks safely: on Linux (fork is
    unsafe on macOS) and with no other thread running (a fork copies only the calling one)."""
    return count >= SMALLEST and workers() > 1 and sys.platform == "linux" and threading.active_count() == 1


class Workers:
    """Lessons handed to worker processes as the build starts, one task per lesson in the order
    given (the order in which MkDocs converts their pages), settled one at a time.

    The build waits for a lesson only when it needs it (its page, its notebook, its
    numbers), so converting the first pages overlaps with preparing the later ones.
    ``make_book()`` gives each worker its own book (``macros.book.Book``, not eager).
    """

    def __init__(self, make_book, slugs, later_checks=False):
        context = multiprocessing.get_context("fork")  # the worker starts with the modules loaded
        size = min(workers(), len(slugs))
        self._pool = ProcessPoolExecutor(size, mp_context=context, initializer=_start, initargs=(make_book,))
        self._tasks = {slug: self._pool.submit(_prepare, slug) for slug in slugs}
        # queued after every lesson, so they run once the pages are prepared (Book.check)
        self._checks = {slug: self._pool.submit(_check, slug) for slug in slugs} if later_checks else {}
        _running.add(self)

    def __contains__(self, slug):
        return slug in self._tasks

    def message(self, slug):
        """None once the lesson is prepared, or the message of the mistake in its sources (waits for it)."""
        return self._tasks[slug].result()

    def check_message(self, slug):
        """None once the lesson's later check passed (or it has none), or the check's message."""
        return self._checks[slug].result() if slug in self._checks else None

    def close(self, wait=True):
        """Let the workers go; without ``wait`` (a build that stopped), lessons not started are dropped."""
        self._pool.shutdown(wait=wait, cancel_futures=not wait)
        _running.discard(self)


_running = weakref.WeakSet()


def abandon():
    """Drop the lessons not yet started by every pool still running: the build stopped, and a
    process exiting would otherwise wait for all of them."""
    for pool in list(_running):
        pool.close(wait=False)


def _start(make_book):
    global _book
    _book = make_book()


def _check(slug):
    """The lesson's practice variants checked, the step its preparation left for later."""
    _yield_to_the_build()
    try:
        _book.check(slug)
    except LessonError as error:
        return str(error)
    return None


def _yield_to_the_build():
    """Lower this worker's priority for the checks (a process cannot raise it again, and
    checks are the last tasks a worker gets)."""
    if os.nice(0) < CHECK_NICENESS:
        os.nice(CHECK_NICENESS - os.nice(0))


def _prepare(slug):
    """Compute the lesson, then its notebook and page into the caches."""
    try:
        _book.lessons.value(slug)
    except LessonError as error:
        return str(error)
    try:
        _book.notebook(slug)
    except LessonError:
        pass  # made again by the build, which reports it
    try:
        _book.render(folders.src_uri(slug), _book.folders[slug] / folders.LESSON_FILE)
    except LessonError:
        pass  # rendered again by the build, which reports it
    return None
