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
import os
from pathlib import Path

import numpy as np

from macros import lessons
from macros.caching.whole_files import write_whole
from macros.notebooks.build import notebook_bytes
from macros.pages.book import Book
from macros.sources import front_matter
from macros.sources.fixture import read_yaml
from tests import compiled_templates

ROOT = lessons.LESSONS.parent
SLUGS = [folder.name for folder in lessons.folders()]
# Lessons whose fixture has a practice block (a parent's is not inherited), read from the
# YAML alone: parametrizing by them costs collection nothing, in every pytest process.
WITH_PRACTICE = [slug for slug in SLUGS if "practice" in read_yaml(lessons.LESSONS / slug / "fixture.yaml")]


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


def _fixtures(root):
    return {path.parent.name: path.read_bytes() for path in sorted((root / "lessons").glob("*/fixture.yaml"))}


def _front_matter(root, slug):
    return front_matter.split((root / "lessons" / slug / "lesson.md").read_text(encoding="utf-8"))[0]


def book_over(root):
    """A Book over a copy of the project (no cache) that takes the session's computed lesson
    wherever the copy's fixtures and the lesson's front matter are the project's."""
    root = Path(root)
    same = _fixtures(root) == _fixtures(ROOT)

    def compute(slug):
        if same and slug in SLUGS and _front_matter(root, slug) == _front_matter(ROOT, slug):
            return lesson(slug), {}
        return lessons.load(root / "lessons" / slug), {}

    return compiled_templates.shared(Book(root, cache=False, compute=compute))


@functools.cache
def book():
    """A Book over the project's lessons that computes each through ``lesson`` and keeps no
    cache (a test never writes into the working tree)."""
    return compiled_templates.shared(Book(ROOT, cache=False, compute=lambda slug: (lesson(slug), {})))


# Under pytest-xdist each process reads most of the same pages: the first to render one
# leaves its Markdown in a folder of this run (made before the processes start, named by
# $ABH_SHARED_PAGES: tests/conftest.py), and the others read it there instead of rendering it.
SHARED_PAGES = "ABH_SHARED_PAGES"


@functools.cache
def page(slug):
    """The Markdown of lesson ``slug``'s page, as the build renders it."""
    shared = os.environ.get(SHARED_PAGES)
    kept = Path(shared) / f"{slug}.md" if shared else None
    if kept is not None and kept.exists():
        return kept.read_text(encoding="utf-8")
    src = lessons.src_uri(slug)
    markdown = book().render(src, ROOT / src).markdown
    if kept is not None:
        write_whole(kept, markdown.encode("utf-8"))
    return markdown


@functools.cache
def notebook(slug):
    """The bytes of lesson ``slug``'s notebook."""
    return notebook_bytes(lesson(slug))


def names(loaded):
    """What the page of a computed lesson's template sees, by name."""
    from macros.pages import context

    shared = book()
    return context.lesson_names(loaded, shared.environment, {shared.book_names: shared.book_names()})
