"""How much the computed lessons add to a build: the same pages with and without the engine.

For each size N a throwaway project is made in a temporary directory with N lessons: the
book's real lessons (their cross-references resolve), and enough lessons derived from
lessons/two-heads-separate-projections to make up N (the first keeps its fixture, the
others get new numbers in X, drawn at random with the source's equalities kept, so every
lesson computes its own numbers; each lesson's template text is made unique, as real
lessons' are), listed after the real chapters in a generated lessons/track.yaml. It is
built three ways:

- computed, cold: the site's own pipeline, mkdocs-macros running the engine and the
                  templates, with the project's whole .cache/ deleted first;
- computed, warm: the same, with the caches the previous computed build left;
- static:         the Markdown and notebooks that pipeline produced, laid out as plain
                  files (no fixture left), built with the macros plugin removed.

Everything else (theme, Markdown extensions, the hooks with the KaTeX typesetting, the nav
generated from the track) is the same, so the difference is what the computation costs.
Each build is its own process, timed from start to exit, and its peak memory is read from
the kernel's accounting.

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
SOURCE_SLUG = "two-heads-separate-projections"
SOURCE_LESSON = ROOT / "lessons" / SOURCE_SLUG
CHAPTER_SIZE = 10  # lessons per chapter of the generated track
TARGET_SIZE = 100
TARGETS = {"cold": 1.3, "warm": 1.0}  # at most this many times the static build, at TARGET_SIZE
RSS_SIZE, RSS_TARGET_MB = 300, 150
BUILD_ENV = {"STRICT": "true", "NO_MKDOCS_2_WARNING": "1"}
VARIANTS = ("cold", "warm", "static")
COPY_IGNORE = shutil.ignore_patterns("__pycache__", ".cache")

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import page_weight  # noqa: E402
import serve_time  # noqa: E402

from macros import lessons  # noqa: E402  (read only: checks that a drawn fixture makes a valid lesson)

# Written into the capture project only: after mkdocs-macros has rendered a page (priority
# below the plugin's), the page's Markdown and front matter are saved for the static build.
CAPTURE_HOOK = textwrap.dedent(
    """\
    \"\"\"Save every page's Markdown after mkdocs-macros has rendered it.\"\"\"

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
    def on_files(files, config):
        for file in files:
            if file.src_uri.endswith(".ipynb"):
                target = OUT / file.src_uri
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(file.content_bytes)
        return files
    """
)


# ---------------------------------------------------------------- the lessons


def draw_fixture(rng, base):
    """The source fixture with new numbers in X: small integers keep it hand-sized.

    Each distinct number of the source's X is replaced by another drawn one, all different,
    so every equality the source lesson's story rests on survives (its rows 1 and 2 carry
    the same pair twice) while the numbers, and so every computed value, change.
    """
    data = dict(base)
    source = np.asarray(base["X"])
    values = np.unique(source)
    drawn = rng.choice(np.arange(-4, 5), size=len(values), replace=False)
    data["X"] = drawn[np.searchsorted(values, source)].tolist()
    return data


def heads_disagree(folder):
    """The lesson claims its two heads weigh the last position differently; keep draws where they do."""
    first, second = lessons.load(folder).trace.heads[:2]
    return not np.array_equal(first.weights[-1], second.weights[-1])


def synthetic_template(template, number):
    """The source lesson's text as lesson ``number`` of a track that has only copies of it.

    Its prerequisites name real lessons the temporary project lacks, so ``requires`` is
    emptied. A Jinja comment naming the number makes the template text unique: the
    template cache is keyed by that text, and N identical copies would share one entry.
    """
    if not template.startswith("---\n"):
        raise SystemExit(f"{SOURCE_LESSON / 'lesson.md'}: expected front matter between '---' lines")
    end = template.index("\n---\n", 3)
    front, body = template[4:end], template[end + len("\n---\n") :]
    front, found = re.subn(r"(?m)^requires:.*$", "requires: []", front)
    if not found:
        front += "\nrequires: []"
    front = re.sub(r"(?m)^title: *(.*)$", lambda m: f"title: {m.group(1)} ({number:03d})", front, count=1)
    return f"---\n{front}\n---\n{{# synthetic lesson {number:03d} #}}\n{body}"


def write_lessons(lessons_dir, count, seed):
    """Lessons up to ``count`` beside the real ones, and the track listing them all."""
    template = (SOURCE_LESSON / "lesson.md").read_text(encoding="utf-8")
    base = yaml.safe_load((SOURCE_LESSON / "fixture.yaml").read_text(encoding="utf-8"))
    real = yaml.safe_load((lessons_dir / "track.yaml").read_text(encoding="utf-8"))["chapters"]
    rng = np.random.default_rng(seed)
    slugs = []
    for number in range(1, count - sum(len(chapter["lessons"]) for chapter in real) + 1):
        folder = lessons_dir / f"{SOURCE_SLUG}-{number:03d}"
        folder.mkdir()
        (folder / "lesson.md").write_text(synthetic_template(template, number), encoding="utf-8")
        if number == 1:
            shutil.copy2(SOURCE_LESSON / "fixture.yaml", folder / "fixture.yaml")
        else:
            while True:
                fixture = draw_fixture(rng, base)
                text = yaml.safe_dump(fixture, default_flow_style=None)
                (folder / "fixture.yaml").write_text(text, encoding="utf-8")
                if heads_disagree(folder):
                    break
        slugs.append(folder.name)
    write_track(lessons_dir, real, slugs)
    return [slug for chapter in real for slug in chapter["lessons"]] + slugs


def write_track(lessons_dir, real, slugs):
    """lessons/track.yaml: the real chapters, then the synthetic lessons in chapters of CHAPTER_SIZE."""
    chapters = real + [
        {"title": f"Synthetic {i // CHAPTER_SIZE + 1}", "lessons": slugs[i : i + CHAPTER_SIZE]}
        for i in range(0, len(slugs), CHAPTER_SIZE)
    ]
    text = yaml.safe_dump({"chapters": chapters}, sort_keys=False)
    (lessons_dir / "track.yaml").write_text(text, encoding="utf-8")


# ---------------------------------------------------------------- the projects


def copy_project(dest):
    """mkdocs.yml (as the parent of a generated config), docs/, macros/ and the real lessons/."""
    dest.mkdir(parents=True)
    shutil.copy2(ROOT / "mkdocs.yml", dest / "mkdocs.base.yml")
    shutil.copytree(ROOT / "docs", dest / "docs", ignore=COPY_IGNORE)
    shutil.copytree(ROOT / "macros", dest / "macros", ignore=COPY_IGNORE)
    shutil.copytree(ROOT / "lessons", dest / "lessons", ignore=COPY_IGNORE)


def write_config(project, *, macros=True, extra_hooks=()):
    """mkdocs.yml inheriting the real one; only the static build's plugins change.

    The nav is the real one: the hook inserts the chapters of the project's own
    lessons/track.yaml, in both variants. INHERIT merges mappings and replaces lists, so the
    lists we override are written whole.
    """
    with open(project / "mkdocs.base.yml", "rb") as file:
        base = yaml_load(file)
    config = {"INHERIT": "mkdocs.base.yml"}
    if not macros:
        config["plugins"] = [p for p in base["plugins"] if _plugin_name(p) != "macros"]
    if extra_hooks:
        config["hooks"] = [*base.get("hooks", []), *extra_hooks]
    (project / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")


def _plugin_name(entry):
    return entry if isinstance(entry, str) else next(iter(entry))


def computed_project(path, count, seed):
    project_dir = path / "computed"
    copy_project(project_dir)
    slugs = write_lessons(project_dir / "lessons", count, seed)
    write_config(project_dir)
    redraw_false_claims(project_dir, np.random.default_rng(seed + 1))
    return project_dir, slugs


def redraw_false_claims(project_dir, rng, rounds=50):
    """Draw new numbers for synthetic lessons whose prose a drawn X made false.

    A random X can break any claim of the source lesson, and only a render tells which;
    a forgiving build (STRICT=false) renders every page and names each failing lesson, so
    each round redraws them all, until every lesson's claims hold.
    """
    base = yaml.safe_load((SOURCE_LESSON / "fixture.yaml").read_text(encoding="utf-8"))
    failing = re.compile(rf"lessons/({re.escape(SOURCE_SLUG)}-\d+)/lesson\.md")
    for _ in range(rounds):
        _, _, stderr = run_mkdocs(project_dir, project_dir / "site-draw", {"STRICT": "false"}, quiet=False)
        slugs = sorted(set(failing.findall(stderr)))
        if not slugs:
            return
        for slug in slugs:
            fixture = draw_fixture(rng, base)
            text = yaml.safe_dump(fixture, default_flow_style=None)
            (project_dir / "lessons" / slug / "fixture.yaml").write_text(text, encoding="utf-8")
    sys.exit(f"synthetic lessons in {project_dir} still make false claims after {rounds} rounds of draws")


def static_project(path, computed_dir):
    """Render the computed project once, capturing each page's Markdown, and lay it out as plain pages.

    The docs pages go to docs/; the lessons go back to lessons/<slug>/lesson.md beside the
    same track.yaml, so the hooks publish them at the same addresses and insert the same
    chapters into the nav as in the computed build, with nothing left to compute.
    """
    capture_dir = path / "capture"
    shutil.copytree(computed_dir, capture_dir, ignore=COPY_IGNORE)
    (capture_dir / "bench_capture.py").write_text(CAPTURE_HOOK, encoding="utf-8")
    write_config(capture_dir, extra_hooks=["bench_capture.py"])
    pages = path / "pages"
    check_build(capture_dir, path / "site-capture", {"BENCH_CAPTURE_DIR": str(pages)})

    project_dir = path / "static"
    copy_project(project_dir)
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
    write_config(project_dir, macros=False)
    shutil.rmtree(capture_dir)
    return project_dir


def template_cache_entries(project_dir):
    """Compiled pages in Jinja's bytecode cache (macros/book.py), one per rendered page."""
    folder = project_dir / ".cache" / "jinja"
    return sum(1 for _ in folder.glob("*.cache")) if folder.is_dir() else 0


