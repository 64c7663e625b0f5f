"""The book as Markdown: every page source rendered by the project's own Jinja environment.

Lessons and the pages around them (home, glossary) are Jinja templates, rendered here with
the environment of ``macros.pages.environment``; nothing here knows MkDocs. ``macros.site``
hands a page's Markdown to MkDocs, and ``python -m macros render DIR`` writes the same
Markdown as plain files.

A page is made once per set of sources: ``macros.pages.cache`` keeps it with the record of
every file it read (``macros.sources.reads``), and a later build uses it while those files
are unchanged.
"""

import json
from collections.abc import Mapping
from pathlib import Path

from macros.errors import LessonError
from macros.pages import arithmetic_marks, cache, checks, environment, located
from macros.pages.checks import PageError
from macros.sources import folders, front_matter, pins, reads, track

TRACK = ":track"  # the named dependency every page has: the nav, titles and prerequisites
SUMMARY = "summary"  # what a lesson hands its chapter's summary, among the files made with its page


class Lessons(Mapping):
    """The ``lessons`` a template sees (another lesson's numbers, by slug), each computed on
    first use; a page that uses one depends on that lesson's sources too."""

    def __init__(self, slugs, compute):
        self._slugs = list(slugs)
        self._compute = compute  # slug -> (Lesson, its sources)
        self._computed = {}

    def value(self, slug):
        """The computed lesson; its sources are noted as the current page's dependencies."""
        if slug not in self._slugs:
            raise KeyError(slug)
        if slug not in self._computed:
            try:
                self._computed[slug] = self._compute(slug)
            except LessonError as error:
                self._computed[slug] = error
        found = self._computed[slug]
        if isinstance(found, LessonError):
            raise found
        lesson, sources = found
        reads.note_all(sources)
        return lesson

    def __getitem__(self, slug):
        return self.value(slug)

    def __iter__(self):
        return iter(self._slugs)

    def __len__(self):
        return len(self._slugs)


def with_facts(markdown, facts):
    """The lesson's facts line placed right under its first-level title."""
    lines = markdown.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("# "):
            return "\n".join([*lines[: i + 1], "", facts, *lines[i + 1 :]])
    return facts + "\n" + markdown


