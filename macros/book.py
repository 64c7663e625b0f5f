"""The book as Markdown: every page source rendered by the project's own Jinja environment.

Lessons and the pages around them (home, glossary) are Jinja templates. They are
rendered here, with a file loader over the project folder, so that:

- an error names the page's own file and line (``lessons/<slug>/lesson.md:LINE: ...``):
  Jinja's tracebacks carry template lines when a template has a real file name;
- compiled templates are kept in ``.cache/jinja`` by Jinja's ``FileSystemBytecodeCache``
  (keyed by the source, so any edit recompiles; deleting the folder changes only time);
- nothing here knows MkDocs: ``macros.site`` hands a page's Markdown to MkDocs, and
  ``python -m macros render DIR`` writes the same Markdown as plain files.
"""

import dataclasses
import functools
import hashlib
import json
import re
from collections.abc import Mapping
from pathlib import Path

import jinja2
import yaml

from macros import page_cache, prepare
from macros.errors import LessonError, SourceError
from macros.sources import folders, prose, track
from macros.sources.folders import FIXTURE_FILE

# The lesson computation, the renderers and nbformat are imported where a lesson is computed
# or a page rendered: a build whose pages all come from .cache/pages never loads them.

# The front matter block as MkDocs reads it (mkdocs.utils.meta.YAML_RE).
FRONT_MATTER = re.compile(r"^-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.S)


class PageError(LessonError):
    """A page that could not be rendered; its text is the one located line an author reads."""


class _Loader(jinja2.FileSystemLoader):
    """Template sources with the front matter blanked (same line count), since MkDocs and
    the page's metadata own it, and a ``{%-`` at the top of the prose must not eat it."""

    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        blanked = FRONT_MATTER.sub(lambda m: "\n" * m.group().count("\n"), source, count=1)
        return blanked, filename, uptodate


class _Undefined(jinja2.StrictUndefined):
    """Strict, and worded for authors: "head has no value 'weigths'; did you mean 'weights'?".

    Only the documented constructor is used: Jinja creates an Undefined with the object and
    the name it could not find, and a hint given here becomes the error's whole message.
    """

    def __init__(self, hint=None, obj=jinja2.utils.missing, name=None, exc=jinja2.exceptions.UndefinedError):
        if hint is None and isinstance(name, str):
            from macros import missing

            hint = missing.message(obj, name)
        super().__init__(hint, obj, name, exc)


def environment(root, cache=True):
    """The Jinja environment for the book's pages, with templates named from ``root``."""
    root = Path(root)
    bytecode_cache = None
    if cache:
        folder = root / ".cache" / "jinja"
        folder.mkdir(parents=True, exist_ok=True)
        bytecode_cache = jinja2.FileSystemBytecodeCache(str(folder))  # writes whole files (renamed)
    # Jinja's optimizer only folds constants, which lesson templates barely have; skipping
    # it makes compiling a lesson about a sixth cheaper (see bench/).
    env = jinja2.Environment(
        loader=_Loader(str(root)), undefined=_Undefined, bytecode_cache=bytecode_cache, optimized=False
    )
    from macros import context

    env.globals.update(context.site_context())
    return env


NAMED_TYPOS = 10  # typed numbers named after the first; a pasted table is counted beyond that


def strip_front_matter(text):
    """Markdown as MkDocs hands it on: the front matter and the blank lines after it removed."""
    return text.lstrip("\n")


def with_facts(markdown, facts):
    """The lesson's facts line placed right under its first-level title."""
    lines = markdown.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("# "):
            return "\n".join([*lines[: i + 1], "", facts, *lines[i + 1 :]])
    return facts + "\n" + markdown


class Lessons(Mapping):
    """The ``lessons`` a template sees (another lesson's numbers, by slug): each computed on
    first use, and each use noted.

    A page that shows another lesson's numbers must be rendered again when that lesson's
    fixture changes (``macros.site.incremental``, ``macros.page_cache``); ``reads`` is None
    once a template has gone through all of them (a loop), so it depends on every lesson.
    """

    def __init__(self, slugs, compute):
        self._slugs = list(slugs)
        self._known = set(self._slugs)
        self._compute = compute  # slug -> Lesson, or a LessonError
        self._computed = {}
        self.reads = set()

    def value(self, slug):
        """The computed lesson, without noting a read (the book's own use)."""
        if slug not in self._known:
            raise KeyError(slug)
        if slug not in self._computed:
            self._computed[slug] = self._compute(slug)
        return self._computed[slug]

    def __getitem__(self, slug):
        if self.reads is not None:
            self.reads.add(slug)
        return self.value(slug)

    def __contains__(self, slug):
        if self.reads is not None:
            self.reads.add(slug)
        return slug in self._known

    def __iter__(self):
        self.reads = None
        return iter(self._slugs)

    def __len__(self):
        self.reads = None  # how many lessons there are depends on all of them
        return len(self._slugs)


EXTENDS = re.compile(r"""^extends:[ \t]*["']?([\w.-]+)["']?[ \t]*(?:#.*)?$""", re.M)
ANY_LESSON = "*"


def fixture_parent(text):
    """The lesson a fixture's text ``extends`` (None: none; ANY_LESSON: written in a way
    this quick reading does not follow, so it may depend on any lesson's fixture)."""
    found = EXTENDS.search(text)
    if found:
        return found.group(1)
    return ANY_LESSON if "extends" in text else None


def lesson_digest(folder):
    """What a computed lesson depends on among the author's files: every file of its folder
    (template, fixture, notebook cells) and the fixtures it extends, lesson after lesson."""
    folder = Path(folder)
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(folder.iterdir()):
        if path.is_file() and not path.name.startswith("."):  # an editor's swap file is not a source
            digest.update(path.name.encode() + b"\0" + _bytes(path) + b"\0")
    seen, current = set(), folder.name
    while current is not None and current not in seen:
        seen.add(current)
        data = _bytes(folder.parent / current / FIXTURE_FILE)
        digest.update(data)
        current = fixture_parent(data.decode("utf-8", errors="replace"))
        if current == ANY_LESSON:
            for other in sorted(folder.parent.glob(f"*/{FIXTURE_FILE}")):
                digest.update(other.as_posix().encode() + _bytes(other))
            break
    return digest.hexdigest()


def _bytes(path):
    return path.read_bytes() if path.exists() else b"\0missing"


def track_digest(titles, entries):
    """The track as pages see it (chapter titles, each lesson's place and front matter), as
    read by ``track.load``, so that every way of writing those files is covered."""
    data = [titles, [dataclasses.asdict(entry) for entry in entries]]
    return page_cache.digest_of(json.dumps(data, sort_keys=True, default=str))


class Book:
    """The track read once; lessons computed when first needed; pages rendered on demand.

    Mistakes in a lesson's sources are kept (``failures``, by slug, and ``"track"``) so
    the caller decides: a strict build stops, a served page shows the message. ``eager``
    (a build) computes every lesson at once, so a bad fixture is known before any page
    renders (with ``background``, by the time the pages are); a lesson an earlier build
    computed from the same sources and code is known good and waits until a page or a
    notebook needs it.

    With ``cache``, compiled templates go to ``.cache/jinja`` and finished pages and
    notebooks to ``.cache/pages`` (``macros.page_cache``): an unchanged lesson is neither
    computed nor rendered again.

    ``computed`` (slug -> (digest, Lesson)), when given, keeps computed lessons between
    rebuilds of one ``make serve``: a lesson whose fixture and template are unchanged is
    not computed again. The caller empties it when the project's code changes.

    With ``background`` (a MkDocs build), lessons handed to worker processes are waited for
    one at a time, when a page, a notebook or another page's numbers need them; the caller
    asks ``first_mistake()`` before it reports a page's mistake, ``settle()`` once every page
    is converted and ``finish()`` at the end. Without it, the book waits for them all before
    it is made. With ``later_checks`` too (a strict build, which stops at any mistake), the
    workers check the practice variants, the last step of computing a lesson, after every
    page is prepared: while MkDocs writes the pages, and ``finish()`` waits for those checks.

    ``check_practice=False`` (such a worker's own book) computes lessons without checking
    their practice variants, and so never marks them known good (``check`` does).
    """

    def __init__(
        self,
        root,
        cache=True,
        computed=None,
        eager=True,
        parallel=True,
        background=False,
        later_checks=False,
        check_practice=True,
    ):
        self.root = Path(root).resolve()
        self.with_cache = cache
        self._environment = None
        self.failures = {}
        self.folders = {folder.name: folder for folder in folders.folders(self.root / "lessons")}
        self.digests = {slug: lesson_digest(folder) for slug, folder in self.folders.items()}
        self.kept = computed
        try:
            self.titles, entries = track.load(self.root / "lessons")
        except LessonError as error:
            self.failures["track"] = error
            self.titles, entries = [], []
        self.entries = {entry.slug: entry for entry in entries}
        self.cache = None
        if cache:
            self.cache = page_cache.PageCache(self.root, page_cache.code_digest(), track_digest(self.titles, entries))
        self.lessons = Lessons(self.digests, self._compute)
        self.workers = None  # macros.prepare.Workers, while lessons are with them
        self.check_practice = check_practice
        if eager:
            self._compute_unknown(parallel and computed is None, background and later_checks)
            if not background:
                self.finish()
        self.reads = {}  # src_uri -> the other lessons its last render read (None: all)

    @property
    def environment(self):
        """The pages' Jinja environment, made when the first page is rendered."""
        if self._environment is None:
            self._environment = environment(self.root, self.with_cache)
        self._environment.globals["lessons"] = self.lessons  # another lesson's numbers, by slug
        return self._environment

    def _compute_unknown(self, parallel, later_checks):
        """Every lesson not known good is computed now; those that fail leave the book.

        With ``parallel`` (a plain build, not ``make serve``, whose process runs threads that
        a fork would not carry over), many unknown lessons (a cold build) are handed to
        worker processes (``macros.prepare``), which leave their pages in the caches too;
        then a lesson that fails leaves the book when ``settle`` or ``finish`` learns of it,
        and with ``later_checks`` its practice variants are checked after every page.
        """
        unknown = [slug for slug in self.digests if not self._known(slug)]
        if parallel and self.cache is not None and prepare.worth_it(len(unknown)) and self.cache.writable():
            worker_book = functools.partial(Book, self.root, eager=False, check_practice=not later_checks)
            self.workers = prepare.Workers(worker_book, unknown, later_checks)
            return
        for slug in unknown:
            try:
                self.lessons.value(slug)
            except LessonError as error:
                self.failures[slug] = error
        self._drop_failures()

    def _drop_failures(self):
        """Lessons whose sources are wrong leave ``lessons`` (and so the notebooks and loops)."""
        if self.failures:
            self.lessons = Lessons([slug for slug in self.digests if slug not in self.failures], self._compute)

    def _settle(self, slug, checked=False):
        """Wait for a lesson the workers have (and, with ``checked``, for its later check); a
        mistake in its sources becomes a failure."""
        if self.workers is not None and slug in self.workers:
            message = self.workers.message(slug) or (self.workers.check_message(slug) if checked else None)
            if message is not None:
                self.failures.setdefault(slug, LessonError(message))

    def first_mistake(self):
        """The mistake a build in one process reports first (the track's, else the first
        failing lesson's in order), or None; waits for the workers' lessons to know."""
        if "track" in self.failures:
            return self.failures["track"]
        for slug in self.digests:
            self._settle(slug, checked=True)
            if slug in self.failures:
                return self.failures[slug]
        return None

    def settle(self):
        """Wait for every lesson still with the workers (not for their later checks)."""
        for slug in self.digests:
            self._settle(slug)
        self._drop_failures()

    def finish(self):
        """Wait for every lesson and check still with the workers and let them go: the book is
        then as a build in one process leaves it."""
        if self.workers is None:
            return
        try:
            for slug in self.digests:
                self._settle(slug, checked=True)
        finally:
            self.workers.close()
            self.workers = None
        self._drop_failures()

    def check(self, slug):
        """The last step of computing a lesson left for later (``check_practice=False``): its
        practice variants drawn and checked; then it is known good. The lesson itself is
        computed first (the worker that prepared it has it already): a lesson that fails
        must never be marked known good, whether or not it has a practice block."""
        from macros.lessons import check_practice

        check_practice(self.lessons.value(slug))
        self._keep_known(slug)

    def _keep_known(self, slug):
        """Mark a lesson known good, unless its sources changed while it was computed."""
        if self.cache is not None and self._unchanged(slug):
            self.cache.keep_computed(self._lesson_key(slug))

    def _known(self, slug):
        return self.cache is not None and self.cache.computed_before(self._lesson_key(slug))

    def _lesson_key(self, slug):
        return self.cache.lesson_key("lesson", slug, self.digests[slug])

    def _unchanged(self, *slugs):
        """The lessons' sources still hash as when this book was made: an edit saved while
        a page rendered must not be kept under the key of the sources before it."""
        return all(lesson_digest(self.folders[slug]) == self.digests[slug] for slug in slugs if slug in self.folders)

    def _compute(self, slug):
        self._settle(slug)
        if slug in self.failures:
            raise self.failures[slug]
        digest, kept = self.digests[slug], self.kept
        if kept is not None and slug in kept and kept[slug][0] == digest:
            return kept[slug][1]
        from macros.lessons import load

        lesson = load(self.folders[slug]) if self.check_practice else load(self.folders[slug], 0)
        if kept is not None:
            kept[slug] = (digest, lesson)
        if self.check_practice:
            self._keep_known(slug)
        return lesson

    def notebook(self, slug):
        """The bytes of a lesson's notebook (``macros.notebooks.build``), from the cache when unchanged."""
        self._settle(slug)
        key = self.cache.lesson_key("notebook", slug, self.digests[slug]) if self.cache is not None else None
        data = self.cache.notebook(key) if key is not None else None
        if data is None:
            from macros.notebooks.build import notebook_bytes

            data = notebook_bytes(self.lessons.value(slug))
            if key is not None and self._unchanged(slug):
                self.cache.keep_notebook(key, data)
        return data

    def lesson_slug(self, src_uri):
        """The slug of a lesson page (lessons/<slug>/lesson.md), or None for other pages."""
        parts = Path(src_uri).parts
        slug = parts[1] if len(parts) == 3 else None
        return slug if slug and src_uri == folders.src_uri(slug) else None

    def render(self, src_uri, path, meta=None):
        """A page's Markdown with every template part filled in, or a PageError.

        ``src_uri`` is the page's place among the site's files (links are relative to it);
        ``path`` its source file; ``meta`` its front matter as MkDocs read it.
        """
        path = Path(path).resolve()
        slug = self.lesson_slug(src_uri)
        self._settle(slug)
        if slug in self.failures:
            raise PageError(str(self.failures[slug]))
        key = self._page_key(src_uri, path, slug, meta)
        kept = self.cache.page(key, self.digests) if key is not None else None
        if kept is not None:
            markdown, self.reads[src_uri] = kept
            return markdown
        markdown = self._render_page(src_uri, path, slug, meta)
        reads = self.reads[src_uri]
        sources = [*([slug] if slug else []), *(self.digests if reads is None else reads)]
        if key is not None and self._page_unchanged(path, key, src_uri, slug, meta) and self._unchanged(*sources):
            self.cache.keep_page(key, markdown, reads, self.digests)
        return markdown

    def _page_unchanged(self, path, key, src_uri, slug, meta):
        return slug is not None or self._page_key(src_uri, path, slug, meta) == key

    def _page_key(self, src_uri, path, slug, meta):
        if self.cache is None:
            return None
        if slug is not None:
            return self.cache.page_key("page", src_uri, self.digests[slug])
        return self.cache.page_key("page", src_uri, _bytes(path), json.dumps(meta or {}, sort_keys=True, default=str))

    def _lesson(self, slug):
        try:
            return self.lessons.value(slug)
        except LessonError as error:
            self.failures[slug] = error
            raise PageError(str(error)) from None

    def _render_page(self, src_uri, path, slug, meta):
        from macros import context, notebooks, unseen
        from macros.render import practice, widgets
        from macros.render import track as track_render

        name = path.relative_to(self.root).as_posix()
        values = {"track_map": lambda: track_render.track_map(self.titles, list(self.entries.values()), src_uri)}
        if slug is not None:
            lesson = self._lesson(slug)
            self.check_prose(name, path)
            values.update(context.lesson_context(lesson))
            meta = lesson.meta
        values.update(meta or {})
        self.lessons.reads = set()
        try:
            markdown = strip_front_matter(self._render(name, values))
        finally:
            reads = self.lessons.reads
            self.reads[src_uri] = None if reads is None else reads - {slug}
        if slug is not None:  # a graded answer must not be on the page above its question
            try:
                markdown = unseen.enforce(name, markdown, lesson.decimals)
            except LessonError as error:
                raise PageError(str(error)) from None
            markdown = practice.placed(lesson, markdown)
        if slug in self.entries:
            entry = self.entries[slug]
            data = widgets.lesson_data(slug, entry.title, lesson.decimals, lesson.plain_fixture, entry.meta)
            facts = track_render.facts(entry, self.entries) + "\n" + notebooks.page_link(lesson) + "\n" + data
            markdown = with_facts(markdown, facts + "\n")
        return markdown

    def check_prose(self, name, path):
        """A decimal typed in a lesson's prose is a number no helper computed: refused, with
        every other one in the file named too, so that one build shows them all."""
        found = prose.typed_decimals(path.read_text(encoding="utf-8"))
        if found:
            (line, number), others = found[0], found[1:]
            named = [f"{n} on line {at}" for at, n in others[:NAMED_TYPOS]]
            named += [f"{len(others) - NAMED_TYPOS} more"] if len(others) > NAMED_TYPOS else []
            also = f" (also {', '.join(named)})" if others else ""
            raise PageError(f"{name}:{line}: typed number {number}; show it with a helper{also}")

    def _render(self, name, values):
        try:
            return self.environment.get_template(name).render(values)
        except Exception as error:  # every failure becomes one located line
            names = functools.partial(self._names, name, values)
            raise PageError(located(error, name, str(self.root / name), names)) from None

    def _names(self, name, values):
        """Every name the page could have used: its values, the helpers, and those the template
        gives values itself ({% set %}, loop variables, macros and their parameters)."""
        names = {*values, *self.environment.globals}
        try:
            tree = self.environment.parse(self.environment.loader.get_source(self.environment, name)[0])
        except jinja2.TemplateError:
            return names
        names |= {node.name for node in tree.find_all(jinja2.nodes.Name) if node.ctx in ("store", "param")}
        return names | {node.name for node in tree.find_all(jinja2.nodes.Macro)}


# ---------------------------------------------------------------- errors an author reads


def template_line(error, filename):
    """The line of the template where ``error`` happened, from Jinja's rewritten traceback."""
    if isinstance(error, jinja2.TemplateSyntaxError):
        return error.lineno
    line, tb = None, error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def root_cause(error):
    """The error an author can act on: an undefined name hidden behind a numpy ValueError, say."""
    seen = error
    while seen is not None:
        if isinstance(seen, LessonError | jinja2.UndefinedError | jinja2.TemplateSyntaxError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return error


def located(error, name, filename, names=tuple):
    """One line: ``lessons/<slug>/lesson.md:LINE: what went wrong``; an undefined name gets the
    closest of ``names()`` (what the page could have used, asked for only then: it parses the
    template again) as a suggestion."""
    cause = root_cause(error)
    line = template_line(error, filename)
    where = f"{name}:{line}" if line else name
    if isinstance(cause, SourceError):  # names its own file and field
        return str(cause)
    if isinstance(cause, LessonError):  # a false claim or a predicate's complaint: the page says where
        return f"{where}: {cause}"
    if isinstance(cause, jinja2.TemplateSyntaxError):
        return f"{where}: {cause.message}"
    if isinstance(cause, jinja2.UndefinedError):
        from macros import missing

        return f"{where}: {cause}{missing.suggestion(str(cause), names())}"
    if isinstance(cause, SyntaxError):
        return f"{name}: an expression Jinja cannot compile (a slice such as M[:, 0] is one: write M.T[0])"
    return f"{where}: {type(cause).__name__}: {cause}"


def page_meta(path):
    """The front matter of a page that is not a lesson (MkDocs reads it the same way)."""
    found = FRONT_MATTER.match(Path(path).read_text(encoding="utf-8"))
    data = yaml.safe_load(found.group(1)) if found else None
    return data if isinstance(data, dict) else {}


__all__ = ["Book", "PageError", "SourceError", "located", "page_meta"]
