"""How long an author waits in ``make serve`` between saving an edit and seeing its numbers,
and what each cache saves that wait.

The server ``make serve`` runs (``python -m macros.site.serve``, which runs ``mkdocs serve
--dirty``) is started over a project made by bench/build_time.py (real lessons plus
synthetic ones). Once it serves, each round makes these edits to one synthetic lesson in
the middle of the track, the order turning from round to round:

- a fixture edit, once with every cache in place and once without each cache in turn
  (``STATES``): new numbers in X (bench/synthetic.py draws them; a draw is first rendered in
  this process, in a scratch copy of lessons/, so that only one whose claims hold is
  written), and the page is polled until a weight that the new numbers give, and the page
  did not show, appears on it. Without a cache, its folder is moved aside just before the
  edit and put back once the new page is served (the rebuild's own entries are dropped),
  so every edit starts from the same caches;
- a template edit, with every cache: a line printing a computed number (a weight plus the
  edit's count, with seven decimals) is appended, and the page is polled until it appears.

Each wait runs from just before the file is written to the first response holding the new
number, polled every 20 ms. It includes MkDocs' watcher noticing the edit (it polls the
watched folders every 0.5 s, then waits for 0.1 s without another change), the rebuild
(the served page is held back while a build runs), and the request. Beside it, the CPU
time the server process (``mkdocs serve``, with the KaTeX process it waited for) used in
that time, which other work on a shared machine disturbs far less than the wait.

Usage: .venv/bin/python bench/serve_time.py PROJECT [--rounds 3] [--no-savings]
"""

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import synthetic  # noqa: E402

from macros import lessons  # noqa: E402  (read only: the numbers an edit should bring)
from macros.render.numbers import format_values  # noqa: E402
from macros.sources import folders as lesson_folders  # noqa: E402

TARGET_SECONDS = 1.0  # DESIGN.md: a fixture edit on the page within 1 s at 100 lessons
SAVING_TARGET = 0.10
ENV = {"STRICT": "false", "NO_MKDOCS_2_WARNING": "1"}
ALL = "all caches"
STATES = (ALL, "pages", "katex")  # the fixture edit with every cache, then without each
TEMPLATE = "template edit"
POLL_SECONDS = 0.02


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
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
        time.sleep(POLL_SECONDS)
    raise SystemExit(f"{text!r} never appeared on {url}")


def shown_weights(folder):
    """Every attention weight as the page prints it (the non-negative ones: a sign's form varies)."""
    lesson = lessons.load(folder)
    texts = set()
    for head in lesson.trace.heads:
        texts.update(t for t in format_values(head.weights, lesson.decimals, minus="-") if not t.startswith("-"))
    return texts


class Server:
    """``make serve``'s command over a project, on a free port, its log in PROJECT/serve.log."""

    def __init__(self, project):
        self.port = free_port()
        command = [sys.executable, "-m", "macros.site.serve", "-a", f"127.0.0.1:{self.port}"]
        self.log = open(project / "serve.log", "w")  # noqa: SIM115  (closed in stop)
        env = {**os.environ, **ENV}
        self.process = subprocess.Popen(command, cwd=project, env=env, stdout=self.log, stderr=self.log)

    def cpu(self):
        """CPU seconds used so far by ``mkdocs serve`` (the supervisor's child) and the children
        it waited for (each rebuild's KaTeX process)."""
        server = psutil.Process(self.process.pid).children()[0]
        times = server.cpu_times()
        return times.user + times.system + times.children_user + times.children_system

    def url(self, page):
        return f"http://127.0.0.1:{self.port}/{page}"

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


class Aside:
    """One cache folder taken away for an edit and put back after it."""

    def __init__(self, project, cache):
        self.folder = project / ".cache" / cache
        self.kept = project / ".bench-aside" / cache

    def __enter__(self):
        shutil.rmtree(self.kept, ignore_errors=True)
        self.kept.parent.mkdir(exist_ok=True)
        if self.folder.exists():
            self.folder.rename(self.kept)

    def __exit__(self, *exc):
        shutil.rmtree(self.folder, ignore_errors=True)  # what the rebuild kept without it
        if self.kept.exists():
            self.kept.rename(self.folder)


