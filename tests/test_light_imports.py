"""What a build loads before it knows whether anything must be computed.

Every build and every ``make serve`` start imports the site's modules and reads the track
and the front matter for the nav. None of that needs numpy, the engine or nbformat (about
0.2 s to import, and 15 MB); they load only when a lesson is computed or a notebook made,
so a warm build, which publishes every page and notebook from the cache, never loads them.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "nbformat", "macros.engine", "macros.notebooks.build")

PROBE = f"""
import sys
import macros.site.hooks, macros.site.plugin, macros.pages.book, macros.notebooks
from macros.sources import track
track.load(sys.argv[1])
{{extra}}
print(sorted(m for m in {HEAVY!r} if m in sys.modules))
"""


@pytest.mark.parametrize(
    ("extra", "loaded"),
    [
        ("", "[]"),
        ("import macros.sources.fixture", "['macros.engine', 'numpy']"),  # the control: the probe can see them
    ],
)
def test_reading_the_sources_loads_neither_the_engine_nor_nbformat(extra, loaded):
    probe = subprocess.run(
        [sys.executable, "-c", PROBE.format(extra=extra), str(ROOT / "lessons")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == loaded
