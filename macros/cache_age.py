"""Files in ``.cache/`` that no build has used for a month are removed, so the caches do not
grow without end.

Every cache there is keyed by content: each edit to the code under ``make serve`` leaves a
full set of pages behind, each fixture edit a page, each KaTeX upgrade a formula file. A
build refreshes the time of the entries it reads back (``used``); at the end of a build that
succeeded, files older than ``DAYS`` go. Removing any of them is always safe: the build that
next needs one makes it again, and no byte of the site changes (tests/test_build_identity.py).
"""

import contextlib
import os
import time
from pathlib import Path

DAYS = 30


def used(path):
    """Note that a build read ``path`` back (its time is what ``prune`` goes by)."""
    with contextlib.suppress(OSError):
        os.utime(path)


def prune(root, days=DAYS, now=None):
    """Remove the files under ``root/.cache`` unused for ``days``; the number removed."""
    cutoff = (time.time() if now is None else now) - days * 86400
    removed = 0
    for path in (Path(root) / ".cache").rglob("*"):
        with contextlib.suppress(OSError):  # gone already, or another build's
            if path.is_file() and path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
    return removed
