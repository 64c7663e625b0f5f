"""``make serve``'s rebuilds: only the pages whose output would change are built again.

``make serve`` runs ``mkdocs serve --dirty``. A dirty build, as MkDocs documents it, builds
the pages whose source file is newer than their output and skips the others; a lesson's
page also changes when its fixture, a partial it includes or a lesson it reads changes.
So before each rebuild, every page whose output would now differ from the one being served
(``Book.kept`` finds no page made from the current sources, or a different one) has its
output file removed: MkDocs then builds it, since a page with no output is modified too.

What each served page was made from lives in this module for the server's life: the
project's modules stay imported while it runs (``macros.site.serve`` restarts the server
when one of them changes).
"""

from macros.site import compat

# served: src_uri -> digest of the page served now; earlier: the search index before this
# build; pages: (src_uri, address) of every page in site order (the index's order);
# rebuilt: the src_uris this build renders
_state = {"command": None, "dirty": False, "served": {}, "earlier": None, "pages": [], "rebuilt": set()}


def start(command, dirty):
    """MkDocs' documented on_startup: rebuilds of ``mkdocs serve --dirty`` are partial."""
    _state.update(command=command, dirty=command == "serve" and dirty, served={}, earlier=None, pages=[], rebuilt=set())


def before_build(site_dir):
    """A partial rebuild indexes only the pages it builds: keep the index it replaces."""
    if partial():
        _state["earlier"], _state["rebuilt"] = compat.read(site_dir), set()


def carried_index():
    """(the index before this build, [(page address, rebuilt this time)] in site order), or
    (None, ()) for a full build."""
    if not partial() or _state["earlier"] is None:
        return None, ()
    return _state["earlier"], [(url, src_uri in _state["rebuilt"]) for src_uri, url in _state["pages"]]


def partial():
    return _state["dirty"]


def whole_build():
    """Whether this is ``mkdocs build``: one process, no server threads, every page made."""
    return _state["command"] == "build"


def serving():
    """The server runs (``on_serve``): every build from now on is a rebuild beside its threads,
    even under ``mkdocs serve --clean``, which announces itself as a build."""
    _state["command"] = "serve"


def mark_stale(files, book):
    """Remove the output of every page that would not come out as it is served now."""
    if not partial() or book is None:
        return
    _state["pages"] = [(file.src_uri, page_url(file)) for file in files.documentation_pages()]
    for file in files.documentation_pages():
        made = book.kept(file.src_uri)
        if made is None or _state["served"].get(file.src_uri) != made.digest:
            compat.rebuild_next_time(file)


def page_url(file):
    """A page's address as MkDocs' Page.url writes it (and the search index with it)."""
    return "" if file.url in (".", "./") else file.url


def built(src_uri, made):
    """Note the page now served (None: a page that failed, built again next time)."""
    if partial():
        _state["served"][src_uri] = None if made is None else made.digest
        _state["rebuilt"].add(src_uri)
