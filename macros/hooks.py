"""MkDocs hooks: lesson folders become pages, math is typeset at build time.

MkDocs loads this file anew on every (re)build of ``mkdocs serve``, so it is also where
stale imports of the project's own code are dropped: edits to the engine, the helpers or
the lessons' code show on the next reload without restarting the server.
"""

import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
if str(PROJECT) not in sys.path:
    sys.path.insert(0, str(PROJECT))
for _name in [name for name in sys.modules if name == "macros" or name.startswith("macros.")]:
    del sys.modules[_name]

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import get_plugin_logger  # noqa: E402
from mkdocs.structure.files import File  # noqa: E402

from macros import lessons, mathrender, site  # noqa: E402

log = get_plugin_logger("lessons")
_renderer = None


def on_files(files, config):
    """Each lessons/<slug>/lesson.md is published at lessons/<slug>/ beside the docs pages."""
    root = Path(config.config_file_path).resolve().parent
    for folder in lessons.folders(root / "lessons"):
        src = f"lessons/{folder.name}/lesson.md"
        dest = f"lessons/{folder.name}/index.html" if config.use_directory_urls else f"lessons/{folder.name}.html"
        files.append(File(src, str(root), config.site_dir, config.use_directory_urls, dest_uri=dest))
    return files


def on_post_page(output, page, config):
    global _renderer
    if _renderer is None:
        _renderer = mathrender.KatexRenderer(Path(config.config_file_path).resolve().parent)
    try:
        return _renderer.typeset(output)
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
