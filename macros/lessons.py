"""A lesson computed: its fixture validated, the engine run once, kept with its front matter.

Finding the folders, reading the fixture and checking the front matter belong to
``macros.sources``; this module puts them together into the ``Lesson`` the page, the
golden record and the command line share.
"""

import functools
from dataclasses import dataclass
from pathlib import Path

from macros import engine
from macros.compute import compute, generation_of
from macros.engine import variants
from macros.engine.trace import to_dict
from macros.practice import build as practice_build
from macros.sources import fixture, front_matter
from macros.sources.folders import FIXTURE_FILE, LESSON_FILE, LESSONS, folders, src_uri
from macros.sources.forms import Fixture

__all__ = ["LESSONS", "LESSON_FILE", "Lesson", "compute", "folders", "load", "load_all", "src_uri"]


@dataclass(frozen=True)
class Lesson:
    slug: str
    folder: Path
    meta: dict
    fixture: Fixture
    trace: engine.Trace
    practice: practice_build.Practice | None = None  # new numbers for the exercise, checked

    _reader_word = "lesson"  # how an author's misspelt name is reported (macros.lookup)

    @property
    def template(self):
        return self.folder / LESSON_FILE

    @property
    def decimals(self):
        return self.meta.get("decimals", 3)

    @functools.cached_property
    def plain_fixture(self):
        """The fixture's JSON form, for the page's data block and its lab editors alike."""
        return self.fixture.to_plain()

    @functools.cached_property
    def generation(self):
        """The steps of generation (KV cache, groups, online softmax, window, cost), or None."""
        return generation_of(self.fixture, self.trace)

    @functools.cached_property
    def published(self):
        """The trace as the browser sees it, plus the head average a lab may bind to (a stack of
        layers has no heads of its own to average)."""
        if not self.trace.heads:
            return to_dict(self.trace)
        return to_dict(self.trace) | {"average": variants.head_average(self.trace)}


def load(folder, practice=True):
    """One lesson, computed: raises a SourceError naming the file and field at fault.

    Drawing and checking the practice's sets of new numbers is the last step (left out with
    ``practice=False``, for a computation that needs only the lesson's own numbers).
    """
    folder = Path(folder)
    merged = fixture.merged_data(folder / FIXTURE_FILE)
    data = fixture.validate(folder / FIXTURE_FILE, merged)
    meta = front_matter.read(folder / LESSON_FILE)
    trace = compute(data)
    practice_set = None
    if practice:
        places = meta.get("decimals", 3)
        practice_set = practice_build.load(folder / FIXTURE_FILE, merged, data.to_plain(), folder.name, places, data)
    return Lesson(folder.name, folder, meta, data, trace, practice_set)


def load_all(root=LESSONS):
    return {lesson.slug: lesson for lesson in map(load, folders(root))}
