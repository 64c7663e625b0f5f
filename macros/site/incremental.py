"""What an edit touches: the pages ``make serve`` must render again, or None for all of them.

Between two rebuilds the project's sources are compared by content (``snapshot``), and
``plan`` maps the changed files to pages:

- a lesson's fixture: its own page, the lessons whose fixtures extend it, and every page
  that read their numbers through ``lessons["slug"]`` in its previous render (``Readers``);
- a lesson's or a docs page's Markdown, when its front matter and first heading are
  unchanged: that page and its readers (a title is shown in the nav of every page and in
  other lessons' facts lines, so a changed title renders everything);
- an asset under docs/ (CSS, JS, fonts): no page (MkDocs copies the file itself);
- anything else (the engine, the helpers, the shared partials, the track, mkdocs.yml, a
  file added or removed): everything.

Nothing here knows MkDocs; ``macros.site.serve`` and the hooks use it.
"""

import hashlib
import os
import re
from pathlib import Path

from macros import book

WATCHED = ("mkdocs.yml", "lessons", "macros", "docs")
SKIPPED_FOLDERS = {"__pycache__", ".cache"}
FRONT_MATTER = re.compile(r"^-{3}[ \t]*\n.*?\n(?:\.{3}|-{3})[ \t]*\n", re.S)
HEADING = re.compile(r"^# .*$", re.M)
EVERYTHING = None


def _digest(data):
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def heading_digest(text):
    """What of a page's Markdown shows on other pages: its front matter and first heading."""
    front = FRONT_MATTER.match(text)
    heading = HEADING.search(text)
    return _digest(((front.group() if front else "") + "\0" + (heading.group() if heading else "")).encode())


def snapshot(root):
    """{path relative to root: (content digest, heading digest or None)} of every watched file."""
    root = Path(root)
    found = {}
    for name in WATCHED:
        top = root / name
        if top.is_file():
            found[name] = _entry(top)
            continue
        for folder, subfolders, files in os.walk(top):
            subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED_FOLDERS)
            for file in files:
                path = Path(folder, file)
                found[path.relative_to(root).as_posix()] = _entry(path)
    return found


def _entry(path):
    """(content digest, what shows beyond the file): a page's heading digest, a fixture's parent."""
    data = path.read_bytes()
    if path.suffix == ".md":
        return _digest(data), heading_digest(data.decode("utf-8", errors="replace"))
    if path.name == "fixture.yaml":
        return _digest(data), book.fixture_parent(data.decode("utf-8", errors="replace"))
    return _digest(data), None


def extenders(snapshot, slug):
    """The lessons whose fixture is ``slug``'s or extends it, directly or through others."""
    parents = {
        path.split("/")[1]: entry[1]
        for path, entry in snapshot.items()
        if path.startswith("lessons/") and path.endswith("/fixture.yaml") and path.count("/") == 2
    }
    found = {slug}
    while True:
        more = {
            child
            for child, parent in parents.items()
            if child not in found and (parent in found or parent == book.ANY_LESSON)
        }
        if not more:
            return found
        found |= more


class Readers:
    """Which pages read which lessons' numbers, as recorded by the last render of each page."""

    def __init__(self):
        self.by_page = {}  # src_uri -> set of slugs, or None: read them all

    def record(self, src_uri, slugs):
        self.by_page[src_uri] = None if slugs is None else set(slugs)

    def of(self, slug):
        return {page for page, slugs in self.by_page.items() if slugs is None or slug in slugs}


def lesson_page(slug):
    return f"lessons/{slug}/lesson.md"


def plan(before, after, readers):
    """The src_uris of the pages to render again, or EVERYTHING (None)."""
    if before is None:
        return EVERYTHING
    pages = set()
    for path in sorted(before.keys() | after.keys()):
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        parts = path.split("/")
        if parts[0] == "docs" and not path.endswith(".md") and new is not None:
            continue  # an asset, copied by MkDocs when it changes; no page shows its content
        if old is None or new is None:
            return EVERYTHING  # a file added or removed can change the nav or the track
        if parts[0] == "lessons" and len(parts) == 3 and parts[2] in ("fixture.yaml", "lesson.md"):
            if parts[2] == "lesson.md" and old[1] != new[1]:
                return EVERYTHING
            slugs = {parts[1]}
            if parts[2] == "fixture.yaml":
                slugs = extenders(after, parts[1]) | extenders(before, parts[1])
            for slug in slugs:
                pages.add(lesson_page(slug))
                pages |= readers.of(slug)
        elif parts[0] == "docs" and path.endswith(".md"):
            if old[1] != new[1]:
                return EVERYTHING
            pages.add("/".join(parts[1:]))
        else:
            return EVERYTHING
    return pages


def code_changed(before, after):
    """True when a module of the project (macros/) changed: imported modules are then stale."""
    if before is None:
        return True
    names = {p for p in before.keys() | after.keys() if p.startswith("macros/")}
    return any(before.get(p) != after.get(p) for p in names)
