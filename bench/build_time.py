"""How much the computed lessons add to a build: the same pages with and without the engine.

For each size N a throwaway project is made in a temporary directory with N lessons
derived from lessons/two-heads-separate-projections (the real one plus N - 1 copies whose
X is drawn at random, so every lesson computes its own numbers). It is built two ways:

- computed: the site's own pipeline, mkdocs-macros running the engine and the templates;
- static:   the Markdown that pipeline produced, written into docs/ as plain pages, built
            with the macros plugin removed from the configuration.

Everything else (theme, Markdown extensions, the KaTeX hook, nav) is the same, so the
difference between the two is what the computation costs. Each build is its own process,
timed from start to exit, and its peak memory is read from the kernel's accounting.

Usage: .venv/bin/python bench/build_time.py [--sizes 10,100,300] [--repeat 3]
"""

import argparse
import os
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
TARGET_SIZE = 100
TARGET_OVERHEAD = 30.0  # percent
BUILD_ENV = {"STRICT": "true", "NO_MKDOCS_2_WARNING": "1"}

sys.path.insert(0, str(ROOT))
from macros import lessons  # noqa: E402  (read only: checks that a drawn fixture makes a valid lesson)

# Written into the capture project only: after mkdocs-macros has rendered a page (priority
# below the plugin's), the page's Markdown and front matter are saved for the static build.
CAPTURE_HOOK = textwrap.dedent(
    '''\
    """Save every page's Markdown after mkdocs-macros has rendered it."""

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
    '''
)


# ---------------------------------------------------------------- the lessons


def draw_fixture(rng, base):
    """The source fixture with a new X of the same shape: small integers keep it hand-sized."""
    data = dict(base)
    rows, cols = np.shape(base["X"])
    data["X"] = rng.integers(-2, 3, size=(rows, cols)).tolist()
    return data


def heads_disagree(folder):
    """The lesson claims its two heads weigh the last position differently; keep draws where they do."""
    first, second = lessons.load(folder).trace.heads[:2]
    return not np.array_equal(first.weights[-1], second.weights[-1])


def write_lessons(lessons_dir, count, seed):
    """``count`` lesson folders: the real lesson, then seeded variants of its fixture."""
    template = (SOURCE_LESSON / "lesson.md").read_text(encoding="utf-8")
    base = yaml.safe_load((SOURCE_LESSON / "fixture.yaml").read_text(encoding="utf-8"))
    rng = np.random.default_rng(seed)
    shutil.copytree(SOURCE_LESSON, lessons_dir / SOURCE_SLUG)
    slugs = [SOURCE_SLUG]
    for index in range(2, count + 1):
        folder = lessons_dir / f"{SOURCE_SLUG}-{index:03d}"
        folder.mkdir()
        (folder / "lesson.md").write_text(template, encoding="utf-8")
        while True:
            fixture = draw_fixture(rng, base)
            (folder / "fixture.yaml").write_text(yaml.safe_dump(fixture, default_flow_style=None), encoding="utf-8")
            if heads_disagree(folder):
                break
        slugs.append(folder.name)
    return slugs


# ---------------------------------------------------------------- the projects


def copy_project(dest):
    """mkdocs.yml (as the parent of a generated config), docs/ and macros/, plus lessons/."""
    dest.mkdir(parents=True)
    shutil.copy2(ROOT / "mkdocs.yml", dest / "mkdocs.base.yml")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "docs", dest / "docs", ignore=ignore)
    shutil.copytree(ROOT / "macros", dest / "macros", ignore=ignore)
    (dest / "lessons").mkdir()  # mkdocs.yml watches it, so it must exist even when empty


def without_lessons(nav):
    """The real nav minus its lesson entries, which name lessons the temp project lacks."""
    kept = []
    for item in nav:
        if isinstance(item, str):
            if not item.startswith("lessons/"):
                kept.append(item)
            continue
        (title, target), *_ = item.items()
        if isinstance(target, list):
            target = without_lessons(target)
            if target:
                kept.append({title: target})
        elif not target.startswith("lessons/"):
            kept.append({title: target})
    return kept


def write_config(project, slugs, *, macros=True, extra_hooks=()):
    """mkdocs.yml inheriting the real one: only nav, and for the static build the plugins, change.

    INHERIT merges mappings and replaces lists, so the lists we override are written whole.
    """
    with open(project / "mkdocs.base.yml", "rb") as file:
        base = yaml_load(file)
    lesson_pages = [f"lessons/{slug}/lesson.md" for slug in slugs]
    config = {
        "INHERIT": "mkdocs.base.yml",
        "nav": [*without_lessons(base.get("nav", [])), {"Lessons": lesson_pages}],
        # Other docs pages may link to lessons that only the real project has.
        "validation": {"links": {"not_found": "info"}},
    }
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
    write_config(project_dir, slugs)
    return project_dir, slugs


