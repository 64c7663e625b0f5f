"""The book as plain Markdown: ``python -m macros render DIR``.

Every page (lessons, home with its track map, glossary, author guide, each chapter on one
page) is written with
every number filled in and no template syntax left, beside each lesson's notebook, the site's assets and a
minimal mkdocs.yml (Material, no macros plugin, no project hooks). The scripts the project's
hooks make at build time (the bundled page scripts, the worker shim) are written as assets, and
the worksheet pages beside the lessons. This is what another
site generator would start from; math stays as arithmatex markup (``\\(...\\)``), which
``macros.render.katex`` typesets from built HTML, or KaTeX's own script in the browser.
"""

import shutil
from pathlib import Path

import yaml

from macros import notebooks
from macros.pages import scripts as page_scripts
from macros.pages.book import Book, PageError, page_meta
from macros.render import practice, worksheets
from macros.sources import folders, track

# Everything of the project's own in mkdocs.yml: its plugin, its hooks, what serve watches
# and the strict-mode switch. The rest (theme, palette, stylesheets, scripts, Markdown
# extensions) is the site as readers see it, and is written out unchanged.
PROJECT_KEYS = ("plugins", "hooks", "watch", "strict")


class _ConfigLoader(yaml.SafeLoader):
    """Reads mkdocs.yml's ``!ENV [NAME, default]`` tags as their default."""


_ConfigLoader.add_constructor("!ENV", lambda loader, node: loader.construct_sequence(node)[-1])


def config(root):
    """The site's own mkdocs.yml without the project's parts, the track's chapters in its nav."""
    settings = yaml.load((Path(root) / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_ConfigLoader)
    for key in PROJECT_KEYS:
        settings.pop(key, None)
    chapters = track.nav(Path(root) / "lessons")
    nav = settings["nav"]
    settings["nav"] = [*nav[:1], *chapters, *nav[1:]]  # after Home, as the project's hook inserts them
    return settings


def write(root, out):
    """Write the book under ``out`` (docs/ and mkdocs.yml); a PageError for the first mistake."""
    root, out = Path(root).resolve(), Path(out)
    book = Book(root)
    if book.track_error is not None:
        raise PageError(str(book.track_error))
    docs = out / "docs"
    if docs.exists():
        shutil.rmtree(docs)
    shutil.copytree(root / "docs", docs, ignore=shutil.ignore_patterns("*.md"))
    written = []
    pages = [(path.relative_to(root / "docs").as_posix(), path) for path in sorted((root / "docs").rglob("*.md"))]
    pages += [(folders.src_uri(f.name), f / folders.LESSON_FILE) for f in folders.folders(root / "lessons")]
    pages += [(track.summary_uri(title), None) for title in book.titles]  # each chapter on one page
    for src_uri, path in pages:
        target = docs / src_uri
        target.parent.mkdir(parents=True, exist_ok=True)
        meta = page_meta(path) if path is not None else None
        target.write_text(book.render(src_uri, path, meta).markdown, encoding="utf-8")
        written.append(target)
    for slug in book.lessons:  # each lesson's notebook and practice data beside its page, as on the site
        made = book.lesson_files(slug)
        names = {
            "notebook": notebooks.slug_file_name(slug),
            "notebook_script": folders.NOTEBOOK_SCRIPT,
            "practice": practice.DATA_FILE,
        }
        for name, data in made.items():
            if name not in names:  # what the lesson hands its chapter's summary, which is written above
                continue
            target = docs / "lessons" / slug / names[name]
            target.write_bytes(data)
            written.append(target)
    made = {uri: text.encode() for uri, text in worksheets.pages(*track.load(root / "lessons")).items()}
    for uri, data in {**page_scripts.published(root), **made}.items():  # what the site's hooks would add
        target = docs / uri
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written.append(target)
    (out / "mkdocs.yml").write_text(yaml.safe_dump(config(root), sort_keys=False, allow_unicode=True), "utf-8")
    return written
