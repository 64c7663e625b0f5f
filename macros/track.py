"""The book's order: chapters of lessons from lessons/track.yaml, checked against the folders.

The navigation, the home page's track map, each lesson's facts line and its
prerequisite links all come from here, so they cannot disagree with each other.
"""

from dataclasses import dataclass
from pathlib import Path

import yaml

from macros import lessons
from macros.errors import FixtureError

KINDS = ("worked example", "derivation")


@dataclass(frozen=True)
class Entry:
    slug: str
    chapter: int  # 1-based
    number: int  # 1-based position in the whole track
    meta: dict

    @property
    def title(self):
        return self.meta["title"]

    @property
    def src(self):
        return f"lessons/{self.slug}/lesson.md"


def check_meta(template, meta):
    """The front matter fields the track relies on, with their types."""

    def fail(field, expected, found):
        raise FixtureError(template, f"front matter: {field}", expected, repr(found))

    if not isinstance(meta.get("title"), str):
        fail("title", "the lesson's title", meta.get("title"))
    if meta.get("kind") not in KINDS:
        fail("kind", " or ".join(KINDS), meta.get("kind"))
    minutes = meta.get("minutes")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 1:
        fail("minutes", "a whole number of minutes", minutes)
    if not isinstance(meta.get("summary"), str):
        fail("summary", "one sentence", meta.get("summary"))
    if not isinstance(meta.get("optional", False), bool):
        fail("optional", "true or false", meta.get("optional"))
    requires = meta.get("requires", [])
    if not isinstance(requires, list) or not all(isinstance(slug, str) for slug in requires):
        fail("requires", "a list of lesson folder names", requires)


def load(root=lessons.LESSONS):
    """Entries in track order; every lesson folder listed once, prerequisites listed earlier."""
    root = Path(root)
    path = root / "track.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    chapters = data.get("chapters") if isinstance(data, dict) else None
    if not isinstance(chapters, list) or not chapters:
        raise FixtureError(path, "chapters", "a list of chapters, each with a title and lessons", repr(chapters))
    folders = {folder.name for folder in lessons.folders(root)}
    entries = {}
    for c, chapter in enumerate(chapters, 1):
        if not isinstance(chapter, dict) or set(chapter) != {"title", "lessons"}:
            raise FixtureError(path, f"chapters[{c - 1}]", "a mapping with title and lessons", repr(chapter))
        for slug in chapter["lessons"]:
            where = f"chapters[{c - 1}].lessons: {slug}"
            if slug not in folders:
                raise FixtureError(path, where, "a folder of lessons/ with a lesson.md", "no such lesson")
            if slug in entries:
                raise FixtureError(path, where, "each lesson once", "a second listing")
            template = root / slug / "lesson.md"
            meta = lessons.front_matter(template)
            check_meta(template, meta)
            for needed in meta.get("requires", []):
                if needed not in entries:
                    raise FixtureError(
                        template, "front matter: requires", "lessons listed earlier in the track", needed
                    )
            entries[slug] = Entry(slug, c, len(entries) + 1, meta)
    missing = sorted(folders - set(entries))
    if missing:
        raise FixtureError(path, "chapters", "every lesson folder listed", "not listed: " + ", ".join(missing))
    return [chapter["title"] for chapter in chapters], list(entries.values())


def nav(root=lessons.LESSONS):
    """The chapters as MkDocs nav entries."""
    titles, entries = load(root)
    return [{title: [e.src for e in entries if e.chapter == c]} for c, title in enumerate(titles, 1)]