# ---------------------------------------------------------------- one build


@dataclass
class Run:
    seconds: float
    peak_mb: float
    cpu: float  # user + system seconds of the build and what it waited for (Node)


def run_mkdocs(project_dir, site_dir, extra_env=None, quiet=True):
    """One strict build in its own process: wall time, peak RSS, exit code and stderr.

    os.wait4 returns the rusage of that child alone (and of what it waited for, such as
    the KaTeX Node process), unlike RUSAGE_CHILDREN, which is a maximum over all children.
    """
    command = [sys.executable, "-m", "mkdocs", "build", *(["-q"] if quiet else []), "-d", str(site_dir)]
    env = {**os.environ, **BUILD_ENV, **(extra_env or {})}
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=project_dir, env=env, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        errors.seek(0)
        stderr = errors.read().decode(errors="replace")
    shutil.rmtree(site_dir, ignore_errors=True)
    run = Run(seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime)  # ru_maxrss is in KiB on Linux
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


@dataclass
class Result:
    size: int
    cache_entries: int = 0
    runs: dict = field(default_factory=lambda: {name: [] for name in VARIANTS})

    def median(self, name):
        return statistics.median(run.seconds for run in self.runs[name])

    def fastest(self, name):
        return min(run.seconds for run in self.runs[name])

    def peak(self, name):
        return max(run.peak_mb for run in self.runs[name])

    def cpu(self, name):
        return statistics.median(run.cpu for run in self.runs[name])

    def ratio(self, name):
        """Median over rounds of this variant's time / the static build's in the same round.

        The rounds interleave the variants, so a ratio compares builds run close together
        (the machine is shared: its load drifts). Wall time, and CPU time beside it, which
        other processes on the machine disturb far less."""
        wall = [a.seconds / b.seconds for a, b in zip(self.runs[name], self.runs["static"], strict=True)]
        cpu = [a.cpu / b.cpu for a, b in zip(self.runs[name], self.runs["static"], strict=True)]
        return statistics.median(wall), statistics.median(cpu)


