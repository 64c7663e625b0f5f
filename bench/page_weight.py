"""What a reader's browser downloads on a lesson's first load, with the book's real lessons.

The real site is built (``make build``'s command, into a temporary folder) and served
from a local static server. Each lesson page is opened in headless Chromium
(/usr/bin/chromium or what tests/browsers.py finds, launched as tests/conftest.py launches
it) with an empty cache, and every response received before the network goes idle is
counted: the page, stylesheets, scripts, KaTeX's fonts, the search worker and the search
index. Each body is counted gzip-compressed (level 6, as a static host serves it), so
the figure is what goes over the wire. Requests to any other host are counted apart;
the budget is 0 of them.

Usage: .venv/bin/python bench/page_weight.py [--site DIR]
"""

import argparse
import functools
import gzip
import http.server
import os
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BUDGET_KB = 250
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]


@dataclass
class Load:
    page: str
    files: dict = field(default_factory=dict)  # url path -> gzip bytes
    other_hosts: list = field(default_factory=list)

    @property
    def kb(self):
        return sum(self.files.values()) / 1024


def build_site(dest):
    env = {**os.environ, "STRICT": "true", "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "--site-dir", str(dest)]
    subprocess.run(command, cwd=ROOT, env=env, check=True)
    return dest


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(site):
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def lesson_pages(site):
    """Each lesson's page, as its file in the site (lessons/<slug>/index.html)."""
    return sorted(p.relative_to(site).as_posix() for p in (Path(site) / "lessons").glob("*/index.html"))


def first_load(browser, base, page_path):
    """Every response before network idle, each body gzip-compressed."""
    load = Load(page_path)
    context = browser.new_context()
    host = urlsplit(base).netloc

    def on_response(response):
        url = urlsplit(response.url)
        if url.scheme not in ("http", "https"):
            return
        if url.netloc != host:
            load.other_hosts.append(response.url)
            return
        try:
            body = response.body()
        except Exception:  # noqa: BLE001  a redirect or an aborted request has no body
            return
        load.files[url.path] = len(gzip.compress(body, compresslevel=6, mtime=0))

    context.on("response", on_response)
    page = context.new_page()
    page.goto(f"{base}/{page_path}", wait_until="networkidle")
    page.wait_for_timeout(500)  # the search worker fetches its index after the page is idle
    page.wait_for_load_state("networkidle")
    context.close()
    return load


def measure(site):
    from playwright.sync_api import sync_playwright

    from tests import browsers

    found = browsers.find()
    if found.path is None:
        raise SystemExit(browsers.message(found))
    server = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=found.path, args=CHROMIUM_ARGS)
            try:
                return [first_load(browser, base, path) for path in lesson_pages(site)]
            finally:
                browser.close()
    finally:
        server.shutdown()


def report(loads):
    heaviest = max(loads, key=lambda load: load.kb)
    other = sum(len(load.other_hosts) for load in loads)
    lines = [f"First load of each lesson page (gzip, every file before network idle; budget {BUDGET_KB} KB):"]
    for load in sorted(loads, key=lambda load: -load.kb):
        lines.append(f"  {load.kb:7.1f} KB  {len(load.files):3d} files  {load.page}")
    biggest = sorted(heaviest.files.items(), key=lambda item: -item[1])[:6]
    lines.append(f"Heaviest: {heaviest.page}, {heaviest.kb:.1f} KB; its largest files:")
    lines += [f"  {size / 1024:7.1f} KB  {path}" for path, size in biggest]
    holds = "HOLDS" if heaviest.kb < BUDGET_KB and other == 0 else "DOES NOT HOLD"
    lines.append(
        f"Page weight: {holds} (heaviest {heaviest.kb:.1f} KB < {BUDGET_KB} KB; "
        f"{other} request(s) to other hosts, budget 0)"
    )
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", help="a built site to measure (default: build the real one)")
    args = parser.parse_args(argv)
    if args.site:
        print(report(measure(Path(args.site))))
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-weight-") as tmp:
        print(report(measure(build_site(Path(tmp) / "site"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
