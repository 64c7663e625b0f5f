"""Typeset the math of a built page at build time with the vendored KaTeX.

Pages then need only KaTeX's stylesheet and fonts: math reads with JavaScript off, and a
malformed formula fails the build instead of showing red text to a reader.

Speed, without changing a byte of output:

- One Node.js process serves a whole build (and a whole ``make serve`` session), started
  when a formula is not in the cache (at once, in a build with nothing cached), so the cost
  per page is a pipe round trip.
- The same formula gives the same HTML every time, so results are kept in
  ``.cache/katex/<key>.json``, keyed by the bytes of the vendored KaTeX and of the Node
  script that calls it (its options), and inside the file by display mode and TeX.
  A warm build starts no Node process at all. Deleting the folder changes only time.
- ``submit`` hands a page's formulas to Node as soon as its Markdown is converted; Node
  typesets them on the other core while Python converts the next pages, and ``typeset``
  collects them when the page is written.
"""

import hashlib
import html
import json
import queue
import re
import subprocess
import threading
from pathlib import Path

from macros.caching import age as cache_age
from macros.caching.whole_files import write_whole

KATEX = Path("docs/assets/vendor/katex/katex.min.js")
SERVER = Path(__file__).with_name("katex_server.cjs")
CACHE = Path(".cache/katex")

# pymdownx.arithmatex in generic mode wraps inline math in \( \) and display math in \[ \].
MATH = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">\s*(?:\\\((?P<inline>.*?)\\\)|\\\[(?P<display>.*?)\\\])\s*</(?P=tag)>',
    re.S,
)


class MathError(Exception):
    def __init__(self, tex, message):
        self.tex, self.message = tex, message
        super().__init__(f"malformed LaTeX: {message} in: {tex}")


class RendererError(Exception):
    """The math renderer itself could not run (no Node.js, or its process stopped)."""


def formulas(page_html):
    """[(tex, display)] of every arithmatex element, in page order."""
    return [_item(m) for m in MATH.finditer(page_html)]


def _item(match):
    display = match["display"] is not None
    return html.unescape(match["display"] if display else match["inline"]), display


def _key(tex, display):
    return ("D" if display else "I") + tex


def cache_key(project_dir):
    """What KaTeX's output depends on besides the formula: its code and the options we call it with."""
    digest = hashlib.sha256()
    for path in ((Path(project_dir) / KATEX).resolve(), SERVER):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


