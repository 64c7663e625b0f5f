"""Wiring between mkdocs-macros and the lessons: helpers, per-page context and errors.

Strictness comes from the STRICT environment variable (true unless set to false):
``make build`` and ``make test`` stop at the first mistake with a located message;
``make serve`` shows the mistake on the page and keeps the server running.
"""

import os
from pathlib import Path

from jinja2 import TemplateSyntaxError, UndefinedError
from mkdocs.exceptions import PluginError
from mkdocs_macros.errors import format_error

from macros import context, lessons, template_cache, track
from macros.errors import FixtureError, LessonError
from macros.render import track as track_render
from macros.render import widgets


def strict():
    return os.environ.get("STRICT", "true").strip().lower() != "false"


def project_dir(env):
    return Path(env.conf.config_file_path).resolve().parent


def lesson_slug(page):
    """The slug of a lesson page (src lessons/<slug>/lesson.md), or None for other pages."""
    parts = Path(page.file.src_uri).parts
    slug = parts[1] if len(parts) == 3 else None
    return slug if slug and page.file.src_uri == lessons.src_uri(slug) else None


def define_env(env):
    """Load every lesson before any page renders, so a bad fixture stops the build early."""
    _register_error_formats()
    env.variables.update(context.site_context())
    env.lesson_failures = {}
    env.lesson_keys = ()
    loaded = {}
    for folder in lessons.folders(project_dir(env) / "lessons"):
        try:
            loaded[folder.name] = lessons.load(folder)
        except LessonError as error:
            if strict():
                raise PluginError(str(error)) from None
            env.lesson_failures[folder.name] = error
    env.variables["lessons"] = loaded
    titles, entries = load_track(env)
    env.track_entries = {entry.slug: entry for entry in entries}
    env.variables["track_map"] = lambda: track_render.track_map(titles, entries, env.page.file.src_uri)


def load_track(env):
    try:
        return track.load(project_dir(env) / "lessons")
    except LessonError as error:
        if strict():
            raise PluginError(str(error)) from None
        env.lesson_failures["track"] = error
        return [], []


def before_page(env):
    # The plugin creates its Jinja environment after define_env; the cache goes in on first use.
    if not getattr(env.env, "compile_cached", False):
        # Jinja's optimizer only folds constants, which lesson templates barely have; skipping
        # it makes compiling a lesson about a sixth cheaper (see bench/).
        env.env.optimized = False
        template_cache.install(env.env, project_dir(env) / ".cache" / "templates")
    slug = lesson_slug(env.page)
    if slug is None:
        return
    if slug in env.lesson_failures:
        env.markdown = error_admonition(env.lesson_failures[slug])
        return
    values = context.lesson_context(env.variables["lessons"][slug])
    env.variables.update(values)
    env.lesson_keys = tuple(values)


def with_facts(markdown, facts):
    """The lesson's facts line placed right under its first-level title."""
    lines = markdown.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("# "):
            return "\n".join([*lines[: i + 1], "", facts, *lines[i + 1 :]])
    return facts + "\n" + markdown


def after_page(env):
    """Add the facts line to a rendered lesson (after rendering, so template line numbers in
    error messages stay those of the file); then drop the lesson's names, which must not
    leak into the next page, where they would hide an undefined name."""
    slug = lesson_slug(env.page)
    if slug in env.track_entries and slug not in env.lesson_failures:
        lesson, entry = env.variables["lessons"][slug], env.track_entries[slug]
        data = widgets.lesson_data(slug, entry.title, lesson.decimals, lesson.plain_fixture, entry.meta)
        env.markdown = with_facts(env.markdown, track_render.facts(entry, env.track_entries) + "\n" + data + "\n")
    for key in env.lesson_keys:
        env.variables.pop(key, None)
    env.lesson_keys = ()


# ---------------------------------------------------------------- errors an author reads


def error_admonition(message):
    body = "\n".join("    " + line for line in str(message).splitlines())
    return f'!!! failure "This page could not be built"\n\n{body}\n'


def template_line(error, markdown, page):
    """The line of the lesson file where a template error happened, counting front matter."""
    # Only Jinja's own syntax errors carry a template line; a Python SyntaxError's lineno is
    # a line of the code Jinja generated, meaningless to an author.
    line = error.lineno if isinstance(error, TemplateSyntaxError) else None
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    path = page.file.abs_src_path
    if line is None or path is None:
        return line
    text = Path(path).read_text(encoding="utf-8")
    start = text.find(markdown[:200]) if markdown else -1
    return line + (text[:start].count("\n") if start > 0 else 0)


def root_cause(error):
    """The error an author can act on: an undefined name hidden behind a numpy ValueError, say."""
    seen = error
    while seen is not None:
        if isinstance(seen, LessonError | UndefinedError | TemplateSyntaxError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return error


def _located(error, markdown, page):
    cause = root_cause(error)
    line = template_line(error, markdown, page)
    where = f"{page.file.src_path}:{line}" if line else page.file.src_path
    if isinstance(cause, FixtureError):  # names its own file and field
        message = str(cause)
    elif isinstance(cause, LessonError):  # a false claim or a predicate's complaint: the page says where
        message = f"{where}: {cause}"
    else:
        if isinstance(cause, TemplateSyntaxError):
            what = cause.message
        elif isinstance(cause, UndefinedError):
            what = str(cause)
        elif isinstance(cause, SyntaxError):
            what = "an expression Jinja cannot compile (a slice such as M[:, 0] is one: write M.T[0])"
        else:
            what = f"{type(cause).__name__}: {cause}"
        message = f"{where}: {what}"
    if strict():
        # Raised from inside the macros plugin's error handler, a PluginError stops the build
        # with this one line (MkDocs prints it even with --quiet) instead of a traceback.
        raise PluginError(message)
    return error_admonition(message)


def _register_error_formats():
    for kind in (Exception, TemplateSyntaxError):
        format_error.register(kind)(_located)
