"""Which source files a computation read, and the digest of the bytes it read.

A page kept in the cache is valid while every source it was made from still holds the
bytes it held then. Rather than guess those sources (a lesson's folder, the fixtures it
extends, a partial it includes), every read of an author's file goes through this module,
and ``recorded()`` collects the reads made inside it: ``{path: digest}``. A file that was
looked for and not found is recorded too (``MISSING``): creating it changes the page.

Recorders nest: a lesson computed while a page renders notes its reads in both.
"""

import contextlib
import hashlib
from pathlib import Path

MISSING = "missing"
_open = []  # the recorders open now, innermost last


def digest(data):
    """The digest a dependency is compared by: of a file's bytes, or of any text."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@contextlib.contextmanager
def recorded():
    """``{path or name: digest}`` of everything read or noted while the block runs."""
    found = {}
    _open.append(found)
    try:
        yield found
    finally:  # this recorder, not one equal to it (nested ones often hold the same reads)
        _open[:] = [other for other in _open if other is not found]


def note(name, value_digest):
    """Record a dependency in every open recorder: a file (its path) or a named value."""
    for found in _open:
        found[str(name)] = value_digest


def note_all(dependencies):
    """Record dependencies collected earlier (a lesson computed for another page)."""
    for name, value_digest in dependencies.items():
        note(name, value_digest)


def read_bytes(path):
    """A source file's bytes, recorded; an OSError (the file is missing) is recorded too."""
    path = Path(path).resolve()
    try:
        data = path.read_bytes()
    except OSError:
        note(path, MISSING)
        raise
    note(path, digest(data))
    return data


def exists(path):
    """Whether an optional source file is there, recorded either way."""
    path = Path(path).resolve()
    if path.is_file():
        return True
    note(path, MISSING)
    return False


def current(path):
    """The digest a file has now (``MISSING`` when it is not there), to compare with a record."""
    try:
        return digest(Path(path).read_bytes())
    except OSError:
        return MISSING
