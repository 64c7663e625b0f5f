"""MkDocs hooks: the track in the nav, lesson folders as pages, compiled theme templates
cached, math typeset at build time (``macros.render.katex``, HTML in and HTML out).

Imports of the project's modules happen inside the hooks, never at the top of this file,
for the reload below.
"""

import sys
from pathlib import Path

import jinja2
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority, get_plugin_logger
from mkdocs.structure.files import File

PROJECT = Path(__file__).resolve().parent.parent.parent
if str(PROJECT) not in sys.path:
    sys.path.insert(0, str(PROJECT))

log = get_plugin_logger("lessons")


def project_root(config):
    """The folder of mkdocs.yml: lessons/ and the vendored KaTeX are found from here."""
    return Path(config.config_file_path).resolve().parent


def forget_project_modules():
    """WORKAROUND (the one place): drop the project's modules from Python's import cache.

    MkDocs imports this file once per process, but ``mkdocs serve`` reloads the
    configuration on every rebuild, and mkdocs-macros imports ``module_name`` with
    ``importlib.import_module``, which returns the module already imported: without this,
    edits to the engine or the helpers would not show until the server restarts. Neither
    MkDocs nor mkdocs-macros documents a way to reload a plugin's module.
    tests/test_serve.py::test_the_macros_plugin_keeps_a_stale_module shows the stale import
    without it; test_edits_to_fixture_template_and_engine_show_on_reload, the fix.
    """
    for name in [name for name in sys.modules if name == "macros" or name.startswith("macros.")]:
        del sys.modules[name]


@event_priority(100)  # before the macros plugin's on_config, which imports the package
def on_config(config):
    forget_project_modules()
    config.nav = with_chapters(config)
    return config


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


def on_env(env, config, files):
    """Material's page templates load through a loader, so Jinja's bytecode cache serves them."""
    folder = project_root(config) / ".cache" / "theme"
    folder.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = jinja2.FileSystemBytecodeCache(str(folder))
    return env


def on_files(files, config):
    """Each lessons/<slug>/lesson.md is published at lessons/<slug>/ beside the docs pages,
    with its notebook (macros/site/notebooks.py)."""
    from macros.sources import folders

    root = project_root(config)
    for folder in folders.folders(root / "lessons"):
        src = folders.src_uri(folder.name)
        dest = f"lessons/{folder.name}/index.html" if config.use_directory_urls else f"lessons/{folder.name}.html"
        files.append(File(src, str(root), config.site_dir, config.use_directory_urls, dest_uri=dest))
    from macros.site import notebooks

    return notebooks.publish(files, config, root)


_renderer = None


def on_post_page(output, page, config):
    from macros.render import katex
    from macros.site import plugin

    global _renderer
    try:
        if _renderer is None:
            _renderer = katex.KatexRenderer(project_root(config))
        return _renderer.typeset(output)
    except katex.RendererError as error:
        raise PluginError(f"{page.file.src_path}: {error}") from None
    except katex.MathError as error:
        message = f"{page.file.src_path}: {error}"
        if plugin.strict():
            raise PluginError(message) from None
        log.error(message)
        return output


def on_post_build(config):
    _close()


def on_build_error(error):
    _close()


def _close():
    global _renderer
    if _renderer is not None:
        _renderer.close()
        _renderer = None
