"""Lessons a build does not know yet, computed and rendered in worker processes, one per core.

A cold build (a fresh clone, CI) has every lesson to compute, its template to compile, its
page to render and its notebook to write: independent work per lesson, and the build's
own process waits for it anyway before the first page. Each worker makes its own ``Book``
and leaves what it made in the caches the build reads next (``.cache/practice``,
``.cache/jinja``, ``.cache/pages``), so nothing crosses between processes but slugs and
messages. The build then goes on as a warm build.

A lesson whose sources are wrong comes back as its message, the same text a build in one
process gives. A page that fails to render is simply not kept: the build renders it again
in its own process and reports the mistake there, located as usual.
"""

import multiprocessing
import os
import sys
import threading
from concurrent.futures import ProcessPoolExecutor

from macros.errors import LessonError
from macros.sources import folders

# Below this many unknown lessons, starting workers costs more than it saves.
SMALLEST = 4

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


def in_parallel(make_book, slugs):
    """{slug: None, or the message of the mistake in its sources} for every slug, in order.

    ``make_book()`` gives each worker its own book (``macros.book.Book``, not eager).
    """
    context = multiprocessing.get_context("fork")  # the worker starts with the modules loaded
    size = min(workers(), len(slugs))
    with ProcessPoolExecutor(size, mp_context=context, initializer=_start, initargs=(make_book,)) as pool:
        return dict(pool.map(_prepare, slugs))


def _start(make_book):
    global _book
    _book = make_book()


def _prepare(slug):
    """Compute the lesson, then its notebook and page into the caches."""
    try:
        _book.lessons.value(slug)
    except LessonError as error:
        return slug, str(error)
    try:
        _book.notebook(slug)
    except LessonError:
        pass  # made again by the build, which reports it
    try:
        _book.render(folders.src_uri(slug), _book.folders[slug] / folders.LESSON_FILE)
    except LessonError:
        pass  # rendered again by the build, which reports it
    return slug, None
