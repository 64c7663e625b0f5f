"""Files written whole or not at all, for caches that builds, workers and servers share.

The bytes go to a temporary file beside the target, which is then renamed over it: a
reader (another build, a worker process, the next rebuild) meets the old file or the new
one, never half of one, and a write stopped halfway leaves no stray file behind.
"""

import contextlib
import os
import tempfile
from pathlib import Path


def write_whole(path, data):
    """Write ``data`` (bytes, or an iterable of bytes written one after another, so that a large
    file need not be in memory twice) to ``path``, creating its folder; an OSError leaves
    ``path`` as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            for chunk in [data] if isinstance(data, bytes | bytearray) else data:
                file.write(chunk)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
