"""MkDocs hooks: the track in the nav, lesson folders as pages, compiled theme templates
cached, math typeset at build time (``macros.render.katex``, HTML in and HTML out), the
search index given readable math, and ``make serve`` rendering only what an edit touches.

Imports of the project's modules happen inside the hooks, never at the top of this file,
for the reload below. This file itself is imported once per process.

Under ``make serve`` (``macros.site.serve``) a session rides on the config object
(``macros.site.session``): it says which pages this build renders. The other pages are
neither converted nor written (their files from the previous build stay), but they keep
their title and metadata so the nav is whole, and their search entries are carried over
so the search index is whole. A plain ``mkdocs build`` renders everything.
"""

import sys
from pathlib import Path

import jinja2
from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File

PROJECT = Path(__file__).resolve().parent.parent.parent
if str(PROJECT) not in sys.path:
    sys.path.insert(0, str(PROJECT))

log = get_plugin_logger("lessons")


def project_root(config):
    """The folder of mkdocs.yml: lessons/ and the vendored KaTeX are found from here."""
    return Path(config.config_file_path).resolve().parent


def session_of(config):
    return getattr(config, "lessons_session", None)  # macros.site.session.ATTRIBUTE


def forget_project_modules():
    """WORKAROUND (the one place): drop the project's modules from Python's import cache.

    MkDocs imports this file once per process, but ``mkdocs serve`` reloads the
    configuration on every rebuild, and mkdocs-macros imports ``module_name`` with
    ``importlib.import_module``, which returns the module already imported: without this,
    edits to the engine or the helpers would not show until the server restarts. Neither
    MkDocs nor mkdocs-macros documents a way to reload a plugin's module.
    tests/test_serve.py::test_the_macros_plugin_keeps_a_stale_module shows the stale import
    without it; test_edits_to_fixture_template_and_engine_show_on_reload, the fix.
    Under ``make serve`` it happens only when a file of macros/ changed since the last build.
    """
    for name in [name for name in sys.modules if name == "macros" or name.startswith("macros.")]:
        del sys.modules[name]


@event_priority(100)  # before the macros plugin's on_config, which imports the package
def on_config(config):
    session = session_of(config)
    if session is None or session.code_changed:
        forget_project_modules()
    theme_templates_cached(config, session)
    config.nav = with_chapters(config)
    return config


def theme_templates_cached(config, session):
    """Every Jinja environment of the theme gets the bytecode cache in .cache/theme.

    Material's templates load through a loader, so Jinja's ``FileSystemBytecodeCache``
    serves them (keyed by the template's source). MkDocs makes a new environment for the
    build and others on the way (the search plugin compiles the language partials for
    its configuration): ``on_env`` reaches only the first, so ``get_env`` itself is wrapped.
    Under ``make serve`` the theme's file list (some 14,000 icon names that MkDocs filters
    on every build) is also listed once per server: the theme does not change while serving.
    """
    theme = config.theme
    folder = project_root(config) / ".cache" / "theme"
    plain_env = type(theme).get_env

    def get_env():
        env = plain_env(theme)
        folder.mkdir(parents=True, exist_ok=True)
        env.bytecode_cache = jinja2.FileSystemBytecodeCache(str(folder))
        if session is not None:
            env.list_templates = _listed_once(env.list_templates, session.theme_files, theme)
        return env

    theme.get_env = get_env


def _listed_once(list_templates, listed, theme):
    def remembered(extensions=None, filter_func=None):
        code = getattr(filter_func, "__code__", None)
        key = (tuple(theme.dirs), tuple(theme.static_templates), extensions, code)
        if key not in listed:
            listed[key] = list_templates(extensions, filter_func)
        return list(listed[key])

    return remembered


def with_chapters(config):
    """The nav of mkdocs.yml with the track's chapters inserted after its first entry (Home)."""
    from macros.errors import LessonError
    from macros.site import plugin
    from macros.sources import track

    try:
        chapters = track.nav(project_root(config) / "lessons")
    except LessonError as error:
        if plugin.strict():
            raise PluginError(str(error)) from None
        log.error(str(error))
        return config.nav
    return [*config.nav[:1], *chapters, *config.nav[1:]]


def on_files(files, config):
    """The site's files beyond docs/: each step below adds its own (one function each)."""
    add_lessons(files, config)
    add_notebooks(files, config)
    mark_untouched(files, config)
    return files