def measure(size, repeat, seed, workdir):
    """Build the three variants ``repeat`` times, rotating which goes first to spread any drift."""
    computed_dir, _ = computed_project(workdir, size, seed)
    static_dir = static_project(workdir, computed_dir)
    site = workdir / "site"
    # Untimed warm-up of each project (the first build also pays for a cold file cache), run
    # without -q so that a build with warnings is never timed. It also fills the template cache.
    check_build(static_dir, site)
    check_build(computed_dir, site)
    result = Result(size, template_cache_entries(computed_dir))
    if result.cache_entries < size:
        sys.exit(f"{computed_dir}: {result.cache_entries} compiled templates cached for {size} lessons")
    projects = {"cold": computed_dir, "warm": computed_dir, "static": static_dir}
    for rep in range(repeat):
        shift = rep % len(VARIANTS)
        for name in VARIANTS[shift:] + VARIANTS[:shift]:
            if name == "cold":
                shutil.rmtree(computed_dir / ".cache", ignore_errors=True)
            # warm follows whichever computed build ran last; both leave the full cache behind
            result.runs[name].append(build(projects[name], site))
    return result


# ---------------------------------------------------------------- report


def table(results):
    header = (
        f"{'N':>5}  {'cold s (med/min)':>17}  {'warm s (med/min)':>17}  {'static s (med/min)':>19}  "
        f"{'cold/static':>11}  {'warm/static':>11}  {'CPU s c/w/s':>16}  "
        f"{'cold MB':>7}  {'warm MB':>7}  {'static MB':>9}"
    )
    lines = [header, "-" * len(header)]
    for r in results:
        cells = [f"{r.median(name):.2f} / {r.fastest(name):.2f}" for name in VARIANTS]
        ratios = [f"{r.ratio(name)[0]:.2f}/{r.ratio(name)[1]:.2f}" for name in ("cold", "warm")]
        cpu = "/".join(f"{r.cpu(name):.1f}" for name in VARIANTS)
        lines.append(
            f"{r.size:>5}  {cells[0]:>17}  {cells[1]:>17}  {cells[2]:>19}  {ratios[0]:>11}  {ratios[1]:>11}  "
            f"{cpu:>16}  {r.peak('cold'):>7.0f}  {r.peak('warm'):>7.0f}  {r.peak('static'):>9.0f}"
        )
    return "\n".join(lines)


