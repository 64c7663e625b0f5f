"""The site's files beyond docs/: each lesson's page and its notebook.

A lesson's page source is ``lessons/<slug>/lesson.md``, published at ``lessons/<slug>/``.
Its notebook is a site file made at build time (MkDocs' documented ``File.generated``),
never written into the sources, so the strict build's link check sees the page's link to
it. A lesson whose page fails gets no notebook: its page shows the mistake instead.
"""

import contextlib
import os

from mkdocs.structure.files import File

from macros.errors import LessonError
from macros.notebooks import slug_file_name
from macros.sources import folders


def notebook_uri(slug):
    return f"lessons/{slug}/{slug_file_name(slug)}"


def add_lessons(files, config, root):
    """Each lessons/<slug>/lesson.md is published at lessons/<slug>/ beside the docs pages."""
    for folder in folders.folders(root / "lessons"):
        src = folders.src_uri(folder.name)
        dest = f"lessons/{folder.name}/index.html" if config.use_directory_urls else f"lessons/{folder.name}.html"
        files.append(File(src, str(root), config.site_dir, config.use_directory_urls, dest_uri=dest))


def add_notebooks(files, config, book):
    """One generated notebook per lesson; its bytes come in ``fill_notebooks``, once the
    pages are rendered (a notebook is made with its page)."""
    for slug in book.folders:
        files.append(File.generated(config, notebook_uri(slug), content=b""))


def fill_notebooks(files, book, failed):
    """Each notebook's bytes; a lesson whose page failed loses its notebook (and, in a partial
    rebuild, the one an earlier build wrote), and ``failed`` (a strict build's stop) is
    called with the mistake."""
    for slug in book.folders:
        file = files.get_file_from_path(notebook_uri(slug))
        if file is None:
            continue
        try:
            file.content_bytes = book.notebook(slug)
        except LessonError as error:
            failed(error)
            files.remove(file)
            with contextlib.suppress(OSError):
                os.remove(file.abs_dest_path)
