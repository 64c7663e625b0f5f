"""The book's order: chapters of lessons from lessons/track.yaml, checked against the folders.

The navigation, the home page's track map, each lesson's facts line and its
prerequisite links all come from here, so they cannot disagree with each other.
"""

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

from macros.errors import SourceError
from macros.sources import folders as lessons
from macros.sources import front_matter, yamlfile
from macros.sources.found import describe


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
        return lessons.src_uri(self.slug)

    def as_data(self):
        """The entry as plain data: what the pages show of it (its place and front matter)."""
        return dataclasses.asdict(self)


def read_chapters(path):
    """The chapters of track.yaml: a list of {title, lessons}, nothing else."""
    data = yamlfile.read(path)
    if not isinstance(data, dict) or set(data) != {"chapters"}:
        raise SourceError(path, "", "a mapping with one field, chapters", describe(data))
    chapters = data["chapters"]
    if not isinstance(chapters, list) or not chapters:
        raise SourceError(path, "chapters", "a list of chapters, each with a title and lessons", describe(chapters))
    for c, chapter in enumerate(chapters):
        if not isinstance(chapter, dict) or set(chapter) != {"title", "lessons"}:
            raise SourceError(path, f"chapters[{c}]", "a mapping with title and lessons", describe(chapter))
        if not isinstance(chapter["lessons"], list) or not chapter["lessons"]:
            raise SourceError(
                path, f"chapters[{c}].lessons", "a list of lesson folder names", describe(chapter["lessons"])
            )
    return chapters


def load(root=lessons.LESSONS):
    """(chapter titles, entries in track order); every lesson folder listed once,
    prerequisites listed earlier."""
    root = Path(root)
    path = root / "track.yaml"
    chapters = read_chapters(path)
    folders = {folder.name for folder in lessons.folders(root)}
    entries = {}
    for c, chapter in enumerate(chapters, 1):
        for i, slug in enumerate(chapter["lessons"]):
            where = f"chapters[{c - 1}].lessons[{i}]"
            if slug not in folders:
                raise SourceError(path, where, "a folder of lessons/ with a lesson.md", describe(slug))
            if slug in entries:
                raise SourceError(path, where, "each lesson once", f"{slug!r} a second time")
            template = root / slug / lessons.LESSON_FILE
            meta = front_matter.read(template)
            for needed in meta.get("requires", []):
                if needed not in entries:
                    raise SourceError(template, "front matter: requires", "lessons listed earlier in the track", needed)
            entries[slug] = Entry(slug, c, len(entries) + 1, meta)
    missing = sorted(folders - set(entries))
    if missing:
        raise SourceError(path, "chapters", "every lesson folder listed", "not listed: " + ", ".join(missing))
    return [chapter["title"] for chapter in chapters], list(entries.values())


def nav(root=lessons.LESSONS):
    """The chapters as MkDocs nav entries, each lesson under its title, then the chapter on one
    page (``summaries``: ``chapters/<slug>.md``)."""
    titles, entries = load(root)
    return [
        {
            title: [
                *({e.title: e.src} for e in entries if e.chapter == c),
                {f"Chapter {c} on one page": summary_uri(title)},
            ]
        }
        for c, title in enumerate(titles, 1)
    ]


def summary_uri(title):
    """A chapter's summary page (``macros.render.summaries``), named from its title:
    'Masks and position' -> chapters/masks-and-position.md."""
    return "chapters/" + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") + ".md"
