"""The bench runs: `make bench`'s scripts at a tiny size, so that a change that breaks them
fails here instead of at the next measurement (bench/README.md).

bench/build_time.py builds a book of the real lessons the synthetic ones link to, plus two
synthetic lessons (``--linked-only --sizes 9``), once each way (cold, warm, static), then times
one round of edits under `make serve`. The builds and edits without one cache are left out:
they take the caches' folders away from outside, which no change of the code can break. So is
the page weight: it builds the whole book and loads every lesson in Chromium, pages the browser
tests load already. bench/practice_time.py and bench/notebooks.py run once on one lesson,
bench/arithmetic_time.py once over the book. No figure is asserted, only that each script ran
to its report.
"""

import os
import re
import subprocess
import sys

import pytest

from tests.sitebuild import PROJECT

pytestmark = [pytest.mark.build, pytest.mark.serve]

TINY = ["--sizes", "9", "--repeat", "1", "--linked-only", "--at", "9", "--edits", "1", "--no-savings", "--no-weight"]


def bench(tmp_path, script, *args):
    """A bench script as `make bench` runs it, its temporary projects under ``tmp_path``."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    env.pop("PYTHONPATH", None)
    command = [sys.executable, str(PROJECT / "bench" / script), *args]
    result = subprocess.run(command, cwd=PROJECT, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{script} {' '.join(args)}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_the_build_bench_runs_at_a_tiny_size(tmp_path):
    report = bench(tmp_path, "build_time.py", *TINY)
    assert re.search(r"^ +9 +[\d.]+ \(", report, re.M), report  # the table's row, 9 lessons
    for line in ("Build targets not measured", "fixture, every cache", "template, every cache", "Preview: "):
        assert line in report, report


@pytest.mark.slow
def test_the_other_bench_scripts_run(tmp_path):
    assert "sets drawn, computed and checked" in bench(tmp_path, "practice_time.py", "--repeat", "1")
    assert "execute notebooks" in bench(tmp_path, "notebooks.py", "--repeat", "1", "--lesson", "attention-by-hand")
    assert "the practice check" in bench(tmp_path, "arithmetic_time.py", "--repeat", "1")


def test_a_build_that_fails_stops_the_bench(tmp_path):
    """The negative control: a build the bench checks fails (here a folder with no mkdocs.yml),
    and the bench stops with a message instead of timing it, so the test above can fail."""
    sys.path.insert(0, str(PROJECT / "bench"))
    import build_time

    with pytest.raises(SystemExit, match="is not clean"):
        build_time.check_build(tmp_path, tmp_path / "site")
