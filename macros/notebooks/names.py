"""Where a lesson's notebook is published, and the line of its page that links it.

Apart from build.py, which loads nbformat and numpy: a warm build publishes the notebooks
from the cache and writes the pages' links without making any notebook.
"""


def file_name(lesson):
    """The notebook's name, published beside the lesson page: ``<slug>.ipynb``."""
    return slug_file_name(lesson.slug)


def slug_file_name(slug):
    """The same name from a slug alone, for callers without a computed lesson (publishing, export)."""
    return f"{slug}.ipynb"


def page_link(lesson):
    """The line under the lesson's title that links its notebook, published beside the page.

    A Markdown link relative to the page's source, so the strict build checks that it resolves.
    """
    return (
        '<div class="lesson-notebook" markdown>\n'
        f"Run it yourself: [open the notebook]({file_name(lesson)}){{: download }}, every step of this "
        "lesson in a few lines of numpy, for Jupyter or any editor that opens notebooks.\n"
        "</div>\n"
    )
