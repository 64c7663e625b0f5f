"""Pages made by an earlier build, kept in ``.cache/pages`` so that an unchanged page costs a
file read instead of its computation and rendering.

An entry is found by the page's place among the site's files and the fingerprint of what
every page depends on (the code, the package versions, the environment's options:
``macros.pages.environment.fingerprint``). It holds the page's Markdown, the files made
with it (a lesson's notebook) and the record of its dependencies: every source file the
page read, with the digest of the bytes it read, and the named values it used (the track).
A lookup returns the entry only while every one of those digests still holds.

Only renders that succeeded are kept, so a mistake is found again, with its message, on the
next build; and a hit means the same sources were computed and checked before. Deleting the
folder changes no byte of the site, only time (tests/test_cache_identity.py).
"""

import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from macros.caching import age as cache_age
from macros.caching.whole_files import write_whole
from macros.sources import reads


@dataclass(frozen=True)
class Made:
    """A page as rendered: its Markdown, the files made with it, and what it was made from."""

    markdown: str
    files: dict = field(default_factory=dict)  # file name -> text (a lesson's notebook)
    sources: dict = field(default_factory=dict)  # path or name -> digest (macros.sources.reads)

    @property
    def digest(self):
        """The digest of what a reader gets from it: equal digests, equal pages."""
        return reads.digest(json.dumps([self.markdown, self.files], sort_keys=True))


class PageCache:
    """``.cache/pages`` under the project: one JSON file per page and fingerprint.

    Source paths are stored relative to the project, so a copied project (and its cache)
    checks its own files. ``current`` gives the digest a dependency has now.
    """

    def __init__(self, root, fingerprint, current):
        self.root = Path(root).resolve()
        self.folder = self.root / ".cache" / "pages"
        self.fingerprint = fingerprint
        self.current = current  # path or name -> digest now

    def _file(self, src_uri):
        return self.folder / f"{reads.digest(self.fingerprint + chr(0) + src_uri)}.json"

    def page(self, src_uri):
        """The kept ``Made`` for the page while everything it read is unchanged, else None."""
        path = self._file(src_uri)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            sources = {self._absolute(name): value for name, value in entry["sources"].items()}
            made = Made(entry["markdown"], entry["files"], sources)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        if any(self.current(name) != value for name, value in made.sources.items()):
            return None
        cache_age.used(path)
        return made

    def keep(self, src_uri, made):
        sources = {self._relative(name): value for name, value in made.sources.items()}
        data = json.dumps({"markdown": made.markdown, "files": made.files, "sources": sources}, sort_keys=True)
        with contextlib.suppress(OSError):  # a read-only tree builds, only without keeping
            write_whole(self._file(src_uri), data.encode("utf-8"))

    def _relative(self, name):
        path = Path(name)
        if path.is_absolute() and path.is_relative_to(self.root):
            return "./" + path.relative_to(self.root).as_posix()
        return name

    def _absolute(self, name):
        return str(self.root / name[2:]) if name.startswith("./") else name
