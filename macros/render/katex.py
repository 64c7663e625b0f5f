"""Typeset the math of a built page at build time with the vendored KaTeX.

Pages then need only KaTeX's stylesheet and fonts: math reads with JavaScript off, and a
malformed formula fails the build instead of showing red text to a reader. One Node.js
process serves a whole build, so the cost per page is a pipe round trip, not a start-up.
"""

import html
import json
import re
import subprocess
from pathlib import Path

KATEX = Path("docs/assets/vendor/katex/katex.min.js")
SERVER = Path(__file__).with_name("katex_server.cjs")

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


class KatexRenderer:
    """A long-lived Node.js process holding KaTeX; ``close`` it when the build ends."""

    def __init__(self, project_dir):
        katex = (Path(project_dir) / KATEX).resolve()
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

    def render_all(self, items):
        """[(tex, display)] -> [html], or MathError naming the first formula KaTeX refuses."""
        request = {"items": [{"tex": tex, "display": display} for tex, display in items]}
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            reply = json.loads(self.process.stdout.readline())
        except (OSError, ValueError):
            raise RendererError(f"the KaTeX process stopped (exit code {self.process.poll()})") from None
        if "error" in reply:
            raise MathError(items[reply["index"]][0].strip(), reply["error"])
        return reply["html"]

    def typeset(self, page_html):
        """The page with every arithmatex element replaced by KaTeX's HTML."""
        matches = list(MATH.finditer(page_html))
        if not matches:
            return page_html
        items = [
            (html.unescape(m["inline"] if m["inline"] is not None else m["display"]), m["display"] is not None)
            for m in matches
        ]
        rendered = iter(self.render_all(items))
        return MATH.sub(lambda m: _wrap(m, next(rendered)), page_html)

    def close(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def _wrap(match, rendered):
    kind = "math-display" if match["display"] is not None else "math-inline"
    return f'<{match["tag"]} class="{kind}">{rendered}</{match["tag"]}>'
