"""Browser tabs kept for the whole test run and lent to one test at a time.

A test that opened a new browser context paid for a new tab: Chromium starts a renderer and
parses the theme's stylesheets and scripts again. Loading the 23 lessons, each in a new
context, took 38 core-seconds; loading them one after another in one tab took 16. So each
kind of tab (its context options: a viewport, a colour scheme, scripts off) is made once and
lent out again.

A borrowed tab still has no past. When a test gives it back, the tab leaves its page for
about:blank, the pointer goes back to the top-left corner where a new tab has it, and
whatever the origins the tab visited stored is cleared: local and session storage,
cookies, IndexedDB (Chromium's DevTools command ``Storage.clearDataForOrigin``, for every
kind of storage). The book keeps a reader's state in local storage, the theme its palette
choice. So the next test meets a new reader; tests/test_browser.py checks that a tab lent
again remembers nothing. Its timeouts go back to Playwright's default, 30 s, for actions
and navigations alike: a test that wants others sets both.

The HTTP cache is kept: clearing it made each page load cost a tenth of a core-second more.
It cannot give a test another server's file: each built folder is served by one server for
the whole run (the ``served_site`` fixture, and the widget bench's ``server``), so a URL
names one file all run long.

A tab that cannot be cleared is closed, and a new one is made for the next test. That
happens when its page crashed, or when it was still navigating as its test ended (going to
about:blank is then interrupted). The test that had it reports the error at teardown.
"""

import contextlib
from urllib.parse import urlsplit

# Playwright's own default, given back to a tab whose test set others.
TIMEOUT_MS = 30000


class Tab:
    """One browser context with one page, and the origins its page has visited."""

    def __init__(self, browser, options):
        self.context = browser.new_context(**options)
        self.page = self.context.new_page()
        self.devtools = self.context.new_cdp_session(self.page)
        self.visited = set()
        self.page.on("framenavigated", self._note_origin)

    def _note_origin(self, frame):
        parts = urlsplit(frame.url)
        if parts.scheme in ("http", "https"):
            self.visited.add(f"{parts.scheme}://{parts.netloc}")
        elif parts.scheme == "file":
            self.visited.add("file://")

    def forget(self):
        """Leave the page and clear what a reader could have left behind."""
        self.page.goto("about:blank")
        self.page.mouse.move(0, 0)
        for origin in sorted(self.visited):
            self.devtools.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        self.visited.clear()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.page.set_default_navigation_timeout(TIMEOUT_MS)

    def close(self):
        self.context.close()


class Tabs:
    """The run's tabs, one idle tab kept per kind."""

    def __init__(self, browser):
        self.browser = browser
        self.idle = {}  # repr of the sorted context options: a Tab no test holds

    @contextlib.contextmanager
    def lend(self, **options):
        """A page in a browser context made with ``options``, for the length of the block."""
        kind = repr(sorted(options.items()))
        tab = self.idle.pop(kind, None) or Tab(self.browser, options)
        try:
            yield tab.page
            tab.forget()
        except BaseException:
            tab.close()
            raise
        self.idle[kind] = tab

    def close(self):
        for tab in self.idle.values():
            tab.close()
        self.idle.clear()