class Book:
    """The track read once; lessons computed when first needed; pages rendered on demand.

    ``track_error`` holds a mistake in the track (the caller decides: a strict build stops,
    a served page shows the pages without it). With ``cache``, finished pages are kept in
    ``.cache/pages`` and an unchanged page is neither computed nor rendered again.
    ``compute`` (slug -> (Lesson, its sources)) replaces computing a lesson from its folder:
    the tests share one computation of each lesson this way.
    """

    def __init__(self, root, cache=True, compute=None):
        self.root = Path(root).resolve()
        self.folders = {folder.name: folder for folder in folders.folders(self.root / "lessons")}
        self.track_error = None
        try:
            self.titles, entries = track.load(self.root / "lessons")
        except LessonError as error:
            self.track_error = error
            self.titles, entries = [], []
        self.entries = {entry.slug: entry for entry in entries}
        self.track_digest = reads.digest(json.dumps([self.titles, [e.as_data() for e in entries]], sort_keys=True))
        self.lessons = Lessons(self.folders, compute or self._compute)
        self.with_cache = cache
        self._environment = None
        self._cache = None
        self._made = {}  # src_uri -> Made, this build's
        self._digests = {}  # path -> digest, as this build first read it
        self.ahead = None  # pages other processes are rendering (macros.pages.ahead), if any

    @property
    def environment(self):
        """The pages' Jinja environment, made when the first page is rendered (a build whose
        pages all come from the cache never makes it)."""
        if self._environment is None:
            self._environment = environment.environment(self.root)
        return self._environment

    @property
    def cache(self):
        if self._cache is None and self.with_cache:
            fingerprint = environment.fingerprint(environment.environment(self.root))
            self._cache = cache.PageCache(self.root, fingerprint, self._current)
        return self._cache

    def _current(self, name):
        """The digest a dependency has now: the track's, or a file's as this build first read it."""
        if name == TRACK:
            return self.track_digest
        if name not in self._digests:
            self._digests[name] = reads.current(name)
        return self._digests[name]

    def _compute(self, slug):
        from macros.lessons import load

        with reads.recorded() as sources:
            lesson = load(self.folders[slug])
        return lesson, sources

    def lesson_slug(self, src_uri):
        """The slug of a lesson page (lessons/<slug>/lesson.md), or None for other pages."""
        parts = Path(src_uri).parts
        slug = parts[1] if len(parts) == 3 else None
        return slug if slug in self.folders and src_uri == folders.src_uri(slug) else None

    # ------------------------------------------------------------ pages

    def kept(self, src_uri):
        """The page as a build made it before, while its sources are unchanged, else None;
        a page the workers are rendering is waited for."""
        if self.ahead is not None:
            self.ahead.wait_for(src_uri)
        if src_uri not in self._made and self.cache is not None:
            found = self.cache.page(src_uri)
            if found is not None:
                self._made[src_uri] = found
        return self._made.get(src_uri)

    def render(self, src_uri, path, meta=None):
        """A page (``cache.Made``: its Markdown and the files made with it), or a PageError.

        ``src_uri`` is the page's place among the site's files (links are relative to it);
        ``path`` its source file; ``meta`` its front matter as MkDocs read it (other pages).
        """
        made = self.kept(src_uri)
        if made is not None:
            return made
        with reads.recorded() as sources:
            reads.note(TRACK, self.track_digest)  # every page shows the nav
            slug, chapter = self.lesson_slug(src_uri), self.summary_chapter(src_uri)
            if slug:
                markdown, files = self._lesson_page(slug)
            elif chapter:
                markdown, files = self._summary_page(chapter, src_uri), {}
            else:
                markdown, files = self._page(src_uri, path, meta), {}
        made = cache.Made(markdown, files, sources)
        self._made[src_uri] = made
        if self.cache is not None:
            self.cache.keep(src_uri, made)
        return made

    def adopt(self, src_uri, made):
        """A page another process rendered with this book's sources (``macros.pages.ahead``),
        already kept in the page cache there."""
        self._made[src_uri] = made

    def lesson_files(self, slug):
        """The files made with a lesson's page, by name ("notebook", "practice"), as bytes."""
        made = self.render(folders.src_uri(slug), self.folders[slug] / folders.LESSON_FILE)
        return {name: text.encode("utf-8") for name, text in made.files.items()}

    def notebook(self, slug):
        """The bytes of a lesson's notebook, made with its page."""
        return self.lesson_files(slug)["notebook"]

    def book_names(self):
        """The book's own names: the other lessons, by slug; the torch release the notebooks'
        PyTorch cells are checked with (read only by a page that asks for it)."""
        return {
            "lessons": self.lessons,
            "torch_release": lambda: pins.pinned(self.root / pins.TORCH_REQUIREMENTS, "torch"),
        }

    def track_names(self, src_uri):
        """The track map, with links relative to the page at ``src_uri``."""
        from macros.render import track as track_render

        return {"track_map": lambda: track_render.track_map(self.titles, list(self.entries.values()), src_uri)}

    def _page(self, src_uri, path, meta):
        from macros.pages import context

        name = Path(path).resolve().relative_to(self.root).as_posix()
        extra = {self.book_names: self.book_names(), self.track_names: self.track_names(src_uri)}
        if meta:
            extra[f"{name}: front matter"] = meta
        return arithmetic_marks.unmarked(self._render(name, context.page_names(extra)))

    def _lesson_page(self, slug):
        """The lesson's Markdown, checked, with its facts line; and the files made with it."""
        from macros import notebooks
        from macros.render import arithmetic, practice, summaries, widgets
        from macros.render import track as track_render

        lesson = self._lesson(slug)
        name = f"lessons/{slug}/{folders.LESSON_FILE}"
        template = reads.read_bytes(self.root / name).decode("utf-8")
        checks.refuse_typed_values(name, template, lesson)
        rendered = arithmetic.shortened_repeats(self._rendered(lesson, name))  # the reason once a page
        markdown, remembered = summaries.taken_out(checks.checked(name, rendered, lesson, template))
        markdown = practice.placed(lesson, markdown)
        if slug in self.entries:
            entry = self.entries[slug]
            data = widgets.lesson_data(slug, entry.title, lesson.decimals, lesson.plain_fixture, entry.meta)
            facts = track_render.facts(entry, self.entries) + "\n" + notebooks.page_link(lesson) + "\n" + data
            markdown = with_facts(markdown, facts + "\n")
            foot = summaries.link_from(entry, self.titles[entry.chapter - 1], entry.src)
            markdown = markdown.rstrip("\n") + "\n\n" + foot + "\n"
        try:
            summary = summaries.handed_over(lesson, remembered)
        except summaries.SummaryError as error:
            raise PageError(f"{name}: {error}") from None
        return markdown, {**checks.made_with(lesson), SUMMARY: summary}

    def summary_chapter(self, src_uri):
        """The chapter (from 1) whose summary page is at ``src_uri``, else None."""
        from macros.render import summaries

        for number, title in enumerate(self.titles, 1):
            if src_uri == summaries.uri(title):
                return number
        return None

    def _summary_page(self, number, src_uri):
        """A chapter's summary (``macros.render.summaries``), from what each of its lessons' pages
        hands over; it depends on each lesson's page, and so on its sources."""
        from macros.render import summaries

        entries = [entry for entry in self.entries.values() if entry.chapter == number]
        handed = {}
        for entry in entries:
            made = self.render(entry.src, self.folders[entry.slug] / folders.LESSON_FILE)
            reads.note_all(made.sources)  # a page taken from the cache records no reads of its own
            handed[entry.slug] = summaries.taken_over(made.files[SUMMARY])
        return summaries.page(number, self.titles[number - 1], entries, handed, src_uri)

    def unchecked(self, slug):
        """(the computed lesson, its page's Markdown as the template renders it): before the
        checks, the authors' marks still in it, for ``python -m macros arithmetic`` to count."""
        lesson = self._lesson(slug)
        return lesson, self._rendered(lesson, f"lessons/{slug}/{folders.LESSON_FILE}")

    def _rendered(self, lesson, name):
        from macros.pages import context

        names = context.lesson_names(lesson, self.environment, {self.book_names: self.book_names()})
        return self._render(name, names)

    def _lesson(self, slug):
        try:
            return self.lessons.value(slug)
        except LessonError as error:
            raise PageError(str(error)) from None

    def _render(self, name, values):
        env = self.environment
        try:
            return env.get_template(name).render(values).lstrip("\n")
        except Exception as error:  # every failure becomes one located line
            raise PageError(located.located(error, name, str(env.loader.path(name)), env, values)) from None


def page_meta(path):
    """The front matter of a page that is not a lesson, as a mapping (empty without one)."""
    import yaml

    text, _ = front_matter.split(Path(path).read_text(encoding="utf-8"))
    data = yaml.safe_load(text) if text else None
    return data if isinstance(data, dict) else {}


__all__ = ["Book", "PageError", "page_meta"]
