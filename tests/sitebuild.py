"""Build real copies of the site in temporary folders, as the tests' one way to see pages.

Each scenario copies the project's site sources (mkdocs.yml, docs/, lessons/, macros/),
applies its edits, and runs the same command ``make build`` runs. Nothing here imports
MkDocs: a build is a separate process, exactly as an author runs it.
"""

import contextlib
import fcntl
import filecmp
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import yaml

PROJECT = Path(__file__).resolve().parent.parent
SOURCES = ("mkdocs.yml", "requirements-torch.txt", "docs", "lessons", "macros")
# The build's tools installed by `npm ci` (the bundler of the page script, the worker shim):
# a copy links the project's folder rather than copying 10 MB into every test's folder.
TOOLS = "node_modules"


@dataclass
class Build:
    root: Path
    site: Path
    returncode: int
    output: str

    def write(self, path):
        """Record the build in ``path`` (JSON), for ``read`` in another test process."""
        fields = {"root": str(self.root), "site": str(self.site), "returncode": self.returncode, "output": self.output}
        Path(path).write_text(json.dumps(fields), encoding="utf-8")

    @classmethod
    def read(cls, path):
        fields = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls(Path(fields["root"]), Path(fields["site"]), fields["returncode"], fields["output"])

    def page(self, path):
        """The text a reader sees on a page (its file in the site: ``glossary.html``,
        ``lesson_page(slug)``), with the TeX source of its math."""
        return page_text((self.site / path).read_text(encoding="utf-8"))


def lesson_page(slug):
    """Where the site publishes a lesson's page (macros/site/lesson_files.py): a file, so that links to
    it work from a folder on disk as they do over HTTP."""
    return f"lessons/{slug}/index.html"


def copy_project(dest, cache_of=None):
    """The project's site sources copied into ``dest``, its installed build tools linked; with
    ``cache_of`` (a built copy), that copy's ``.cache`` too, so the first build starts warm (the
    caches are keyed by content, so an edit made after the copy is seen as it would be in the
    project itself)."""
    dest = Path(dest)
    for name in SOURCES:
        source = PROJECT / name
        if source.is_dir():
            shutil.copytree(source, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, dest / name)
    if (PROJECT / TOOLS).is_dir():  # without it the build says how to install it
        (dest / TOOLS).symlink_to(PROJECT / TOOLS, target_is_directory=True)
    if cache_of is not None and (Path(cache_of) / ".cache").is_dir():
        shutil.copytree(Path(cache_of) / ".cache", dest / ".cache")
    return dest


def add_lesson(root, folder, chapter):
    """Copy a lesson folder into a copied project's lessons/ and list it in its own chapter.

    The test-only pages (tests/pages/) join a copy this way, never the real book.
    """
    root, folder = Path(root), Path(folder)
    shutil.copytree(folder, root / "lessons" / folder.name, ignore=shutil.ignore_patterns("__pycache__"))
    track = root / "lessons" / "track.yaml"
    data = yaml.safe_load(track.read_text(encoding="utf-8"))
    data["chapters"].append({"title": chapter, "lessons": [folder.name]})
    track.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return root / "lessons" / folder.name


# The build date the sitemap carries, fixed for builds a test compares byte for byte, so that
# they are the same bytes even across midnight. The session's site (kept for publishing) has
# its own date.
SOURCE_DATE_EPOCH = "1700000000"


def environment(strict=True, fixed_date=False):
    env = {**os.environ, "STRICT": "true" if strict else "false", "NO_MKDOCS_2_WARNING": "1"}
    if fixed_date:
        env["SOURCE_DATE_EPOCH"] = SOURCE_DATE_EPOCH
    env.pop("PYTHONPATH", None)
    return env


# Set (to a test's id) while a test without a build, serve or browser marker runs: such a
# test must not build, or ``make test-fast`` would silently get slow.
unmarked_test = None


