"""MkDocs hooks: lesson folders become pages, math is typeset at build time.

MkDocs imports this file once per process, but ``mkdocs serve`` reloads the configuration
on every rebuild; ``on_config`` then drops the project's own modules from the import
cache, before the macros plugin imports them, so edits to the engine, the helpers or the
wiring show on the next reload without restarting the server. For the same reason the
project's modules are imported inside the hooks, never at the top of this file.
"""

import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority, get_plugin_logger
from mkdocs.structure.files import File

PROJECT = Path(__file__).resolve().parent.parent
if str(PROJECT) not in sys.path:
    sys.path.insert(0, str(PROJECT))

log = get_plugin_logger("lessons")


def project_root(config):
    """The folder of mkdocs.yml: lessons/ and the vendored KaTeX are found from here."""
    return Path(config.config_file_path).resolve().parent


_renderer = None


@event_priority(100)  # before the macros plugin's on_config, which imports the package
def on_config(config):
    for name in [name for name in sys.modules if name == "macros" or name.startswith("macros.")]:
        del sys.modules[name]
    config.nav = with_chapters(config)
    return config


def with_chapters(config):
    """The nav of mkdocs.yml with the track's chapters inserted after its first entry (Home)."""
    from macros import site, track
    from macros.errors import LessonError

    try:
        chapters = track.nav(project_root(config) / "lessons")
    except LessonError as error:
        if site.strict():
            raise PluginError(str(error)) from None
        log.error(str(error))
        return config.nav
    return [*config.nav[:1], *chapters, *config.nav[1:]]


def on_files(files, config):
    """Each lessons/<slug>/lesson.md is published at lessons/<slug>/ beside the docs pages."""
    from macros import lessons

    root = project_root(config)
    for folder in lessons.folders(root / "lessons"):
        src = lessons.src_uri(folder.name)
        dest = f"lessons/{folder.name}/index.html" if config.use_directory_urls else f"lessons/{folder.name}.html"
        files.append(File(src, str(root), config.site_dir, config.use_directory_urls, dest_uri=dest))
    return files


def on_post_page(output, page, config):
    from macros import mathrender, site

    global _renderer
    try:
        if _renderer is None:
            _renderer = mathrender.KatexRenderer(project_root(config))
        return _renderer.typeset(output)
    except mathrender.RendererError as error:
        raise PluginError(f"{page.file.src_path}: {error}") from None
    except mathrender.MathError as error:
        message = f"{page.file.src_path}: {error}"
        if site.strict():
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
