"""A new lesson in one command: ``make lesson SLUG=my-topic TITLE="My topic"``.

The starter is the two plain files beside this module, ``fixture.yaml`` and ``lesson.md``:
a small one-head lesson that already meets every rule of the book (the shared partials for
each step, one claim, a graded check on a value the page has not shown before the
question, no typed number, little template logic). ``create`` copies them into
``lessons/<slug>/`` with the title filled in and lists the slug in ``lessons/track.yaml``.

Everything is checked before anything is written: a bad or taken slug, a bad title or an
unknown chapter is refused with one line and leaves the lessons folder as it was. The track
is edited as text, one line added, so its comments and layout stay as the author left them.
"""

import os
import re
import shutil
import tempfile
from pathlib import Path

import yaml

from macros.errors import LessonError, shown_path
from macros.sources.folders import FIXTURE_FILE, LESSON_FILE, LESSONS

STARTER = Path(__file__).parent
SLUG = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
TRACK_FILE = "track.yaml"


class ScaffoldError(LessonError):
    """A lesson that cannot be created as asked; nothing has been written."""


def default_title(slug):
    """'my-topic' -> 'My topic': a title to start from when none is given."""
    return slug.replace("-", " ").capitalize()


def check_slug(slug, root):
    if not slug:
        raise ScaffoldError(
            "lesson name: expected lowercase words joined by hyphens, such as SLUG=my-topic, got nothing"
        )
    if not SLUG.fullmatch(slug):
        raise ScaffoldError(f"lesson name {slug!r}: expected lowercase words joined by hyphens, such as 'my-topic'")
    folder = Path(root) / slug
    if folder.exists():
        raise ScaffoldError(f"{shown_path(folder)} already exists: choose another name, or edit that lesson")


def check_title(title):
    if not title or not title.strip():
        raise ScaffoldError('title: expected the lesson\'s title, such as TITLE="My topic", got nothing')
    if "\n" in title or re.search(r"\{[{%#]", title):
        raise ScaffoldError(f"title {title!r}: expected one line of plain words, with no {{{{, {{% or {{#")


def chapter_lessons(track_text, track_path, chapter):
    """The YAML node of the chosen chapter's list of lessons, and that chapter's title.

    ``chapter`` is a chapter's title, or None for the last chapter.
    """
    try:
        root = yaml.compose(track_text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as problem:
        raise ScaffoldError(f"{shown_path(track_path)}: expected the book's track in YAML: {problem}") from None
    chapters = _value(root, "chapters") if isinstance(root, yaml.MappingNode) else None
    if not isinstance(chapters, yaml.SequenceNode) or not chapters.value:
        raise ScaffoldError(f"{shown_path(track_path)}: expected a list of chapters, each with a title and lessons")
    titles = [_scalar(_value(node, "title")) for node in chapters.value]
    if chapter is None:
        index = len(titles) - 1
    elif chapter in titles:
        index = titles.index(chapter)
    else:
        known = ", ".join(repr(t) for t in titles)
        raise ScaffoldError(f"{shown_path(track_path)}: no chapter titled {chapter!r}; the chapters are {known}")
    lessons = _value(chapters.value[index], "lessons")
    if not isinstance(lessons, yaml.SequenceNode) or not lessons.value:
        raise ScaffoldError(f"{shown_path(track_path)}: chapters[{index}].lessons: expected a list of lesson names")
    return lessons, titles[index]


def listed_anywhere(track_text):
    """Every lesson name the track lists, in any chapter: a name is listed once in the book."""
    chapters = _value(yaml.compose(track_text, Loader=yaml.SafeLoader), "chapters")
    for node in chapters.value:
        lessons = _value(node, "lessons")
        if isinstance(lessons, yaml.SequenceNode):
            yield from (_scalar(name) for name in lessons.value)


def _value(mapping, key):
    if not isinstance(mapping, yaml.MappingNode):
        return None
    return next((value for name, value in mapping.value if _scalar(name) == key), None)


def _scalar(node):
    return node.value if isinstance(node, yaml.ScalarNode) else None


def track_with(track_text, track_path, slug, chapter=None):
    """The track's text with ``slug`` added as the last lesson of the chapter: one line
    (or one list entry) inserted, every comment and blank line kept."""
    lessons, title = chapter_lessons(track_text, track_path, chapter)
    listed = [_scalar(node) for node in lessons.value]
    if slug in listed_anywhere(track_text):
        raise ScaffoldError(f"{shown_path(track_path)} already lists {slug!r}: choose another name")
    if lessons.flow_style:  # lessons: [a, b]  ->  lessons: [a, b, slug]
        end = lessons.value[-1].end_mark.index
        text = track_text[:end] + f", {slug}" + track_text[end:]
    else:  # one "- name" line after the last one, with the same indentation
        last = lessons.value[-1]
        lines = track_text.splitlines(keepends=True)
        line = lines[last.start_mark.line]
        prefix = line[: last.start_mark.column]  # "      - "
        if not line.endswith("\n"):
            lines[last.start_mark.line] = line + "\n"
        lines.insert(last.start_mark.line + 1, prefix + slug + "\n")
        text = "".join(lines)
    # The edit must read back as intended: the chapter's lessons, with the slug last.
    after = yaml.safe_load(text)
    chapters = after["chapters"] if isinstance(after, dict) else []
    found = next((c["lessons"] for c in chapters if isinstance(c, dict) and c.get("title") == title), None)
    if found != [*listed, slug]:
        raise ScaffoldError(f"{shown_path(track_path)}: could not add {slug!r} to chapter {title!r}; add it by hand")
    return text, title


def starter(title):
    """The starter's two files, the title written into the front matter and the heading."""
    fixture = (STARTER / FIXTURE_FILE).read_text(encoding="utf-8")
    lesson = (STARTER / LESSON_FILE).read_text(encoding="utf-8")
    quoted = yaml.safe_dump(title, allow_unicode=True, width=1 << 16).split("\n")[0]
    lesson = re.sub(r"^title: .*$", lambda _: f"title: {quoted}", lesson, count=1, flags=re.M)
    lesson = re.sub(r"^# .*$", lambda _: f"# {title}", lesson, count=1, flags=re.M)
    return {FIXTURE_FILE: fixture, LESSON_FILE: lesson}


def create(slug, title=None, chapter=None, root=LESSONS):
    """Create ``root/<slug>/`` from the starter and list it in the track; returns
    (the folder, the chapter's title). Raises ScaffoldError, having written nothing."""
    root = Path(root)
    title = default_title(slug or "") if title is None else title
    check_slug(slug, root)
    check_title(title)
    track_path = root / TRACK_FILE
    try:
        track_text = track_path.read_text(encoding="utf-8")
    except OSError as problem:
        raise ScaffoldError(f"{shown_path(track_path)}: expected the book's track, got {problem.strerror}") from None
    new_track, chapter_title = track_with(track_text, track_path, slug, chapter)
    files = starter(title)

    # Every check has passed. The folder is assembled under a temporary name and renamed
    # into place, then the track replaced whole, so a failure leaves no half lesson.
    folder = root / slug
    staging = Path(tempfile.mkdtemp(prefix=f".{slug}-", dir=root))
    try:
        for name, text in files.items():
            (staging / name).write_text(text, encoding="utf-8")
        os.rename(staging, folder)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    try:
        temporary = track_path.with_name(f".{TRACK_FILE}.new")
        temporary.write_text(new_track, encoding="utf-8")
        os.replace(temporary, track_path)
    except OSError:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder, chapter_title
