"""The theme's compiled templates kept in ``.cache/theme`` between builds.

Material's templates load through a loader, so Jinja's ``FileSystemBytecodeCache`` serves
them once MkDocs' documented ``on_env`` event hands over the environment. That cache checks
only a hash of each template's source: the folder is named by everything else the compiled
code depends on (Jinja's and the theme's versions, the environment's options and the names
of its filters and tests), so a change of any of them starts an empty folder.
"""

import sys
from importlib import metadata
from pathlib import Path

import jinja2

from macros.pages import environment
from macros.sources import reads

PACKAGES = ("jinja2", "mkdocs", "mkdocs-material")


def fingerprint(env):
    parts = [sys.version, *(f"{name}=={metadata.version(name)}" for name in PACKAGES)]
    return reads.digest("\0".join(parts + environment.options(env)))


def cache_compiled(env, root):
    folder = Path(root) / ".cache" / "theme" / fingerprint(env)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only tree builds, only without keeping
        return
    env.bytecode_cache = jinja2.FileSystemBytecodeCache(str(folder))
