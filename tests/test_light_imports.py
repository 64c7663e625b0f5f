"""What a build loads before it knows whether anything must be computed.

Every build and every ``make serve`` start reads the track and the front matter for the
nav, publishes the notebooks and renders the pages from the cache when nothing changed.
None of that needs numpy, the engine or nbformat (about 0.2 s to import): they load only
when a lesson is computed or a notebook made.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "nbformat", "macros.engine", "macros.notebooks.build")

PROBE = f"""
import sys
import macros.site.hooks, macros.site.notebooks, macros.site.plugin, macros.book, macros.notebooks
from macros.sources import track
track.load(sys.argv[1])
print(sorted(m for m in {HEAVY!r} if m in sys.modules))
"""


def test_reading_the_sources_loads_neither_the_engine_nor_nbformat():
    probe = subprocess.run(
        [sys.executable, "-c", PROBE, str(ROOT / "lessons")], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert probe.stdout.strip() == "[]"
