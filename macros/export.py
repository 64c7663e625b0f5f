"""The book as plain Markdown: ``python -m macros render DIR``.

Every page (lessons, home with its track map, glossary, author guide) is written with
every number filled in and no template syntax left, beside each lesson's notebook, the site's assets and a
minimal mkdocs.yml (Material, no macros plugin, no project hooks). This is what another
site generator would start from; math stays as arithmatex markup (``\\(...\\)``), which
``macros.render.katex`` typesets from built HTML, or KaTeX's own script in the browser.
"""

import shutil
from pathlib import Path

import yaml

from macros import notebooks
from macros.book import Book, PageError, page_meta
from macros.sources import folders

# What the real site uses, minus everything of its own (plugin, hooks, strict-mode switch).
MARKDOWN_EXTENSIONS = [
    "admonition",
    "attr_list",
    "md_in_html",
    "tables",
    {"toc": {"permalink": True}},
    "pymdownx.details",
    "pymdownx.superfences",
    {"pymdownx.arithmatex": {"generic": True}},
]


def config(book):
    """A minimal mkdocs-material configuration for the written pages."""
    chapters = [
        {title: [e.src for e in book.entries.values() if e.chapter == c]} for c, title in enumerate(book.titles, 1)
    ]
    return {
        "site_name": "Attention by Hand",
        "docs_dir": "docs",
        "theme": {"name": "material", "font": False, "features": ["navigation.footer", "navigation.sections"]},
        "exclude_docs": "assets/vendor/katex/katex.min.js\n",
        "extra_css": [
            "assets/vendor/katex/katex.min.css",
            "assets/css/lesson.css",
            "assets/css/widgets.css",
        ],
        "extra_javascript": [{"path": "assets/js/widgets.js", "type": "module"}],
        "markdown_extensions": MARKDOWN_EXTENSIONS,
        "nav": [{"Home": "index.md"}, *chapters, {"Glossary": "glossary.md"}, {"Writing a lesson": "authoring.md"}],
    }


def write(root, out):
    """Write the book under ``out`` (docs/ and mkdocs.yml); a PageError for the first mistake."""
    root, out = Path(root).resolve(), Path(out)
    book = Book(root)
    if book.failures:
        raise PageError(str(next(iter(book.failures.values()))))
    docs = out / "docs"
    if docs.exists():
        shutil.rmtree(docs)
    shutil.copytree(root / "docs", docs, ignore=shutil.ignore_patterns("*.md"))
    written = []
    pages = [(path.relative_to(root / "docs").as_posix(), path) for path in sorted((root / "docs").rglob("*.md"))]
    pages += [(folders.src_uri(f.name), f / folders.LESSON_FILE) for f in folders.folders(root / "lessons")]
    for src_uri, path in pages:
        target = docs / src_uri
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(book.render(src_uri, path, page_meta(path)), encoding="utf-8")
        written.append(target)
    for lesson in book.lessons.values():  # each lesson's notebook beside its page, as on the site
        target = docs / "lessons" / lesson.slug / notebooks.file_name(lesson)
        target.write_bytes(notebooks.notebook_bytes(lesson))
        written.append(target)
    (out / "mkdocs.yml").write_text(yaml.safe_dump(config(book), sort_keys=False, allow_unicode=True), "utf-8")
    return written
