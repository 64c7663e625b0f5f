"""How much the computed lessons add to a build, and what each of the build's caches saves.

For each size N a throwaway project is made in a temporary directory with N lessons: the
book's real lessons (their cross-references resolve), and enough lessons derived from
lessons/two-heads-separate-projections to make up N (bench/synthetic.py: the first keeps
its fixture, the others get new numbers in X, drawn at random with the source's equalities
kept, so every lesson computes its own numbers), listed after the real chapters in a
generated lessons/track.yaml. It is built three ways:

- computed, cold: the site's own pipeline, mkdocs-macros running the engine and the
                  templates, with the project's whole .cache/ deleted first;
- computed, warm: the same, with the caches the previous computed build left;
- static:         the Markdown and notebooks that pipeline produced, laid out as plain
                  files (no fixture left), built with the macros plugin removed.

Everything else (theme, Markdown extensions, the hooks with the KaTeX typesetting, the nav
generated from the track) is the same, so the difference is what the computation costs.

At TARGET_SIZE lessons the warm build is also timed with one cache missing at a time
(``WITHOUT``): its folder deleted just before the build (the build fills it again), or,
where the build allows it, replaced by a plain file, so the build can neither read nor keep
entries there. A cache's saving is 1 - warm / without, the median over rounds.

Each build is its own process, timed from start to exit, and its CPU time and peak memory
are read from the kernel's accounting (os.wait4). The variants of a size run in interleaved
rounds, and ratios are medians over rounds of ratios within a round.

Usage: .venv/bin/python bench/build_time.py [--sizes 10,100,300] [--repeat 3]
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml
from mkdocs.utils.yaml import yaml_load

ROOT = Path(__file__).resolve().parent.parent
TARGET_SIZE = 100
WARM_TARGET = 1.05  # the warm build within 5% of the static build, at TARGET_SIZE
RSS_SIZE, RSS_TARGET_MB = 300, 150
SAVING_TARGET = 0.10  # a cache that saves under 10% goes
BUILD_ENV = {"STRICT": "true", "NO_MKDOCS_2_WARNING": "1"}
VARIANTS = ("cold", "warm", "static")


@dataclass(frozen=True)
class Without:
    """The warm build with one cache missing: ``blocked`` puts a file where its folder was
    (nothing read, nothing kept), else the folder is deleted (nothing read; the build keeps
    its entries again, as the first build after a clean does)."""

    cache: str  # the folder under .cache/
    blocked: bool = False

    @property
    def name(self):
        return f"{self.cache} {'blocked' if self.blocked else 'deleted'}"


WITHOUT = (Without("pages"), Without("katex"), Without("katex", blocked=True))

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import page_weight  # noqa: E402
import serve_time  # noqa: E402
import synthetic  # noqa: E402

from tests import sitebuild  # noqa: E402

# Written into the capture project only: after mkdocs-macros has rendered a page (priority
# below the plugin's), the page's Markdown and front matter are saved for the static build;
# the notebooks, once the hooks' on_env has made them (they are made with their pages).
CAPTURE_HOOK = textwrap.dedent(
    """\
    \"\"\"Save every page's Markdown after mkdocs-macros has rendered it, and every notebook.\"\"\"

    import os
    from pathlib import Path

    import yaml
    from mkdocs.plugins import event_priority

    OUT = Path(os.environ["BENCH_CAPTURE_DIR"])


    @event_priority(-100)
    def on_page_markdown(markdown, page, config, files):
        target = OUT / page.file.src_uri
        target.parent.mkdir(parents=True, exist_ok=True)
        front = "---\\n" + yaml.safe_dump(dict(page.meta), sort_keys=False) + "---\\n\\n" if page.meta else ""
        target.write_text(front + markdown, encoding="utf-8")
        return markdown


    @event_priority(-100)
    def on_env(env, config, files):
        for file in files:
            if file.src_uri.endswith(".ipynb"):
                target = OUT / file.src_uri
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(file.content_bytes)
        return env
    """
)


# ---------------------------------------------------------------- the projects


def copy_project(dest):
    """What a build reads, as the tests copy it (tests/sitebuild.py: ``SOURCES``, with the
    project's node_modules/ linked), mkdocs.yml renamed mkdocs.base.yml, the parent of a
    generated config. One list for both: a file a page starts reading is added there, where
    every test build needs it, or those builds fail."""
    dest.mkdir(parents=True)
    sitebuild.copy_project(dest)
    (dest / "mkdocs.yml").rename(dest / "mkdocs.base.yml")


def write_config(project, *, macros=True, extra_hooks=(), partial=False):
    """mkdocs.yml inheriting the real one; only the static build's plugins change.

    The nav is the real one: the hook inserts the chapters of the project's own
    lessons/track.yaml, in both variants. INHERIT merges mappings and replaces lists, so the
    lists we override are written whole. ``partial``: a book of some of the real lessons
    (``--linked-only``), where a link from a page around them (the glossary names the lesson
    that explains each term) may name a lesson left out; MkDocs then says so as information
    instead of a warning that would stop the strict build.
    """
    with open(project / "mkdocs.base.yml", "rb") as file:
        base = yaml_load(file)
    config = {"INHERIT": "mkdocs.base.yml"}
    if not macros:
        config["plugins"] = [p for p in base["plugins"] if _plugin_name(p) != "macros"]
    if extra_hooks:
        config["hooks"] = [*base.get("hooks", []), *extra_hooks]
    if partial:
        config["validation"] = {"links": {"not_found": "info"}}
    (project / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")


def _plugin_name(entry):
    return entry if isinstance(entry, str) else next(iter(entry))


def computed_project(path, count, seed, linked_only=False):
    """The real lessons (with ``linked_only``, those the synthetic lessons' links reach:
    synthetic.linked) and synthetic ones up to ``count``."""
    project_dir = path / "computed"
    copy_project(project_dir)
    if linked_only:
        synthetic.keep_only(project_dir / "lessons", synthetic.linked(project_dir / "lessons"))
    slugs = synthetic.write_lessons(project_dir / "lessons", count, seed)
    write_config(project_dir, partial=linked_only)
    redraw_false_claims(project_dir, np.random.default_rng(seed + 1))
    return project_dir, slugs


def redraw_false_claims(project_dir, rng, rounds=50):
    """Draw new numbers for synthetic lessons whose prose a drawn X made false.

    A random X can break any claim of the source lesson, and only a render tells which;
    a forgiving build (STRICT=false) renders every page and names each failing lesson, so
    each round redraws them all, until every lesson's claims hold.
    """
    base = synthetic.base_fixture()
    failing = re.compile(rf"lessons/({re.escape(synthetic.SOURCE_SLUG)}-\d+)/lesson\.md")
    for _ in range(rounds):
        _, _, stderr = run_mkdocs(project_dir, project_dir / "site-draw", {"STRICT": "false"}, quiet=False)
        slugs = sorted(set(failing.findall(stderr)))
        if not slugs:
            return
        for slug in slugs:
            text = synthetic.fixture_text(synthetic.draw_fixture(rng, base))
            (project_dir / "lessons" / slug / "fixture.yaml").write_text(text, encoding="utf-8")
    sys.exit(f"synthetic lessons in {project_dir} still make false claims after {rounds} rounds of draws")


def static_project(path, computed_dir, partial=False):
    """Render the computed project once, capturing each page's Markdown, and lay it out as plain pages.

    The docs pages go to docs/; the lessons go back to lessons/<slug>/lesson.md beside the
    same track.yaml, so the hooks publish them at the same addresses and insert the same
    chapters into the nav as in the computed build, with nothing left to compute.
    """
    capture_dir = path / "capture"
    # With the computed project's caches, so that only the capture is new work; node_modules/ stays a link.
    shutil.copytree(computed_dir, capture_dir, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    (capture_dir / "bench_capture.py").write_text(CAPTURE_HOOK, encoding="utf-8")
    write_config(capture_dir, extra_hooks=["bench_capture.py"], partial=partial)
    pages = path / "pages"
    check_build(capture_dir, path / "site-capture", {"BENCH_CAPTURE_DIR": str(pages)})

    project_dir = path / "static"
    copy_project(project_dir)
    synthetic.keep_only(project_dir / "lessons", lesson_slugs(computed_dir))  # the real ones the computed built
    for notebook in (pages / "lessons").glob("*/*.ipynb"):  # plain files: docs/lessons/<slug>/<slug>.ipynb
        target = project_dir / "docs" / notebook.relative_to(pages)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(notebook, target)
    shutil.copytree(pages / "lessons", project_dir / "lessons", dirs_exist_ok=True)
    for source in [*project_dir.glob("lessons/*/fixture.yaml"), *project_dir.glob("lessons/*/notebook.py")]:
        source.unlink()  # nothing left to compute: no lesson has numbers to compute from
    shutil.rmtree(pages / "lessons")
    shutil.copytree(pages, project_dir / "docs", dirs_exist_ok=True)
    shutil.copy2(computed_dir / "lessons" / "track.yaml", project_dir / "lessons" / "track.yaml")
    write_config(project_dir, macros=False, partial=partial)
    shutil.rmtree(capture_dir)
    return project_dir


def lesson_slugs(project_dir):
    """Every lesson the project's track lists."""
    return synthetic.track_slugs(project_dir / "lessons")


def page_cache_entries(project_dir):
    """Pages kept in .cache/pages (macros/pages/cache.py): one per page a build rendered."""
    folder = project_dir / ".cache" / "pages"
    return sum(1 for _ in folder.glob("*.json")) if folder.is_dir() else 0


# ---------------------------------------------------------------- one build


@dataclass
class Run:
    seconds: float
    peak_mb: float
    cpu: float  # user + system seconds of the build and what it waited for (Node)
    load: float = 0.0  # the machine's 1-minute load average when the build started


def run_mkdocs(project_dir, site_dir, extra_env=None, quiet=True):
    """One strict build in its own process: wall time, peak RSS, exit code and stderr.

    os.wait4 returns the rusage of that child alone (and of what it waited for, such as
    the KaTeX Node process), unlike RUSAGE_CHILDREN, which is a maximum over all children.
    """
    command = [sys.executable, "-m", "mkdocs", "build", *(["-q"] if quiet else []), "-d", str(site_dir)]
    env = {**os.environ, **BUILD_ENV, **(extra_env or {})}
    load = os.getloadavg()[0]
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=project_dir, env=env, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        errors.seek(0)
        stderr = errors.read().decode(errors="replace")
    shutil.rmtree(site_dir, ignore_errors=True)
    run = Run(seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime, load)  # ru_maxrss: KiB on Linux
    return run, os.waitstatus_to_exitcode(status), stderr


def build(project_dir, site_dir, extra_env=None):
    """A timed build: quiet, so logging costs nothing; it must succeed."""
    run, code, stderr = run_mkdocs(project_dir, site_dir, extra_env)
    if code != 0:
        sys.exit(f"build of {project_dir} failed:\n{stderr}")
    return run


def check_build(project_dir, site_dir, extra_env=None):
    """An untimed build without -q that must succeed with no warning or error logged.

    With -q MkDocs drops warnings before its strict-mode counter sees them, so a quiet
    strict build can pass with warnings; this one would fail, and a stray line fails it too.
    """
    _, code, stderr = run_mkdocs(project_dir, site_dir, extra_env, quiet=False)
    bad = [line for line in stderr.splitlines() if re.match(r"\s*(WARNING|ERROR)\b", line)]
    if code != 0 or bad:
        sys.exit(f"check build of {project_dir} (without -q) is not clean:\n" + ("\n".join(bad) or stderr))


# ---------------------------------------------------------------- one size


def without_name(variant):
    return variant.name if isinstance(variant, Without) else variant


@dataclass
class Result:
    size: int
    cache_entries: int = 0
    runs: dict = field(default_factory=dict)  # variant name -> [Run], one per round

    def seconds(self, name):
        return [run.seconds for run in self.runs[name]]

    def median(self, name):
        return statistics.median(self.seconds(name))

    def spread(self, name):
        """'median (min-max)' of the wall times, in seconds."""
        return spread(self.seconds(name))

    def peak(self, name):
        return max(run.peak_mb for run in self.runs[name])

    def cpu(self, name):
        return statistics.median(run.cpu for run in self.runs[name])

    def ratio(self, name, base="static"):
        """Median over rounds of this variant's time / the ``base`` build's in the same round.

        The rounds interleave the variants, so a ratio compares builds run close together
        (the machine is shared: its load drifts). Wall time, and CPU time beside it, which
        other processes on the machine disturb far less."""
        pairs = list(zip(self.runs[name], self.runs[base], strict=True))
        wall = statistics.median(a.seconds / b.seconds for a, b in pairs)
        cpu = statistics.median(a.cpu / b.cpu for a, b in pairs)
        return wall, cpu

    def saving(self, name):
        """What the missing cache saves the warm build: 1 - warm / without, wall and CPU."""
        wall, cpu = self.ratio("warm", base=name)
        return 1 - wall, 1 - cpu


def without_cache(project_dir, variant, aside):
    """Take the cache away for one build; returns how to put it back (None: nothing to)."""
    folder = project_dir / ".cache" / variant.cache
    if not variant.blocked:
        shutil.rmtree(folder, ignore_errors=True)
        return None
    kept = aside / variant.cache
    shutil.rmtree(kept, ignore_errors=True)
    if folder.exists():
        folder.rename(kept)
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_bytes(b"")  # a file where the folder was: nothing can be read or kept there

    def restore():
        folder.unlink()
        if kept.exists():
            kept.rename(folder)

    return restore


def measure(size, repeat, seed, workdir, without=(), reuse=False, linked_only=False):
    """Build the variants ``repeat`` times, rotating which goes first to spread any drift.

    ``reuse``: the projects an earlier run left in ``workdir`` (``--keep``) are timed again."""
    if reuse:
        computed_dir, static_dir = workdir / "computed", workdir / "static"
    else:
        computed_dir, _ = computed_project(workdir, size, seed, linked_only)
        static_dir = static_project(workdir, computed_dir, linked_only)
    site, aside = workdir / "site", workdir / "aside"
    aside.mkdir(exist_ok=True)
    # Untimed warm-up of each project (the first build also pays for a cold file cache), run
    # without -q so that a build with warnings is never timed. It also fills the caches.
    check_build(static_dir, site)
    check_build(computed_dir, site)
    size = len(lesson_slugs(computed_dir))  # the real lessons alone may be more than asked for
    result = Result(size, page_cache_entries(computed_dir))
    if result.cache_entries < size:
        sys.exit(f"{computed_dir}: {result.cache_entries} pages kept in .cache/pages for {size} lessons")
    variants = [*VARIANTS, *without]
    result.runs = {without_name(v): [] for v in variants}
    for rep in range(repeat):
        shift = rep % len(variants)
        for variant in variants[shift:] + variants[:shift]:
            restore = None
            if variant == "cold":
                shutil.rmtree(computed_dir / ".cache", ignore_errors=True)
            elif isinstance(variant, Without):
                restore = without_cache(computed_dir, variant, aside)
            # warm follows whichever computed build ran last; each leaves the full caches behind
            project = static_dir if variant == "static" else computed_dir
            result.runs[without_name(variant)].append(build(project, site))
            if restore:
                restore()
    return result


# ---------------------------------------------------------------- report


def spread(values):
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def table(results):
    header = (
        f"{'N':>5}  {'cold s med (min-max)':>21}  {'warm s med (min-max)':>21}  {'static s med (min-max)':>22}  "
        f"{'cold/static':>11}  {'warm/static':>11}  {'CPU s c/w/s':>16}  "
        f"{'cold MB':>7}  {'warm MB':>7}  {'static MB':>9}"
    )
    lines = [header, "-" * len(header)]
    for r in results:
        ratios = [f"{r.ratio(name)[0]:.2f}/{r.ratio(name)[1]:.2f}" for name in ("cold", "warm")]
        cpu = "/".join(f"{r.cpu(name):.1f}" for name in VARIANTS)
        lines.append(
            f"{r.size:>5}  {r.spread('cold'):>21}  {r.spread('warm'):>21}  {r.spread('static'):>22}  "
            f"{ratios[0]:>11}  {ratios[1]:>11}  {cpu:>16}  "
            f"{r.peak('cold'):>7.0f}  {r.peak('warm'):>7.0f}  {r.peak('static'):>9.0f}"
        )
    return "\n".join(lines)


def savings_table(result, without):
    """Each cache's saving on the warm build: the builds with and without it, and the ratio."""
    runs = len(result.runs["warm"])
    lines = [
        f"Cache savings, warm build at {result.size} lessons ({runs} interleaved rounds; wall s median (min-max);",
        "saving = 1 - warm/without, median over rounds, wall / CPU):",
        f"  {'without':16s}  {'warm s (all caches)':>20}  {'without it s':>20}  {'CPU s w/without':>16}  "
        f"{'saving wall / CPU':>18}  10% rule (wall)",
    ]
    for variant in without:
        name = variant.name
        wall, cpu = result.saving(name)
        lines.append(
            f"  {name:16s}  {result.spread('warm'):>20}  {result.spread(name):>20}  "
            f"{result.cpu('warm'):>7.1f}/{result.cpu(name):<8.1f}  {wall:>8.0%} / {cpu:<7.0%}  "
            + ("saves enough" if wall >= SAVING_TARGET else "under 10%")
        )
    return "\n".join(lines)


def verdict(results):
    lines = []
    at_target = [r for r in results if r.size == TARGET_SIZE]
    if not at_target:
        lines.append(f"Build targets not measured ({TARGET_SIZE} is not among the sizes).")
    else:
        wall, cpu = at_target[0].ratio("warm")
        holds = "HOLDS" if min(wall, cpu) <= WARM_TARGET else "DOES NOT HOLD"
        lines.append(
            f"Warm build at {TARGET_SIZE} lessons, within {WARM_TARGET - 1:.0%} of static: {holds} "
            f"(median ratio of interleaved runs: wall {wall:.2f}x, CPU {cpu:.2f}x)"
        )
        wall, cpu = at_target[0].ratio("cold")
        lines.append(
            f"Cold build at {TARGET_SIZE} lessons: wall {wall:.2f}x, CPU {cpu:.2f}x static "
            "(no fixed budget: as close to static as simple code allows)"
        )
    at_rss = [r for r in results if r.size == RSS_SIZE]
    if at_rss:
        peak = max(at_rss[0].peak(name) for name in VARIANTS)
        holds = "HOLDS" if peak < RSS_TARGET_MB else "DOES NOT HOLD"
        lines.append(f"Peak RSS at {RSS_SIZE} lessons under {RSS_TARGET_MB} MB: {holds} ({peak:.0f} MB)")
    return "\n".join(lines)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20,100,300", help="comma-separated lesson counts (default 20,100,300)")
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds per size (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the lessons' numbers (default 0)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary projects and print where they are")
    parser.add_argument(
        "--reuse", metavar="DIR", help="time again the projects a --keep run left in DIR (its one size)"
    )
    parser.add_argument(
        "--at",
        type=int,
        default=TARGET_SIZE,
        help=f"the size whose warm build is timed without each cache and whose serve edits are timed "
        f"(default {TARGET_SIZE}, where the budgets are set)",
    )
    parser.add_argument("--edits", type=int, default=3, help="rounds of serve edits timed at the --at size (0: none)")
    parser.add_argument(
        "--no-savings", action="store_true", help="skip the builds and edits without one cache at the --at size"
    )
    parser.add_argument(
        "--linked-only",
        action="store_true",
        help="of the real lessons, only those the synthetic lessons' links reach (the tests' tiny run)",
    )
    parser.add_argument("--no-weight", action="store_true", help="skip the page weight in Chromium")
    args = parser.parse_args(argv)
    args.sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    if not args.sizes or min(args.sizes) < 1 or args.repeat < 1:
        parser.error("sizes and --repeat must be whole numbers of at least 1")
    return args


def main(argv=None):
    args = parse_args(argv)
    results, extra = [], []
    if args.reuse:
        args.sizes = [len(lesson_slugs(Path(args.reuse) / "computed"))]
    for size in args.sizes:
        workdir = Path(args.reuse) if args.reuse else Path(tempfile.mkdtemp(prefix=f"bench-build-{size}-"))
        print(f"N={size}: building in {workdir} ...", flush=True)
        without = WITHOUT if size == args.at and not args.no_savings else ()
        try:
            result = measure(size, args.repeat, args.seed, workdir, without, bool(args.reuse), args.linked_only)
            results.append(result)
            if without:
                extra.append(savings_table(result, without))
            if size == args.at and args.edits:
                print(f"N={size}: timing edits under make serve ...", flush=True)
                waits = serve_time.measure(workdir / "computed", args.edits, savings=not args.no_savings)
                extra.append(serve_time.report(waits, result.size))
        finally:
            if not (args.keep or args.reuse):
                shutil.rmtree(workdir, ignore_errors=True)
    if not args.no_weight:
        print("Page weight: building the real site and loading each lesson in Chromium ...", flush=True)
        with tempfile.TemporaryDirectory(prefix="bench-weight-") as tmp:
            extra.append(page_weight.report(page_weight.measure(page_weight.build_site(Path(tmp) / "site"))))
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"\nBuild time, {args.repeat} interleaved rounds; peak MB is the largest RSS of any run.")
    for r in results:
        loads = [run.load for runs in r.runs.values() for run in runs]
        print(f"N={r.size}: 1-minute load average as the timed builds started: {spread(loads)}.")
    print(f"Load average at the end (1, 5, 15 min): {load}.\n")
    print(table(results))
    print()
    print(verdict(results))
    for part in extra:
        print()
        print(part)
    return 0


if __name__ == "__main__":
    sys.exit(main())
