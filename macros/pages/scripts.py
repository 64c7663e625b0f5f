"""The scripts every page loads, as files the site publishes: made at build time, never committed.

- ``assets/js/book.js``: the page's script (``docs/assets/js/page.js`` and every module it
  imports, the labs, the practice and the engine's twin among them) bundled by esbuild into
  one classic script, an IIFE. Browsers refuse ES modules from ``file://``; a classic script
  loads from a folder on disk as it does over HTTP, so one file serves both. The modules stay
  the source authors edit (node imports them in tests/js); the bundle is their build output.
  It is strict code, as modules are, and minified: the modules' docstrings are for authors.
  Bundled whole it weighs less (gzip) than the modules every page loaded one by one before.
- ``assets/js/sheets.js``: the worksheets' script (``docs/assets/js/sheets.js`` and what it
  imports), bundled the same way, loaded by the worksheet pages only.
- ``assets/vendor/iframe-worker/shim.js``: Material's search runs in a Web Worker, which a
  page opened from disk may not start; this shim (the iframe-worker package, by Material's
  author, for this purpose) stands in for ``Worker`` on ``file://`` only. Material's offline
  plugin would load it from a CDN; mkdocs.yml lists this copy instead (``macros.site.compat``).
  It is made as the package's README says to use it in an application, by bundling its
  documented module name, ``import "iframe-worker/shim"``: esbuild finds the file by Node's
  resolution from the package's own description, so no path inside the package is relied on.

Both come from ``node_modules/``, which ``npm ci`` installs from package-lock.json (the
Makefile's environment step does). The MkDocs hooks publish them (``macros.site.hooks``);
``python -m macros render DIR`` writes them beside the exported pages.
"""

import subprocess
from pathlib import Path

ENTRY = "docs/assets/js/page.js"
BUNDLE = "assets/js/book.js"
# The worksheets' script (macros/render/worksheets.py): its own small bundle, loaded only there.
SHEETS_ENTRY = "docs/assets/js/sheets.js"
SHEETS_BUNDLE = "assets/js/sheets.js"
SHIM = "assets/vendor/iframe-worker/shim.js"
ESBUILD = Path("node_modules/.bin/esbuild")
SHIM_MODULE = "iframe-worker/shim"  # the shim's module name, as the package documents it

# es2020: browsers from 2020 on parse it (optional chaining and ?? are its newest syntax).
# The banner makes the whole file strict, as the modules were: esbuild's IIFE does not.
OPTIONS = ("--bundle", "--format=iife", "--minify", "--target=es2020", "--legal-comments=none", "--log-level=error")
BANNER = '--banner:js="use strict";'

INSTALL = "run `make` (or `npm ci`) in the project folder to install it"


class ScriptsError(Exception):
    """The page's scripts could not be made: a tool is missing, or a module does not bundle."""


def esbuild(root, arguments, needed_for, stdin=None):
    """(esbuild's output, None) for ``arguments``, run in ``root`` (``stdin``: the entry module's
    text), or (None, what it said) when it failed; a ScriptsError when it is not installed."""
    root = Path(root)
    if not (root / ESBUILD).exists():
        raise ScriptsError(f"{ESBUILD} is missing, and {needed_for}: {INSTALL}")
    try:
        command = [str(root / ESBUILD), *arguments]
        result = subprocess.run(command, cwd=root, input=stdin, capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise ScriptsError(f"{ESBUILD} did not run ({error}): {INSTALL}") from None
    if result.returncode != 0:
        return None, result.stderr.decode("utf-8", "replace").strip()
    return result.stdout, None


def bundle(root, entry=ENTRY):
    """The bytes of book.js (or of another entry's bundle): the script and its modules as one
    strict classic script."""
    made, said = esbuild(root, [entry, *OPTIONS, BANNER], "it bundles the page's script")
    if made is None:
        raise ScriptsError(f"{entry} and its modules did not bundle:\n{said}")
    return made


def worker_shim(root):
    """The bytes of the Web Worker shim search needs on ``file://``: its documented module,
    bundled (an import read from standard input, resolved from ``root``) into one script."""
    entry = f'import "{SHIM_MODULE}";'.encode()
    made, said = esbuild(root, [*OPTIONS, BANNER], "search from a folder on disk needs its worker shim", entry)
    if made is None:
        needed = "search from a folder on disk needs it"
        raise ScriptsError(f"{SHIM_MODULE} did not bundle, and {needed}: {INSTALL}\n{said}")
    return made


def published(root):
    """{site path: bytes} of every script made at build time."""
    return {BUNDLE: bundle(root), SHEETS_BUNDLE: bundle(root, SHEETS_ENTRY), SHIM: worker_shim(root)}
