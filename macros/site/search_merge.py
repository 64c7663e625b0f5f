"""The search index kept whole when ``make serve`` renders only some pages.

The search plugin indexes the pages a build renders. After a full build the session keeps
each page's entries; after a partial one the index is rewritten with the fresh entries of
the rendered pages and the kept entries of the others, in the site's page order, in the
search plugin's own JSON form: the same bytes a full build would write.
"""

import json
from pathlib import Path


def page_url(location):
    return location.split("#", 1)[0]


def complete(path, session):
    path = Path(path)
    if not path.exists():
        return
    data = json.loads(path.read_text(encoding="utf-8"))
    fresh = {}
    for entry in data["docs"]:
        fresh.setdefault(page_url(entry["location"]), []).append(entry)
    rendered = list(session.rendered_urls)
    if session.pages is None:  # a full build: its index is whole; keep it for the next edits
        session.order, session.search = rendered, {url: fresh.get(url, []) for url in rendered}
        return
    for url in rendered:
        session.search[url] = fresh.get(url, [])
    data["docs"] = [entry for url in session.order for entry in session.search.get(url, [])]
    path.write_text(json.dumps(data, separators=(",", ":"), default=str), encoding="utf-8")
