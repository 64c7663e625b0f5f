"""Each lesson's notebook published beside its page: lessons/<slug>/<slug>.ipynb.

The notebooks are site files made at build time (MkDocs' ``File.generated``), never
written into the sources, so the strict build's link check sees the page's link to its
notebook, and ``mkdocs serve`` remakes a notebook whenever its lesson's folder changes
(mkdocs.yml watches lessons/). A lesson whose sources fail gets no notebook: its page
shows the mistake instead.
"""

from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File

from macros.errors import LessonError
from macros.notebooks import slug_file_name

log = get_plugin_logger("notebooks")


def src_uri(slug):
    return f"lessons/{slug}/{slug_file_name(slug)}"


def book_of(config):
    """The book the macros plugin computed in its on_config (macros/site/plugin.py), or None
    in a site built without it, whose notebooks, if any, are plain files."""
    return getattr(config.plugins.get("macros"), "book", None)


def publish(files, config):
    """Add one generated notebook per lesson to the site's files; its bytes come in ``settle``,
    once every page is converted (worker processes may still be preparing lessons now)."""
    book = book_of(config)
    if book is None:
        return files
    for slug in book.lessons:
        files.append(File.generated(config, src_uri(slug), content=b""))
    return files


def settle(files, config):
    """Every lesson settled (``Book.settle``), each notebook gets its bytes, and a lesson whose
    sources failed loses its notebook (a strict build stops at its mistake instead)."""
    from macros.site import plugin

    book = book_of(config)
    if book is None:
        return
    book.settle()
    if plugin.strict() and book.failures:
        raise plugin.mistake(book)
    for slug in book.digests:
        file = files.get_file_from_path(src_uri(slug))
        if file is not None:
            made(book, slug, file, files)


def made(book, slug, file, files):
    """The notebook's bytes into its file; a lesson that failed, or whose notebook cannot be
    made, loses it (a strict build stops at the mistake, and a forgiving one says it)."""
    from macros.site import plugin

    if slug not in book.failures:
        try:
            file.content_bytes = book.notebook(slug)
            return
        except LessonError as error:
            book.failures[slug] = error
            if plugin.strict():
                raise plugin.mistake(book, error) from None
            log.warning(str(error))
    files.remove(file)
