"""How long an author waits in ``make serve`` between saving an edit and seeing its numbers.

The server ``make serve`` runs (``python -m macros.site.serve``) is started over a
project made by bench/build_time.py (real lessons plus synthetic ones). Once it serves,
edits alternate between:

- a fixture: a synthetic lesson gets another synthetic lesson's fixture (same shape, and
  known to keep the lesson's claims true), and the page is polled until a weight that the
  new fixture gives, and the old one did not, appears on it;
- a template: a line printing a computed number (a weight plus the edit's count, with
  seven decimals) is appended to a synthetic lesson, and the page is polled until it appears.

Each wait runs from just before the file is written to the first response holding the new
number, polled every 20 ms. It includes the watcher noticing the edit (it looks every
0.2 s), the rebuild, and the request.

Usage: .venv/bin/python bench/serve_time.py PROJECT [--edits 6]
"""

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from macros import lessons  # noqa: E402  (read only: the numbers an edit should bring)
from macros.render.numbers import format_values  # noqa: E402

TARGET_SECONDS = 1.5
ENV = {"STRICT": "false", "NO_MKDOCS_2_WARNING": "1"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode("utf-8")
    except OSError:
        return ""


def wait_for(url, text, process, seconds=600):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the server stopped")
        if text in fetch(url):
            return time.monotonic()
        time.sleep(0.02)
    raise SystemExit(f"{text!r} never appeared on {url}")


def shown_weights(folder):
    lesson = lessons.load(folder)
    texts = set()
    for head in lesson.trace.heads:
        texts.update(t for t in format_values(head.weights, lesson.decimals, minus="-") if not t.startswith("-"))
    return texts


def synthetic(project):
    return sorted(p for p in (Path(project) / "lessons").iterdir() if p.name[-4:-3] == "-" and p.name[-3:].isdigit())


def measure(project, edits=6):
    project = Path(project)
    folders = synthetic(project)
    if len(folders) < 3:
        raise SystemExit(f"{project}: needs at least 3 synthetic lessons")
    target = folders[len(folders) // 2]
    page = f"lessons/{target.name}/"
    port = free_port()
    command = [sys.executable, "-m", "macros.site.serve", "-a", f"127.0.0.1:{port}"]
    log = open(project / "serve.log", "w")  # noqa: SIM115  (closed below)
    process = subprocess.Popen(command, cwd=project, env={**os.environ, **ENV}, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}/{page}"
    fixture, template = target / "fixture.yaml", target / "lesson.md"
    original_fixture, original_template = fixture.read_bytes(), template.read_bytes()
    waits = {"fixture": [], "template": []}
    try:
        title = next(line for line in template.read_text().splitlines() if line.startswith("title:"))
        wait_for(url, title.split(":", 1)[1].strip().split(" (")[0], process)
        time.sleep(1.0)  # let the first build's watcher settle
        donors = [f for f in folders if f != target]
        for k in range(edits):
            if k % 2 == 0:
                before = shown_weights(target)
                donor = donors[k % len(donors)]
                new = shown_weights(donor) - before
                page_now = fetch(url)
                fresh = sorted(t for t in new if t not in page_now)
                if not fresh:
                    continue
                start = time.monotonic()
                fixture.write_bytes((donor / "fixture.yaml").read_bytes())
                end = wait_for(url, fresh[0], process)
                waits["fixture"].append(end - start)
            else:
                weight = lessons.load(target).trace.heads[0].weights[0][0]
                expected = f"{weight + k:.7f}"
                line = f'\n\nEdit {k}: {{{{ "%.7f" | format(trace.heads[0].weights[0][0] + {k}) }}}}\n'
                start = time.monotonic()
                template.write_text(template.read_text() + line)
                end = wait_for(url, expected, process)
                waits["template"].append(end - start)
            time.sleep(0.5)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        fixture.write_bytes(original_fixture)
        template.write_bytes(original_template)
    return waits


def report(waits, size):
    every = waits["fixture"] + waits["template"]
    if not every:
        return "Serve: no edit measured"
    lines = [f"Serve, {size} lessons: seconds from saving an edit to its new number on the served page"]
    for kind in ("fixture", "template"):
        if waits[kind]:
            runs = ", ".join(f"{w:.2f}" for w in waits[kind])
            lines.append(f"  {kind:8s} median {statistics.median(waits[kind]):.2f} s  ({runs})")
    median = statistics.median(every)
    holds = "HOLDS" if median <= TARGET_SECONDS else "DOES NOT HOLD"
    lines.append(f"Preview: {holds} (median {median:.2f} s, target {TARGET_SECONDS} s)")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", help="a project made by bench/build_time.py --keep (its computed/ folder)")
    parser.add_argument("--edits", type=int, default=6)
    args = parser.parse_args(argv)
    print(report(measure(args.project, args.edits), len(lessons.folders(Path(args.project) / "lessons"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