def static_project(path, computed_dir, slugs):
    """Render the computed project once, capturing each page's Markdown, then lay it out as docs/.

    The pages keep their source paths (lessons/<slug>/lesson.md under docs/), so nav and
    links are the same as in the computed build.
    """
    capture_dir = path / "capture"
    shutil.copytree(computed_dir, capture_dir, ignore=shutil.ignore_patterns("__pycache__"))
    (capture_dir / "bench_capture.py").write_text(CAPTURE_HOOK, encoding="utf-8")
    write_config(capture_dir, slugs, extra_hooks=["bench_capture.py"])
    pages = path / "pages"
    build(capture_dir, path / "site-capture", {"BENCH_CAPTURE_DIR": str(pages)})

    project_dir = path / "static"
    copy_project(project_dir)
    shutil.copytree(pages, project_dir / "docs", dirs_exist_ok=True)
    write_config(project_dir, slugs, macros=False)
    shutil.rmtree(capture_dir)
    return project_dir


# ---------------------------------------------------------------- one build


@dataclass
class Run:
    seconds: float
    peak_mb: float


def build(project_dir, site_dir, extra_env=None):
    """One strict build in its own process: wall time and the peak RSS the kernel recorded.

    os.wait4 returns the rusage of that child alone (and of what it waited for, such as
    the KaTeX Node process), unlike RUSAGE_CHILDREN, which is a maximum over all children.
    """
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site_dir)]
    env = {**os.environ, **BUILD_ENV, **(extra_env or {})}
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=project_dir, env=env, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            errors.seek(0)
            sys.exit(f"build of {project_dir} failed:\n{errors.read().decode(errors='replace')}")
    shutil.rmtree(site_dir, ignore_errors=True)
    return Run(seconds, usage.ru_maxrss / 1024)  # ru_maxrss is in KiB on Linux


# ---------------------------------------------------------------- one size


@dataclass
class Result:
    size: int
    computed: list = field(default_factory=list)
    static: list = field(default_factory=list)

    @staticmethod
    def median(runs):
        return statistics.median(run.seconds for run in runs)

    @staticmethod
    def fastest(runs):
        return min(run.seconds for run in runs)

    @staticmethod
    def peak(runs):
        return max(run.peak_mb for run in runs)

    @property
    def overhead(self):
        """Percent the computed build takes over the static one, by median wall time."""
        return 100 * (self.median(self.computed) / self.median(self.static) - 1)


def measure(size, repeat, seed, workdir):
    """Build both variants ``repeat`` times, alternating which goes first to spread any drift."""
    computed_dir, slugs = computed_project(workdir, size, seed)
    static_dir = static_project(workdir, computed_dir, slugs)
    site = workdir / "site"
    build(static_dir, site)  # untimed warm-up of each: the first build also pays for a cold file cache
    build(computed_dir, site)
    result = Result(size)
    for rep in range(repeat):
        order = [("computed", computed_dir), ("static", static_dir)]
        for name, project_dir in order if rep % 2 == 0 else reversed(order):
            getattr(result, name).append(build(project_dir, site))
    return result


# ---------------------------------------------------------------- report


def table(results):
    header = (
        f"{'N':>5}  {'computed s (med/min)':>21}  {'static s (med/min)':>19}  "
        f"{'overhead':>8}  {'computed MB':>11}  {'static MB':>9}"
    )
    lines = [header, "-" * len(header)]
    for r in results:
        computed = f"{r.median(r.computed):.2f} / {r.fastest(r.computed):.2f}"
        static = f"{r.median(r.static):.2f} / {r.fastest(r.static):.2f}"
        lines.append(
            f"{r.size:>5}  {computed:>21}  {static:>19}  {r.overhead:>7.1f}%  "
            f"{r.peak(r.computed):>11.0f}  {r.peak(r.static):>9.0f}"
        )
    return "\n".join(lines)


def verdict(results):
    target = f"at {TARGET_SIZE} lessons the computation adds at most {TARGET_OVERHEAD:.0f}% to the build"
    at_target = [r for r in results if r.size == TARGET_SIZE]
    if not at_target:
        return f"Target not measured ({TARGET_SIZE} is not among the sizes): {target}."
    overhead = at_target[0].overhead
    holds = "HOLDS" if overhead <= TARGET_OVERHEAD else "DOES NOT HOLD"
    return f"Target {holds}: {target} (measured {overhead:.1f}%)."


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,300", help="comma-separated lesson counts (default 10,100,300)")
    parser.add_argument("--repeat", type=int, default=3, help="timed builds per variant and size (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the lessons' numbers (default 0)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary projects and print where they are")
    args = parser.parse_args(argv)
    args.sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    if not args.sizes or min(args.sizes) < 1 or args.repeat < 1:
        parser.error("sizes and --repeat must be whole numbers of at least 1")
    return args


def main(argv=None):
    args = parse_args(argv)
    results = []
    for size in args.sizes:
        workdir = Path(tempfile.mkdtemp(prefix=f"bench-build-{size}-"))
        print(f"N={size}: building in {workdir} ...", flush=True)
        try:
            results.append(measure(size, args.repeat, args.seed, workdir))
        finally:
            if not args.keep:
                shutil.rmtree(workdir, ignore_errors=True)
    print(f"\nBuild time, {args.repeat} runs per variant; peak MB is the largest RSS of any run.\n")
    print(table(results))
    print()
    print(verdict(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
