"""The site's files beyond docs/: each lesson's page, its notebook, its practice data and its
worksheet, the class set of worksheets, and the scripts every page loads.

A lesson's page source is ``lessons/<slug>/lesson.md``, published as
``lessons/<slug>/index.html``: a file, which a reader who opened the site from disk can
follow a link to, at the address a server gives ``lessons/<slug>/`` as well. Its notebook
and its practice data (``practice.js``) are site files made at build time with the page
(MkDocs' documented ``File.generated``), never written into the sources, so the strict
build's link check sees the page's link to its notebook. A lesson whose page fails gets
neither: its page shows the mistake instead. The page scripts (``macros.pages.scripts``) are
made on every build, so an edit to a module under ``make serve`` is served at the next reload.
"""

import contextlib
import os

from mkdocs.structure.files import File

from macros.errors import LessonError, SourceError
from macros.notebooks import slug_file_name
from macros.pages import ahead
from macros.pages import scripts as page_scripts
from macros.render import worksheets
from macros.site import serving
from macros.sources import folders, track

TRACK_FILE = "track.yaml"


def made_uris(slug):
    """The files made with a lesson's page, by name, where the site publishes them."""
    return {
        "notebook": f"lessons/{slug}/{slug_file_name(slug)}",
        "notebook_script": f"lessons/{slug}/{folders.NOTEBOOK_SCRIPT}",
        "practice": f"lessons/{slug}/{folders.PRACTICE_FILE}",
    }


def add_lessons(files, config, root):
    """Each lessons/<slug>/lesson.md is published as lessons/<slug>/index.html, in the folder of
    its notebook and practice data, beside the docs pages."""
    for folder in folders.folders(root / "lessons"):
        src = folders.src_uri(folder.name)
        dest = f"lessons/{folder.name}/index.html"
        files.append(File(src, str(root), config.site_dir, config.use_directory_urls, dest_uri=dest))


def add_summaries(files, config, book):
    """A page per chapter that sums it up (``macros.render.summaries``), whose Markdown the book
    makes from the chapter's lessons when MkDocs reads it. Each is backed by the track's file
    (MkDocs' documented ``File.generated(abs_src_path=)``), the source it is made from beside
    the lessons: a partial rebuild under ``make serve`` then rebuilds it only when the track
    changes or when ``serving.mark_stale`` finds one of its lessons changed, as for any page."""
    source = str(book.root / "lessons" / TRACK_FILE)
    for title in book.titles:
        files.append(File.generated(config, track.summary_uri(title), abs_src_path=source))


def add_page_scripts(files, config, root, failed):
    """The bundled page script and the worker shim. When they cannot be made, ``failed`` is
    called (a strict build's stop): the pages still read fully without them."""
    try:
        made = page_scripts.published(root)
    except page_scripts.ScriptsError as error:
        failed(error)
        return
    for uri, content in made.items():
        files.append(File.generated(config, uri, content=content))


def add_worksheets(files, config, root, failed):
    """A worksheet beside each lesson's page and the class set (``macros.render.worksheets``):
    pages around the lessons' practice data, made from the track alone."""
    try:
        chapters, entries = track.load(root / "lessons")
    except SourceError as error:
        failed(error)
        return
    for uri, text in worksheets.pages(chapters, entries).items():
        files.append(unchanged(config, uri, text) or File.generated(config, uri, content=text))


def unchanged(config, uri, text):
    """The page already in the site folder, when it holds ``text``: a File whose source is that
    page itself, so that a partial rebuild under ``make serve`` leaves it untouched (MkDocs skips
    a file no newer than its copy, and copying a file onto itself is a step it allows for plugins
    that write into the site folder). None when the page must be written."""
    path = os.path.join(config.site_dir, uri)
    try:
        with open(path, encoding="utf-8") as found:
            if found.read() != text:
                return None
    except OSError:
        return None
    return File(uri, config.site_dir, config.site_dir, config.use_directory_urls)


def add_made_files(files, config, book):
    """A generated file for each file a lesson's page may make (its notebook, its practice
    data); their bytes come in ``render_lessons``."""
    for slug in book.folders:
        for uri in made_uris(slug).values():
            files.append(File.generated(config, uri, content=b""))


def render_ahead(book):
    """In ``mkdocs build``, every lesson page starts rendering before MkDocs reads the first
    page, in as many processes as there are cores, in the order MkDocs reads them
    (``macros.pages.ahead``); MkDocs finds each one made, or waits for it. Pages that failed
    are rendered again, and reported, when MkDocs reads them."""
    if serving.whole_build():
        pages = [(folders.src_uri(slug), book.folders[slug] / folders.LESSON_FILE) for slug in book.folders]
        ahead.render_ahead(book, pages, ahead.workers())


def render_lessons(files, book, failed):
    """Every lesson page rendered (or taken from the cache), and with it each made file's
    bytes. A file the page did not make (a lesson without practice) is left out; a lesson
    whose page failed loses them all (and, in a partial rebuild, the ones an earlier build
    wrote), and ``failed`` (a strict build's stop) is called with the mistake."""
    for slug in book.folders:
        published = {name: files.get_file_from_path(uri) for name, uri in made_uris(slug).items()}
        try:
            made = book.lesson_files(slug)
        except LessonError as error:
            failed(error)
            made = {}
        for name, file in published.items():
            if file is None:
                continue
            if name in made:
                file.content_bytes = made[name]
                continue
            files.remove(file)
            with contextlib.suppress(OSError):
                os.remove(file.abs_dest_path)
