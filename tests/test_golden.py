"""Each lesson's published values against its reviewed record in tests/golden/.

A change to the engine, the formatter or a fixture that moves a published number fails
here as a diff of formatted numbers. If the change is intended, run ``make golden`` and
review the diff of tests/golden/ like any other change to the book.
"""

from pathlib import Path

import pytest

from macros.tools import golden
from tests.computed import SLUGS, lesson

GOLDEN = Path(__file__).resolve().parent / "golden"


def test_every_lesson_has_a_record_and_every_record_a_lesson():
    recorded = sorted(path.stem for path in GOLDEN.glob("*.json"))
    assert recorded == sorted(SLUGS), "run `make golden` and review tests/golden/"


@pytest.mark.parametrize("slug", SLUGS)
def test_published_values_match_the_record(slug):
    path = GOLDEN / f"{slug}.json"
    expected = path.read_text(encoding="utf-8") if path.exists() else ""
    actual = golden.render(lesson(slug))
    diff = golden.diff(expected, actual, str(path))
    assert not diff, f"published values moved (run `make golden` if intended):\n{diff}"


def test_a_moved_number_is_caught():
    """Negative control: one digit changed in a copy of a record makes the comparison fail."""
    record = golden.render(lesson(SLUGS[0]))
    moved = record.replace('"0.', '"1.', 1)
    assert golden.diff(record, record) == ""
    assert "-" in golden.diff(record, moved) and '"1.' in golden.diff(record, moved)
