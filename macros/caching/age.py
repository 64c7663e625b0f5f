"""Files in ``.cache/`` that no build has used for a month are removed, so the caches do not
grow without end.

Every cache there is keyed by content: each edit to the code under ``make serve`` leaves a
full set of pages behind, each fixture edit a page, each KaTeX upgrade a formula file. A
build refreshes the time of the entries it reads back (``used``); at the end of a build that
succeeded, at most once a day, files older than ``DAYS`` go. Removing any of them is always
safe: the build that next needs one makes it again, and no byte of the site changes
(tests/test_build_identity.py).
"""

import contextlib
import os
import time
from pathlib import Path

DAYS = 30
DAY = 86400  # seconds
STAMP = "pruned"  # .cache/pruned: its time is when prune last ran


def used(path):
    """Note that a build read ``path`` back (its time is what ``prune`` goes by)."""
    with contextlib.suppress(OSError):
        os.utime(path)


def prune(root, days=DAYS, now=None):
    """Remove the files under ``root/.cache`` unused for ``days``; the number removed."""
    cutoff = (time.time() if now is None else now) - days * DAY
    removed = 0
    for path in (Path(root) / ".cache").rglob("*"):
        with contextlib.suppress(OSError):  # gone already, or another build's
            if path.is_file() and path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
    return removed


def prune_when_due(root, now=None):
    """``prune``, at most once a day: walking every cache file costs a warm build of 100
    lessons about 50 ms, and a file unused for a month can wait a day longer."""
    now = time.time() if now is None else now
    stamp = Path(root) / ".cache" / STAMP
    with contextlib.suppress(OSError):
        if 0 <= now - stamp.stat().st_mtime < DAY:  # a stamp from the future (a copied cache) is due
            return 0
    removed = prune(root, now=now)
    with contextlib.suppress(OSError):  # no .cache at all: nothing was pruned, nothing to note
        stamp.touch()
        os.utime(stamp, (now, now))
    return removed
