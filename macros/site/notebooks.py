"""Each lesson's notebook published beside its page: lessons/<slug>/<slug>.ipynb.

The notebooks are site files made at build time (MkDocs' ``File.generated``), never
written into the sources, so the strict build's link check sees the page's link to its
notebook, and ``mkdocs serve`` remakes a notebook whenever its lesson's folder changes
(mkdocs.yml watches lessons/). A lesson whose sources fail gets no notebook: its page
shows the mistake instead.
"""

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from macros.notebooks import slug_file_name


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
        raise PluginError(str(book.first_failure()))
    for slug in book.digests:
        file = files.get_file_from_path(src_uri(slug))
        if file is None:
            continue
        if slug in book.failures:
            files.remove(file)
        else:
            file.content_bytes = book.notebook(slug)