class Edits:
    def __init__(self, project, server, target, seed):
        self.project, self.server, self.target = project, server, target
        self.url = server.url(f"lessons/{target.name}/")
        self.trial = synthetic.Trial(project / "lessons")
        self.rng = np.random.default_rng(seed)
        self.base = synthetic.base_fixture()
        self.count = 0

    def fixture(self):
        """Write new numbers into the target's fixture; (seconds until the page shows them,
        the server's CPU seconds meanwhile)."""
        page_now = fetch(self.url)
        for _ in range(200):
            data = synthetic.fixture_text(synthetic.draw_fixture(self.rng, self.base)).encode("utf-8")
            markdown = self.trial.markdown(self.target.name, data)
            if markdown is None:
                continue  # a claim of the lesson is false with these numbers
            fresh = sorted(
                t for t in shown_weights(self.trial.folder / "lessons" / self.target.name) if t not in page_now
            )
            if fresh:
                break
        else:
            raise SystemExit(f"no new numbers for {self.target} keep its claims true")
        return self.timed(lambda: (self.target / "fixture.yaml").write_bytes(data), fresh[0])

    def timed(self, edit, expected):
        cpu, start = self.server.cpu(), time.monotonic()
        edit()
        seconds = wait_for(self.url, expected, self.server.process) - start
        return seconds, self.server.cpu() - cpu

    def template(self):
        """Append a line printing a computed number; (seconds until the page shows it, CPU)."""
        self.count += 1
        k = self.count
        weight = lessons.load(self.target).trace.heads[0].weights[0][0]
        expected = f"{weight + k:.7f}"
        line = f'\n\nEdit {k}: {{{{ "%.7f" | format(trace.heads[0].weights[0][0] + {k}) }}}}\n'
        template = self.target / "lesson.md"
        text = template.read_text(encoding="utf-8") + line
        return self.timed(lambda: template.write_text(text, encoding="utf-8"), expected)


def measure(project, rounds=3, savings=True, seed=0):
    """{kind: [(seconds, server CPU seconds)]}: fixture edits per state (ALL, then without
    each cache), and template edits."""
    project = Path(project)
    folders = synthetic.synthetic_folders(project / "lessons")
    if not folders:
        raise SystemExit(f"{project}: no synthetic lesson to edit")
    target = folders[len(folders) // 2]
    states = STATES if savings else (ALL,)
    kinds = [*states, TEMPLATE]
    waits = {kind: [] for kind in kinds}
    fixture, template = target / "fixture.yaml", target / "lesson.md"
    original_fixture, original_template = fixture.read_bytes(), template.read_bytes()
    server = Server(project)
    edits = Edits(project, server, target, seed)
    try:
        title = next(line for line in template.read_text().splitlines() if line.startswith("title:"))
        wait_for(edits.url, title.split(":", 1)[1].strip().split(" (")[0], server.process)
        time.sleep(1.0)  # let the first build's watcher settle
        for r in range(rounds):
            shift = r % len(kinds)
            for kind in kinds[shift:] + kinds[:shift]:
                if kind == TEMPLATE:
                    waits[kind].append(edits.template())
                elif kind == ALL:
                    waits[kind].append(edits.fixture())
                else:
                    with Aside(project, kind):
                        waits[kind].append(edits.fixture())
                time.sleep(0.6)  # the watcher's next poll sees nothing new
    finally:
        server.stop()
        edits.trial.close()
        fixture.write_bytes(original_fixture)
        template.write_bytes(original_template)
    return waits


def spread(values):
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def saving(with_it, without_it, index):
    """1 - with/without, the median over rounds (edits are paired by round)."""
    return 1 - statistics.median(a[index] / b[index] for a, b in zip(with_it, without_it, strict=True))


def report(waits, size):
    if not waits[ALL]:
        return "Serve: no edit measured"
    lines = [
        f"Serve, {size} lessons: seconds from saving an edit to its new number on the served page",
        "(median (min-max) of interleaved edits; server CPU s, median; saving = 1 - with/without,",
        "median over rounds, wait / CPU):",
        f"  {'edit':40s} {'wait s':>18}  {'CPU s':>5}  {'n':>2}  saving wait / CPU",
    ]
    for kind, runs in waits.items():
        if not runs:
            continue
        labels = {ALL: "fixture, every cache", TEMPLATE: "template, every cache"}
        label = labels.get(kind, f"fixture, {kind} moved aside")
        wait, cpu = spread([r[0] for r in runs]), statistics.median(r[1] for r in runs)
        cells = f"  {label:40s} {wait:>18}  {cpu:5.2f}  {len(runs):>2}"
        if kind not in (ALL, TEMPLATE):
            wall, cpu = saving(waits[ALL], runs, 0), saving(waits[ALL], runs, 1)
            cells += f"  {wall:>5.0%} / {cpu:<5.0%}" + ("" if wall >= SAVING_TARGET else "  under 10%")
        lines.append(cells)
    median = statistics.median(r[0] for r in waits[ALL])
    holds = "HOLDS" if median <= TARGET_SECONDS else "DOES NOT HOLD"
    lines.append(f"Preview: {holds} (fixture edit median {median:.2f} s, target {TARGET_SECONDS} s)")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", help="a project made by bench/build_time.py --keep (its computed/ folder)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of edits (default 3)")
    parser.add_argument("--no-savings", action="store_true", help="fixture edits with every cache only")
    args = parser.parse_args(argv)
    project = Path(args.project)
    waits = measure(project, args.rounds, savings=not args.no_savings)
    print(report(waits, len(lesson_folders.folders(project / "lessons"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
