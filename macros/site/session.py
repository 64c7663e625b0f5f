"""What one ``make serve`` process keeps from one rebuild to the next.

``macros.site.serve`` makes one ``Session`` and hands it to every build on the MkDocs
config object (``config.lessons_session``); the hooks and the macros entry read it from
there. A plain ``mkdocs build`` has no session and builds everything, as it always did.

The session holds plain data only, because the project's modules are imported afresh
when their code changes (macros/site/hooks.py), and its classes with them.
"""

from macros.site import incremental

ATTRIBUTE = "lessons_session"


def of(config):
    """The serve session of this build, or None for a plain build."""
    return getattr(config, ATTRIBUTE, None)


class Session:
    def __init__(self, root):
        self.root = root
        self.snapshot = None  # the sources as the last successful build saw them
        self.pending_snapshot = None
        self.pages = incremental.EVERYTHING  # what the current build renders: a set of src_uris, or None
        self.code_changed = True
        self.readers = incremental.Readers()
        self.lessons = {}  # slug -> (digest of its sources, computed lesson), valid while macros/ is unchanged
        self.search = {}  # page url -> its search entries, from the last render of that page
        self.order = []  # page urls in the site's order, from the last full build
        self.katex = None  # the math renderer, kept alive between rebuilds
        self.katex_module = None
        self.theme_files = {}  # the theme's file list, read once (the theme does not change while serving)
        self.page_facts = {}  # src_uri -> (Markdown, meta, title from the Markdown, toc) of its last render
        self.rendered_urls = []  # pages rendered by the current build, in order

    def prepare(self):
        """Compare the sources with the last build's and decide what this build renders."""
        now = incremental.snapshot(self.root)
        self.code_changed = incremental.code_changed(self.snapshot, now)
        self.pages = incremental.plan(self.snapshot, now, self.readers)
        if self.code_changed:
            self.lessons.clear()
        self.pending_snapshot = now
        self.rendered_urls = []
        return self.pages

    def renders(self, src_uri):
        return self.pages is incremental.EVERYTHING or src_uri in self.pages

    def succeeded(self):
        self.snapshot = self.pending_snapshot

    def failed(self):
        """A failed build leaves the served site unknown: the next one renders everything."""
        self.snapshot = None
