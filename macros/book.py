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

import hashlib
import re
from pathlib import Path

import jinja2
import yaml

from macros import context, lessons, missing, notebooks, unseen
from macros.errors import LessonError, SourceError
from macros.render import practice, widgets
from macros.render import track as track_render
from macros.sources import prose, track
from macros.sources.folders import FIXTURE_FILE, LESSON_FILE

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
            hint = missing.message(obj, name)
        super().__init__(hint, obj, name, exc)


def environment(root, cache=True):
    """The Jinja environment for the book's pages, with templates named from ``root``."""
    root = Path(root)
    bytecode_cache = None
    if cache:
        folder = root / ".cache" / "jinja"
        folder.mkdir(parents=True, exist_ok=True)
        bytecode_cache = jinja2.FileSystemBytecodeCache(str(folder))
    # Jinja's optimizer only folds constants, which lesson templates barely have; skipping
    # it makes compiling a lesson about a sixth cheaper (see bench/).
    env = jinja2.Environment(
        loader=_Loader(str(root)), undefined=_Undefined, bytecode_cache=bytecode_cache, optimized=False
    )
    env.globals.update(context.site_context())
    return env


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


class ReadLessons(dict):
    """The ``lessons`` a template sees (another lesson's numbers, by slug), noting which it reads.

    A page that shows another lesson's numbers must be rendered again when that lesson's
    fixture changes (``macros.site.incremental``); ``reads`` is None once a template has
    gone through all of them (a loop), so it depends on every lesson.
    """

    def __init__(self, *args):
        super().__init__(*args)
        self.reads = set()

    def __getitem__(self, slug):
        if self.reads is not None:
            self.reads.add(slug)
        return super().__getitem__(slug)

    def get(self, slug, default=None):
        if self.reads is not None:
            self.reads.add(slug)
        return super().get(slug, default)

    def _all(self):
        self.reads = None

    def __iter__(self):
        self._all()
        return super().__iter__()

    def keys(self):
        self._all()
        return super().keys()

    def values(self):
        self._all()
        return super().values()

    def items(self):
        self._all()
        return super().items()


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
    """What a computed lesson depends on among the author's files: its template, its fixture
    and the fixtures it extends, lesson after lesson."""
    folder = Path(folder)
    digest = hashlib.blake2b(digest_size=16)
    digest.update(_bytes(folder / LESSON_FILE))
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


class Book:
    """The lessons computed and the track read once; pages rendered on demand.

    Mistakes in a lesson's sources are kept (``failures``, by slug, and ``"track"``) so
    the caller decides: a strict build stops, a served page shows the message.

    ``computed`` (slug -> (digest, Lesson)), when given, keeps computed lessons between
    rebuilds of one ``make serve``: a lesson whose fixture and template are unchanged is
    not computed again. The caller empties it when the project's code changes.
    """

    def __init__(self, root, cache=True, computed=None):
        self.root = Path(root).resolve()
        self.environment = environment(self.root, cache)
        self.failures = {}
        self.lessons = ReadLessons()
        for folder in lessons.folders(self.root / "lessons"):
            try:
                self.lessons[folder.name] = self._lesson(folder, computed)
            except LessonError as error:
                self.failures[folder.name] = error
        try:
            self.titles, entries = track.load(self.root / "lessons")
        except LessonError as error:
            self.failures["track"] = error
            self.titles, entries = [], []
        self.entries = {entry.slug: entry for entry in entries}
        self.environment.globals["lessons"] = self.lessons  # another lesson's numbers, by slug
        self.reads = {}  # src_uri -> the other lessons its last render read (None: all)

    @staticmethod
    def _lesson(folder, computed):
        if computed is None:
            return lessons.load(folder)
        digest = lesson_digest(folder)
        kept = computed.get(folder.name)
        if kept is None or kept[0] != digest:
            kept = computed[folder.name] = (digest, lessons.load(folder))
        return kept[1]

    def lesson_slug(self, src_uri):
        """The slug of a lesson page (lessons/<slug>/lesson.md), or None for other pages."""
        parts = Path(src_uri).parts
        slug = parts[1] if len(parts) == 3 else None
        return slug if slug and src_uri == lessons.src_uri(slug) else None

    def render(self, src_uri, path, meta=None):
        """A page's Markdown with every template part filled in, or a PageError.

        ``src_uri`` is the page's place among the site's files (links are relative to it);
        ``path`` its source file; ``meta`` its front matter as MkDocs read it.
        """
        path = Path(path).resolve()
        name = path.relative_to(self.root).as_posix()
        slug = self.lesson_slug(src_uri)
        if slug in self.failures:
            raise PageError(str(self.failures[slug]))
        values = {"track_map": lambda: track_render.track_map(self.titles, list(self.entries.values()), src_uri)}
        if slug is not None:
            lesson = self.lessons[slug]
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
                markdown = unseen.enforce(name, markdown, self.lessons[slug].decimals)
            except LessonError as error:
                raise PageError(str(error)) from None
        if slug is not None:
            markdown = practice.placed(self.lessons[slug], markdown)
        if slug in self.entries:
            lesson, entry = self.lessons[slug], self.entries[slug]
            data = widgets.lesson_data(slug, entry.title, lesson.decimals, lesson.plain_fixture, entry.meta)
            facts = track_render.facts(entry, self.entries) + "\n" + notebooks.page_link(lesson) + "\n" + data
            markdown = with_facts(markdown, facts + "\n")
        return markdown

    def check_prose(self, name, path):
        """A decimal typed in a lesson's prose is a number no helper computed: refused."""
        found = prose.typed_decimals(path.read_text(encoding="utf-8"))
        if found:
            line, number = found[0]
            raise PageError(f"{name}:{line}: typed number {number}; show it with a helper")

    def _render(self, name, values):
        try:
            return self.environment.get_template(name).render(values)
        except Exception as error:  # every failure becomes one located line
            raise PageError(located(error, name, str(self.root / name))) from None


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


def located(error, name, filename):
    """One line: ``lessons/<slug>/lesson.md:LINE: what went wrong``."""
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
        return f"{where}: {cause}"
    if isinstance(cause, SyntaxError):
        return f"{name}: an expression Jinja cannot compile (a slice such as M[:, 0] is one: write M.T[0])"
    return f"{where}: {type(cause).__name__}: {cause}"


def page_meta(path):
    """The front matter of a page that is not a lesson (MkDocs reads it the same way)."""
    found = FRONT_MATTER.match(Path(path).read_text(encoding="utf-8"))
    data = yaml.safe_load(found.group(1)) if found else None
    return data if isinstance(data, dict) else {}


__all__ = ["Book", "PageError", "SourceError", "located", "page_meta"]