class _Node:
    """The Node.js process, fed by a writer thread and drained by a reader thread, so that
    neither side blocks on a full pipe while the other works."""

    def __init__(self, katex):
        try:
            self.process = subprocess.Popen(
                ["node", str(SERVER), str(katex)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
            )
        except FileNotFoundError:
            raise RendererError("Node.js (the `node` command) is needed to typeset math at build time") from None
        self.requests = queue.Queue()
        self.sent = queue.Queue()  # batches written, in order; replies come back in the same order
        threading.Thread(target=self._write, daemon=True).start()
        threading.Thread(target=self._read, daemon=True).start()

    def _write(self):
        while (batch := self.requests.get()) is not None:
            self.sent.put(batch)
            try:
                self.process.stdin.write(json.dumps({"items": [{"tex": t, "display": d} for t, d in batch.items]}))
                self.process.stdin.write("\n")
                self.process.stdin.flush()
            except (OSError, ValueError):
                break
        try:
            self.process.stdin.close()
        except (OSError, ValueError):
            pass

    def _read(self):
        while True:
            batch = self.sent.get()
            try:
                line = self.process.stdout.readline()
                batch.reply = json.loads(line) if line else None
            except (OSError, ValueError):
                batch.reply = None
            batch.done.set()
            if batch.reply is None:
                self._fail_pending()
                return

    def _fail_pending(self):
        while True:
            try:
                batch = self.sent.get(timeout=0.5)
            except queue.Empty:
                return
            batch.reply = None
            batch.done.set()

    def send(self, items):
        batch = _Batch(items)
        self.requests.put(batch)
        return batch

    def close(self):
        self.requests.put(None)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class _Batch:
    def __init__(self, items):
        self.items, self.reply, self.done = items, None, threading.Event()


class KatexRenderer:
    """Math typesetting for a build or a serve session; ``close`` it when done.

    ``cache=False`` keeps nothing on disk (results are still shared within the session).
    """

    def __init__(self, project_dir, cache=True):
        self.katex = (Path(project_dir) / KATEX).resolve()
        self.key = cache_key(project_dir)
        self.path = Path(project_dir) / CACHE / f"{self.key}.json" if cache else None
        self.results = self._load()
        self.unsaved = 0
        self.pending = {}  # key -> the batch that will bring it
        self.node = None

    def _load(self):
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        cache_age.used(self.path)
        return data if isinstance(data, dict) else {}

    def _node(self):
        if self.node is None:
            self.node = _Node(self.katex)
        return self.node

    def start(self):
        """Node's process started before the first formula is sent; a RendererError without Node."""
        self._node()

    def submit(self, page_html):
        """Start typesetting a page's formulas that are neither cached nor on their way."""
        wanted = {}
        for tex, display in formulas(page_html):
            key = _key(tex, display)
            if key not in self.results and key not in self.pending:
                wanted[key] = (tex, display)
        if wanted:
            batch = self._node().send(list(wanted.values()))
            for key in wanted:
                self.pending[key] = batch

    def render_all(self, items):
        """[(tex, display)] -> [html], or MathError naming the first formula KaTeX refuses."""
        self._collect(items)
        missing = list({_key(t, d): (t, d) for t, d in items if _key(t, d) not in self.results}.values())
        if missing:
            reply = self._wait(self._node().send(missing))
            if "error" in reply:
                raise MathError(missing[reply["index"]][0].strip(), reply["error"])
            self._keep(missing, reply["html"])
        return [self.results[_key(t, d)] for t, d in items]

    def _collect(self, items):
        """Wait for the batches already bringing any of ``items``; keep what they brought."""
        batches = {id(b): b for b in (self.pending.get(_key(t, d)) for t, d in items) if b is not None}
        for batch in batches.values():
            reply = self._wait(batch)
            for tex, display in batch.items:
                self.pending.pop(_key(tex, display), None)
            if "html" in reply:
                self._keep(batch.items, reply["html"])
            # a refused batch: its formulas are sent again alone, so the error names the right one

    def _wait(self, batch):
        batch.done.wait()
        if batch.reply is None:
            code = self.node.process.poll() if self.node else None
            raise RendererError(f"the KaTeX process stopped (exit code {code})")
        return batch.reply

    def _keep(self, items, rendered):
        for (tex, display), out in zip(items, rendered, strict=True):
            self.results[_key(tex, display)] = out
            self.unsaved += 1

    def typeset(self, page_html):
        """The page with every arithmatex element replaced by KaTeX's HTML."""
        matches = list(MATH.finditer(page_html))
        if not matches:
            return page_html
        rendered = iter(self.render_all([_item(m) for m in matches]))
        return MATH.sub(lambda m: _wrap(m, next(rendered)), page_html)

    def save(self):
        """Write the cache if this session added to it (atomically: a reader never sees half).

        A cache that cannot be written (a read-only folder, a file in its place) only costs the
        next build the time it would have saved: the build goes on, as the page cache's does.
        """
        if self.path is None or not self.unsaved:
            return
        try:
            write_whole(self.path, json_entries(self.results))
        except OSError:
            return
        self.unsaved = 0

    def close(self):
        self.pending.clear()
        if self.node is not None:
            self.node.close()
            self.node = None


def json_entries(results):
    """The cache's JSON, as ``json.dumps`` writes it (keys sorted, no spaces, UTF-8), one entry
    at a time: written whole, the HTML of every formula of a 300-lesson book, first as text
    and then as bytes, raised the build's peak memory by a fifth."""
    yield b"{"
    for i, key in enumerate(sorted(results)):
        entry = json.dumps(key, ensure_ascii=False) + ":" + json.dumps(results[key], ensure_ascii=False)
        yield (("," if i else "") + entry).encode("utf-8")
    yield b"}"


def _wrap(match, rendered):
    kind = "math-display" if match["display"] is not None else "math-inline"
    return f'<{match["tag"]} class="{kind}">{rendered}</{match["tag"]}>'
