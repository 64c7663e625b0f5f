"""Where a lesson's notebook is published, and the line of its page that links it.

Apart from build.py, which loads nbformat and numpy: a warm build publishes the notebooks
from the cache and writes the pages' links without making any notebook.
"""

import json

from macros.sources import folders


def file_name(lesson):
    """The notebook's name, published beside the lesson page: ``<slug>.ipynb``."""
    return slug_file_name(lesson.slug)


def slug_file_name(slug):
    """The same name from a slug alone, for callers without a computed lesson (publishing, export)."""
    return f"{slug}.ipynb"


def script(lesson, text):
    """The notebook as a classic script, published beside the page as ``notebook.js``. A page
    opened from a folder on disk cannot fetch a file, and Chromium ignores a link's download
    attribute there and shows the JSON; the page's script loads this on a click instead and
    saves the notebook from it (docs/assets/js/page.js)."""
    entry = json.dumps({"name": file_name(lesson), "text": text}, ensure_ascii=False).replace("</", "<\\/")
    return f"(window.abhNotebook = window.abhNotebook || {{}})[{json.dumps(lesson.slug)}] = {entry};\n"


def page_link(lesson):
    """The line under the lesson's title that links its notebook, published beside the page.

    A Markdown link relative to the page's source, so the strict build checks that it resolves.
    """
    return (
        '<div class="lesson-notebook" markdown>\n'
        f"Run it yourself: [open the notebook]({file_name(lesson)})"
        f'{{: download data-notebook-script="{folders.NOTEBOOK_SCRIPT}" }}, every step of this '
        "lesson in a few lines of numpy, for Jupyter or any editor that opens notebooks.\n"
        "</div>\n"
    )