def build(root, strict=True, site=None, config=None, fixed_date=False):
    if unmarked_test:
        raise AssertionError(
            f"{unmarked_test} builds the site: mark it @pytest.mark.build so that `make test-fast` leaves it out"
        )
    root = Path(root)
    site = Path(site) if site is not None else root / "site"
    command = [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(site)]
    command += ["-f", config] if config else []
    result = subprocess.run(
        command, cwd=root, env=environment(strict, fixed_date), capture_output=True, text=True, timeout=300
    )
    return Build(root, site, result.returncode, result.stdout + result.stderr)


@contextlib.contextmanager
def one_at_a_time(lock):
    """Hold an exclusive lock on the file ``lock`` (made if missing): one process at a time."""
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


# Set to a folder, this keeps the session's build of the real site (the ``site`` fixture in
# tests/conftest.py) there, so that CI publishes the very site its tests read.
TESTED_SITE = "ABH_TESTED_SITE"


def keep(site, target):
    """Copy the built ``site`` to ``target`` once, whole; True when this call wrote it.

    A ``target`` that already exists is left as it is: the first copy is kept (the ``site``
    fixture keeps one per test run). The copy is written beside ``target`` and renamed into
    place, so no reader sees it half done.
    """
    target = Path(target).resolve()
    if target.exists():
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    try:
        shutil.copytree(site, partial)
        try:
            partial.rename(target)
        except OSError:
            if not target.is_dir():
                raise
            return False  # another process put its copy in place first
        return True
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def keep_tested(site, environ=os.environ):
    """``keep`` the session's build in the folder $ABH_TESTED_SITE names; nothing when unset."""
    target = environ.get(TESTED_SITE)
    return keep(site, target) if target else False


def differing(left, right):
    """Paths (relative) whose bytes differ between two built sites, or that one lacks."""
    found = []

    def walk(cmp, prefix=""):
        found.extend(prefix + name for name in cmp.left_only + cmp.right_only + cmp.funny_files)
        _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
        found.extend(prefix + name for name in mismatch + errors)
        for name, sub in cmp.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(left, right))
    return sorted(found)


def first_difference(left, right, paths):
    """The first lines that differ in the first of ``paths``: what a failed identity test shows."""
    import difflib

    if not paths:
        return ""
    name = paths[0]
    sides = [Path(root) / name for root in (left, right)]
    if not all(side.is_file() for side in sides):
        return f"{name}: only on one side"
    lines = [side.read_text(encoding="utf-8", errors="replace").splitlines() for side in sides]
    diff = difflib.unified_diff(*lines, fromfile=f"left/{name}", tofile=f"right/{name}", lineterm="", n=1)
    return "\n".join(line[:300] for line in list(diff)[:40])


def edit(path, old, new):
    """Replace one exact passage in a copied file; fail loudly if the passage is not there."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path}: the passage to replace is not there: {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


class _Reader(HTMLParser):
    """Collects visible text, skipping KaTeX's visual layer (its TeX annotation is kept)."""

    SKIP = {"script", "style"}

    def __init__(self):
        super().__init__()
        self.parts, self.skipping = [], []

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if self.skipping or tag in self.SKIP or "katex-html" in classes or tag == "semantics":
            self.skipping.append(tag)
        if tag == "annotation" and self.skipping:
            self.skipping.append("annotation-keep")

    def handle_endtag(self, tag):
        if self.skipping and self.skipping[-1] == "annotation-keep" and tag == "annotation":
            self.skipping.pop()
        if self.skipping and tag == self.skipping[-1]:
            self.skipping.pop()

    def handle_data(self, data):
        if not self.skipping or self.skipping[-1] == "annotation-keep":
            self.parts.append(data)


def page_text(page_html):
    """Visible text, with each formula as its TeX source, whitespace collapsed."""
    reader = _Reader()
    reader.feed(page_html)
    return " ".join(" ".join(reader.parts).split())


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def served(folder):
    """A built site over HTTP on 127.0.0.1 (module scripts and localStorage need an origin)."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
