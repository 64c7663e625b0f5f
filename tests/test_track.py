"""The track file and lesson front matter: every mistake is a located message, never a traceback."""

import pytest

from macros.errors import SourceError
from macros.sources import front_matter, track

FRONT = """---
title: A lesson
decimals: 3
kind: worked example
minutes: 10
requires: []
summary: One sentence.
---

# A lesson
"""


def make(tmp_path, slugs=("one", "two"), track_text=None, front=FRONT):
    for slug in slugs:
        (tmp_path / slug).mkdir()
        (tmp_path / slug / "lesson.md").write_text(front, encoding="utf-8")
    text = track_text or "chapters:\n  - title: First\n    lessons: [" + ", ".join(slugs) + "]\n"
    (tmp_path / "track.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def message(tmp_path, **kwargs):
    root = make(tmp_path, **kwargs)
    with pytest.raises(SourceError) as caught:
        track.load(root)
    return str(caught.value).replace(str(tmp_path) + "/", "")


def test_a_good_track(tmp_path):
    titles, entries = track.load(make(tmp_path))
    assert titles == ["First"] and [e.slug for e in entries] == ["one", "two"] and entries[1].number == 2


@pytest.mark.parametrize(
    "track_text, expected",
    [
        ("chapters: [", "track.yaml:1: column 12: expected well-formed YAML, got expected the node content"),
        ("chapter:\n  - title: x\n", "track.yaml: expected a mapping with one field, chapters, got a mapping"),
        (
            "chapters:\n  - title: First\n    lessons:\n",
            "track.yaml: chapters[0].lessons: expected a list of lesson folder names, got nothing",
        ),
        (
            "chapters:\n  - title: First\n    lessons: [one, tw0, two]\n",
            "track.yaml: chapters[0].lessons[1]: expected a folder of lessons/ with a lesson.md, got 'tw0'",
        ),
        (
            "chapters:\n  - title: First\n    lessons: [one]\n",
            "track.yaml: chapters: expected every lesson folder listed, got not listed: two",
        ),
    ],
)
def test_track_mistakes(tmp_path, track_text, expected):
    assert message(tmp_path, track_text=track_text).startswith(expected)


@pytest.mark.parametrize(
    "front, expected",
    [
        (
            FRONT.replace("kind: worked example", "kind: [worked"),
            "one/lesson.md:5: column 8: expected well-formed YAML",
        ),
        (
            FRONT.replace("minutes: 10", "minutes: ten"),
            "one/lesson.md: front matter: minutes: expected a whole number of minutes, got 'ten'",
        ),
        (
            FRONT.replace("kind: worked example", "kind: exercise"),
            "one/lesson.md: front matter: kind: expected worked example or derivation, got 'exercise'",
        ),
        (
            FRONT.replace("minutes: 10", "minutes: 10\nsearch: {boost: 0}"),
            "one/lesson.md: front matter: search: expected boost: a number above 0 and at most 10",
        ),
        (
            FRONT.replace("minutes: 10", "minutes: 10\nsearch: {bost: 2}"),
            "one/lesson.md: front matter: search: expected boost: a number above 0 and at most 10",
        ),
        (
            FRONT.replace("summary:", "sumary:"),
            "one/lesson.md: front matter: sumary: expected one of decimals, formulas, kind, minutes",
        ),
        (FRONT.replace("\n---\n\n#", "\n\n#"), "one/lesson.md: front matter: expected a closing '---' line, got none"),
        (
            "# No front matter\n",
            "one/lesson.md: front matter: expected a block between '---' lines at the top, got none",
        ),
    ],
)
def test_front_matter_mistakes(tmp_path, front, expected):
    assert message(tmp_path, slugs=("one",), front=front).startswith(expected)


def test_a_prerequisite_must_come_earlier(tmp_path):
    root = make(tmp_path)
    (root / "one" / "lesson.md").write_text(FRONT.replace("requires: []", "requires: [two]"), encoding="utf-8")
    with pytest.raises(
        SourceError, match="front matter: requires: expected lessons listed earlier in the track, got two"
    ):
        track.load(root)


def test_text_that_is_not_utf8(tmp_path):
    root = make(tmp_path, slugs=("one",))
    (root / "one" / "lesson.md").write_bytes(FRONT.encode() + b"\xff")
    with pytest.raises(SourceError, match=r"lesson.md: byte \d+: expected text in UTF-8, got byte 0xff"):
        front_matter.read(root / "one" / "lesson.md")