def add_lessons(files, config):
    """Each lessons/<slug>/lesson.md is published at lessons/<slug>/ beside the docs pages."""
    from macros.sources import folders

    root = project_root(config)
    for folder in folders.folders(root / "lessons"):
        src = folders.src_uri(folder.name)
        dest = f"lessons/{folder.name}/index.html" if config.use_directory_urls else f"lessons/{folder.name}.html"
        files.append(File(src, str(root), config.site_dir, config.use_directory_urls, dest_uri=dest))


def mark_untouched(files, config):
    """Under ``make serve``: pages this build does not render report themselves unmodified,
    which is how MkDocs' dirty build skips them (its own test, file times, is not used)."""
    session = session_of(config)
    if session is None:
        return
    for file in files.documentation_pages():
        touched = session.renders(file.src_uri) or file.src_uri not in session.page_facts
        file.is_modified = lambda touched=touched: touched


def add_notebooks(files, config):
    """Each lesson's notebook beside its page (macros/site/notebooks.py)."""
    from macros.site import notebooks

    notebooks.publish(files, config)


def on_env(env, config, files):
    """Before MkDocs copies the site's files: every lesson settled, every notebook made."""
    from macros.site import notebooks

    notebooks.settle(files, config)
    return env


def on_nav(nav, config, files):
    """Pages not rendered this time keep the title and metadata they had (the nav shows them)."""
    session = session_of(config)
    if session is None or session.pages is None:
        return nav
    for file in files.documentation_pages():
        kept = session.page_facts.get(file.src_uri) if file.page is not None else None
        if kept is not None and not session.renders(file.src_uri):
            page = file.page
            page.markdown, page.meta, page._title_from_render, page.toc = kept
    return nav


@event_priority(-100)  # last: the Markdown is HTML now; its formulas go to KaTeX right away
def on_page_content(html, page, config, files):
    from macros.render import katex

    session = session_of(config)
    if session is not None:
        session.page_facts[page.file.src_uri] = (page.markdown, page.meta, page._title_from_render, page.toc)
    try:
        renderer(config).submit(html)
    except katex.RendererError:  # said, with the page's name, when the page is written (on_post_page)
        pass
    return html


# ---------------------------------------------------------------- search: the math's text


@event_priority(50)  # before the search plugin indexes the page
def _readable_math_in(context, page, config, nav):
    from macros.site import search_text

    page._html_with_math = page.content
    page.content = search_text.for_search(page.content)
    return context


@event_priority(-50)  # after: the page itself keeps its math, with the search plugin's own edit
def _readable_math_out(context, page, config, nav):
    import re

    original = getattr(page, "_html_with_math", None)
    if original is not None:
        # Material's search removes its data-search-* attributes from what it indexed
        page.content = re.sub(r"\s?data-search-\w+=\"[^\"]+\"", "", original)
        del page._html_with_math
    session = session_of(config)
    if session is not None:
        session.rendered_urls.append(page.url)
    return context


on_page_context = CombinedEvent(_readable_math_in, _readable_math_out)


# ---------------------------------------------------------------- math


_renderer = None


def renderer(config):
    """The build's KaTeX renderer; under ``make serve``, the session's, alive between rebuilds."""
    global _renderer
    from macros.render import katex

    session = session_of(config)
    if session is not None:
        if session.katex is None or session.code_changed and session.katex_module is not katex:
            if session.katex is not None:
                session.katex.close()
            session.katex, session.katex_module = katex.KatexRenderer(project_root(config)), katex
        return session.katex
    if _renderer is None:
        _renderer = katex.KatexRenderer(project_root(config))
    return _renderer


def on_post_page(output, page, config):
    from macros.render import katex
    from macros.site import notebooks, plugin

    try:
        return renderer(config).typeset(output)
    except katex.RendererError as error:
        raise plugin.mistake(notebooks.book_of(config), f"{page.file.src_path}: {error}") from None
    except katex.MathError as error:
        message = f"{page.file.src_path}: {error}"
        if plugin.strict():
            raise plugin.mistake(notebooks.book_of(config), message) from None
        log.error(message)
        return output


@event_priority(-50)  # after the search plugin has written its index
def on_post_build(config):
    from macros.site import plugin

    plugin.finish(config)
    session = session_of(config)
    if session is not None:
        from macros.site import search_merge

        search_merge.complete(Path(config.site_dir) / "search" / "search_index.json", session)
        session.katex.save() if session.katex is not None else None
        return
    _close(save=True)
    from macros import cache_age

    cache_age.prune_when_due(project_root(config))  # a build that succeeded: what it did not use for a month goes


def on_build_error(error):
    from macros import prepare

    prepare.abandon()
    _close(save=False)


def _close(save):
    global _renderer
    if _renderer is not None:
        if save:
            _renderer.save()
        _renderer.close()
        _renderer = None
