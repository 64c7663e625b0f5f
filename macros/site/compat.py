"""The one module that relies on what MkDocs and Material do without documenting it.

Everything else in macros/ uses documented APIs only: MkDocs' plugin events and ``File``,
mkdocs-macros' ``define_env`` and ``on_pre_page_macros``, Jinja's public classes. Three
things no documented API allows are here, each checked by a test that fails when upstream
behaviour changes:

1. **The search index's form** (Material's ``search/search_index.json``: ``docs``, each with
   ``location``, ``title`` and ``text``), rewritten after the search plugin writes it so
   that a reader searches formulas as text, and so that a partial rebuild leaves it whole
   (tests/test_site.py reads the index; tests/test_serve.py compares the served index with a
   clean build's, byte for byte).
2. **A page whose output file is missing is built by a dirty build** (MkDocs' ``--dirty``
   skips a page whose output is newer than its source): ``macros.site.serving`` removes the
   output of a page whose sources changed outside its own file (tests/test_serve.py checks
   which pages a fixture edit rebuilds).
3. **Search from disk with no other host** (no code here, only what mkdocs.yml relies on):
   Material's offline plugin copies ``search_index.json`` into ``search_index.js`` after
   every other ``on_post_build`` (so the copy has ``readable_index``'s plain math), and adds
   a Web Worker shim from a CDN to ``extra.polyfills`` unless an entry there already names
   ``iframe-worker``; mkdocs.yml lists the copy the build publishes (tests/test_site.py
   checks both, and that no page loads anything from another host).

The search plugin indexes each page's HTML before the math is typeset, so a formula is
still its TeX source between arithmatex's delimiters (``\\(…\\)``, ``\\[…\\]``).
``readable_index`` rewrites the written index with each formula in plain text
(``macros.site.plain_math``, which works them out as the pages are built).

A dirty rebuild (``macros.site.serving``) indexes only the pages it builds; the other pages
keep their entries from the index it replaces, and every page stays in the site's order, so
the index is the one a full build writes.
"""

import contextlib
import json
import os
import re
from pathlib import Path

from macros.site import plain_math

EXCLUDED = re.compile(r"<(?P<tag>[a-z][a-z0-9]*)\b[^>]*\bdata-search-exclude\b")


def searched(page_html):
    """The page without the elements search skips (each to its matching closing tag)."""
    kept, start = [], 0
    for found in EXCLUDED.finditer(page_html):
        if found.start() < start:  # inside an element already skipped
            continue
        kept.append(page_html[start : found.start()])
        start = _closing(page_html, found["tag"], found.end())
    kept.append(page_html[start:])
    return "".join(kept)


def _closing(page_html, tag, position):
    """Where the element opened just before ``position`` ends (its tag name counted for depth)."""
    depth = 1
    for found in re.compile(rf"<(/?){tag}\b").finditer(page_html, position):
        depth += -1 if found[1] else 1
        if depth == 0:
            return page_html.find(">", found.end()) + 1
    return len(page_html)


def index_file(site_dir):
    return Path(site_dir) / "search" / "search_index.json"


def read(site_dir):
    """The index a build wrote, or None."""
    try:
        return json.loads(index_file(site_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def page_of(location):
    return location.split("#", 1)[0]


def readable_index(site_dir, earlier=None, pages=()):
    """Rewrite the index with plain math. After a partial rebuild, ``earlier`` is the index
    it replaced and ``pages`` is [(page address, rebuilt or not)] in site order: a rebuilt
    page gets this build's entries, the others keep their earlier ones."""
    plain_math.learned()
    data = read(site_dir)
    if data is None:
        return
    fresh = data["docs"]
    if earlier is not None:  # only the rebuilt pages' entries are new; the others are already plain
        rebuilt = {url for url, was_rebuilt in pages if was_rebuilt}
        fresh = [doc for doc in fresh if page_of(doc["location"]) in rebuilt]
    for doc in fresh:
        doc["title"], doc["text"] = plain_math.with_plain_math(doc["title"]), plain_math.with_plain_math(doc["text"])
    if earlier is not None:
        data["docs"] = merged(fresh, earlier["docs"], pages)
    index_file(site_dir).write_text(json.dumps(data, separators=(",", ":"), default=str), encoding="utf-8")


def last_runs(docs):
    """page address -> its entries from the last run of consecutive entries for that page.

    The search plugin keeps the entries of pages a partial rebuild skips and adds the
    rebuilt pages' entries after them, so a page's last run is its newest."""
    runs, current = {}, None
    for doc in docs:
        page = page_of(doc["location"])
        if page != current:
            runs[page], current = [], page
        runs[page].append(doc)
    return runs


def merged(fresh, earlier, pages):
    fresh, earlier = last_runs(fresh), last_runs(earlier)
    return [doc for url, rebuilt in pages for doc in (fresh if rebuilt else earlier).get(url, [])]


def rebuild_next_time(file):
    """Remove a page's output, so that MkDocs' dirty build builds the page (point 2 above)."""
    with contextlib.suppress(OSError):
        os.remove(file.abs_dest_path)