def verdict(results):
    lines = []
    at_target = [r for r in results if r.size == TARGET_SIZE]
    if not at_target:
        lines.append(f"Build targets not measured ({TARGET_SIZE} is not among the sizes).")
    for name, limit in TARGETS.items():
        if not at_target:
            break
        wall, cpu = at_target[0].ratio(name)
        holds = "HOLDS" if min(wall, cpu) <= limit else "DOES NOT HOLD"
        lines.append(
            f"{name.capitalize()} build at {TARGET_SIZE} lessons, at most {limit:.1f}x static: {holds} "
            f"(median ratio of interleaved runs: wall {wall:.2f}x, CPU {cpu:.2f}x)"
        )
    at_rss = [r for r in results if r.size == RSS_SIZE]
    if at_rss:
        peak = max(at_rss[0].peak(name) for name in VARIANTS)
        holds = "HOLDS" if peak < RSS_TARGET_MB else "DOES NOT HOLD"
        lines.append(f"Peak RSS at {RSS_SIZE} lessons under {RSS_TARGET_MB} MB: {holds} ({peak:.0f} MB)")
    return "\n".join(lines)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,300", help="comma-separated lesson counts (default 10,100,300)")
    parser.add_argument("--repeat", type=int, default=3, help="timed builds per variant and size (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the lessons' numbers (default 0)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary projects and print where they are")
    parser.add_argument("--edits", type=int, default=6, help=f"serve edits timed at {TARGET_SIZE} lessons (0: none)")
    parser.add_argument("--no-weight", action="store_true", help="skip the page weight in Chromium")
    args = parser.parse_args(argv)
    args.sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    if not args.sizes or min(args.sizes) < 1 or args.repeat < 1:
        parser.error("sizes and --repeat must be whole numbers of at least 1")
    return args


def main(argv=None):
    args = parse_args(argv)
    results, extra = [], []
    for size in args.sizes:
        workdir = Path(tempfile.mkdtemp(prefix=f"bench-build-{size}-"))
        print(f"N={size}: building in {workdir} ...", flush=True)
        try:
            results.append(measure(size, args.repeat, args.seed, workdir))
            if size == TARGET_SIZE and args.edits:
                print(f"N={size}: timing edits under make serve ...", flush=True)
                extra.append(serve_time.report(serve_time.measure(workdir / "computed", args.edits), size))
        finally:
            if not args.keep:
                shutil.rmtree(workdir, ignore_errors=True)
    if not args.no_weight:
        print("Page weight: building the real site and loading each lesson in Chromium ...", flush=True)
        with tempfile.TemporaryDirectory(prefix="bench-weight-") as tmp:
            extra.append(page_weight.report(page_weight.measure(page_weight.build_site(Path(tmp) / "site"))))
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"\nBuild time, {args.repeat} runs per variant; peak MB is the largest RSS of any run.")
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
