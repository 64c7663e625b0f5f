"""Pages and notebooks made by an earlier build, kept in ``.cache/pages`` so that an
unchanged lesson costs a file read instead of its computation.

A page's Markdown is a function of:

- the project's code (every file under ``macros/``) and the versions of what it calls;
- the page's own sources (a lesson's folder and the fixtures it extends, or the page file);
- the track (``lessons/track.yaml`` and every lesson's front matter: titles, prerequisites);
- the other lessons whose numbers the page reads (``lessons["slug"]``).

The key hashes the first three. The fourth is known only after a render, so an entry
records the digest of each lesson it read, and a lookup returns the entry only while those
digests still hold. Only renders that succeeded are kept: a mistake is found again, with
its message, on the next build. Deleting the folder changes no byte of the site, only time
(tests/test_build_identity.py).
"""

import contextlib
import hashlib
import json
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from macros import cache_age
from macros.files import write_whole

# What the code's output depends on beyond macros/: the interpreter and these packages.
PACKAGES = ("numpy", "jinja2", "pyyaml", "nbformat")
ALL_LESSONS = "*"  # an entry that read every lesson (a loop over ``lessons``)


def digest_of(*parts):
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode()
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


def code_digest():
    """Every file of the code that runs (this package, wherever the project is) and the
    versions that run it."""
    folder = Path(__file__).resolve().parent
    parts = [sys.version, *(f"{name} {metadata.version(name)}" for name in PACKAGES)]
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            parts += [path.relative_to(folder).as_posix(), path.read_bytes()]
    return digest_of(*parts)


class PageCache:
    """``.cache/pages`` under the project: one JSON file per page, one file per notebook."""

    def __init__(self, root, code, track):
        self.folder = Path(root) / ".cache" / "pages"
        self.code = code  # in every key
        self.track = track  # in the keys of pages, which show titles and prerequisites

    def page_key(self, *parts):
        return digest_of(self.code, self.track, *parts)

    def lesson_key(self, *parts):
        """A computed lesson and its notebook depend on the code and the lesson's own sources."""
        return digest_of(self.code, *parts)

    def writable(self):
        """True when entries can be written (a read-only tree builds, only without keeping)."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=self.folder):
                return True
        except OSError:
            return False

    # ------------------------------------------------------------ pages

    def page(self, key, digests):
        """The cached (markdown, read slugs) of ``key`` while the lessons it read are unchanged, else None."""
        path = self.folder / f"{key}.json"
        entry = self._read_json(path)
        if entry is None:
            return None
        cache_age.used(path)
        reads = entry.get("reads")
        if reads == ALL_LESSONS:
            if entry.get("all") != all_lessons_digest(digests):
                return None
            return entry["markdown"], None
        if not isinstance(reads, dict) or any(digests.get(slug) != digest for slug, digest in reads.items()):
            return None
        return entry["markdown"], set(reads)

    def keep_page(self, key, markdown, reads, digests):
        """Keep a page that rendered; ``reads`` is the set of other lessons it read (None: all)."""
        if reads is None:
            entry = {"reads": ALL_LESSONS, "all": all_lessons_digest(digests)}
        else:
            entry = {"reads": {slug: digests.get(slug) for slug in sorted(reads)}}
        self._write(self.folder / f"{key}.json", json.dumps(entry | {"markdown": markdown}).encode())

    # ------------------------------------------------------------ lessons and notebooks

    def computed_before(self, key):
        """True when a lesson with this key computed without a mistake in an earlier build."""
        path = self.folder / f"{key}.ok"
        if not path.is_file():
            return False
        cache_age.used(path)
        return True

    def keep_computed(self, key):
        self._write(self.folder / f"{key}.ok", b"")

    def notebook(self, key):
        path = self.folder / f"{key}.ipynb"
        try:
            data = path.read_bytes()
        except OSError:
            return None
        cache_age.used(path)
        return data

    def keep_notebook(self, key, data):
        self._write(self.folder / f"{key}.ipynb", data)

    # ------------------------------------------------------------ files

    @staticmethod
    def _read_json(path):
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) and "markdown" in entry else None

    @staticmethod
    def _write(path, data):
        """Written whole (``macros.files``), so two builds or a build's workers never meet half
        an entry; a read-only tree builds, only without keeping."""
        with contextlib.suppress(OSError):
            write_whole(path, data)


def all_lessons_digest(digests):
    return digest_of(*(f"{slug}={digest}" for slug, digest in sorted(digests.items())))
