"""The book's own lessons, computed once per test session and shared by the tests that only read them.

Many test modules look at every lesson (its trace, its page's Markdown, its notebook);
computing each once per session, not once per test, is most of what keeps
``make test-fast`` quick. A test that edits a lesson works on a copy (tests/sitebuild.py)
and computes it itself; a test of computing (loading twice gives the same bytes, say)
calls the project's functions directly.

What is shared is read-only: every numpy array of a shared lesson's fixture and trace is
frozen, so a test that wrote into one would fail at once instead of changing what the
tests after it see.
"""

import dataclasses
import functools

import numpy as np

from macros import lessons
from macros.book import Book, lesson_digest
from macros.notebooks.build import notebook_bytes

ROOT = lessons.LESSONS.parent
SLUGS = [folder.name for folder in lessons.folders()]


def _freeze(value):
    """Every numpy array in value (dataclasses, dicts, lists, tuples), made read-only."""
    if isinstance(value, np.ndarray):
        value.setflags(write=False)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            _freeze(getattr(value, field.name))
    elif isinstance(value, dict):
        for item in value.values():
            _freeze(item)
    elif isinstance(value, list | tuple):
        for item in value:
            _freeze(item)


@functools.cache
def lesson(slug):
    """``lessons.load`` of the book's lesson ``slug``, read-only."""
    loaded = lessons.load(lessons.LESSONS / slug)
    _freeze(loaded.fixture)
    _freeze(loaded.trace)
    return loaded


def shared_lessons():
    """slug -> (digest, lesson) for ``Book(root, computed=...)``, as ``make serve`` hands over the
    lessons it computed before: a Book over a copy of the project takes the session's lesson
    wherever the copy's template and fixture are unchanged, and computes the others."""
    return {slug: (lesson_digest(ROOT / "lessons" / slug), lesson(slug)) for slug in SLUGS}


@functools.cache
def book():
    """The project's Book over the shared lessons, with the project's caches as a build has
    them: compiled templates in .cache/jinja and finished pages in .cache/pages, whose keys
    tests/test_page_cache.py tests on copies of the project."""
    return Book(ROOT, computed=shared_lessons())


@functools.cache
def page(slug):
    """The Markdown of lesson ``slug``'s page, as the build renders it."""
    src = lessons.src_uri(slug)
    return book().render(src, ROOT / src)


@functools.cache
def notebook(slug):
    """The bytes of lesson ``slug``'s notebook."""
    return notebook_bytes(lesson(slug))
