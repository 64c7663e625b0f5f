"""Find the lessons (folders of lessons/ holding fixture.yaml and lesson.md) and compute them.

A lesson is loaded once per build: its fixture is validated, the engine runs, and the
result is kept with the lesson's front matter, which the page and the golden record share.
"""

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from macros import engine, fixture, fixture_json, yamlfile
from macros.engine import variants
from macros.engine.trace import HEAD_FIELDS, LAYER_FIELDS, guarded, to_dict
from macros.errors import FixtureError
from macros.fixture import describe

LESSONS = Path(__file__).resolve().parent.parent / "lessons"
LESSON_FILE = "lesson.md"
FRONT_MATTER_FIELDS = {"title", "decimals", "kind", "minutes", "requires", "optional", "summary"}
KINDS = ("worked example", "derivation")


@dataclass(frozen=True)
class Lesson:
    slug: str
    folder: Path
    meta: dict
    fixture: fixture.Fixture
    trace: engine.Trace

    @property
    def template(self):
        return self.folder / LESSON_FILE

    @property
    def decimals(self):
        return self.meta.get("decimals", 3)

    @functools.cached_property
    def plain_fixture(self):
        """The fixture's JSON form, for the page's data block and its lab editors alike."""
        return fixture_json.to_plain(self.fixture)

    @functools.cached_property
    def published(self):
        """The trace as the browser sees it, plus the head average a lab may bind to."""
        return to_dict(self.trace) | {"average": variants.head_average(self.trace)}


def folders(root=LESSONS):
    """Every lesson folder, in name order: a folder with a lesson.md in it."""
    return sorted(path.parent for path in Path(root).glob(f"*/{LESSON_FILE}"))


def src_uri(slug):
    """Where a lesson's page source sits among the site's files (and how pages link to it)."""
    return f"lessons/{slug}/{LESSON_FILE}"


def front_matter(template):
    """The YAML between the leading '---' lines of a lesson template, every field checked.

    The track, the facts line and the page all read these fields, so they are checked
    once, here: a typo in a field name is an error, never a silent default.
    """
    text = yamlfile.read_text(template)
    if not text.startswith("---"):
        raise FixtureError(template, "front matter", "a block between '---' lines at the top", "none")
    end = text.find("\n---", 3)
    if end < 0:
        raise FixtureError(template, "front matter", "a closing '---' line", "none")
    meta = yamlfile.parse(text[3:end], template, first_line=1) or {}
    if not isinstance(meta, dict):
        raise FixtureError(template, "front matter", "a mapping of fields", describe(meta))
    check_front_matter(template, meta)
    return meta


def check_front_matter(template, meta):
    def fail(field, expected):
        raise FixtureError(template, f"front matter: {field}", expected, describe(meta.get(field)))

    for key in meta:
        if key not in FRONT_MATTER_FIELDS:
            expected = "one of " + ", ".join(sorted(FRONT_MATTER_FIELDS))
            raise FixtureError(template, f"front matter: {key}", expected, "an unknown field")
    if not isinstance(meta.get("title"), str):
        fail("title", "the lesson's title")
    if not _whole(meta.get("decimals", 3), 0, 8):
        fail("decimals", "a whole number from 0 to 8")
    if meta.get("kind") not in KINDS:
        fail("kind", " or ".join(KINDS))
    if not _whole(meta.get("minutes"), 1, 600):
        fail("minutes", "a whole number of minutes")
    if not isinstance(meta.get("summary"), str):
        fail("summary", "one sentence")
    if not isinstance(meta.get("optional", False), bool):
        fail("optional", "true or false")
    requires = meta.get("requires", [])
    if not isinstance(requires, list) or not all(isinstance(slug, str) for slug in requires):
        fail("requires", "a list of lesson folder names")


def _whole(value, low, high):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def overflowed(trace):
    """The first published field that is not finite, e.g. 'heads[0].scores', or None.

    Checked fixtures hold finite numbers, but their products can still overflow float64
    (1e200 · 1e200). The plain exponentials may overflow by design and are not checked.
    """
    for i, head in enumerate(trace.heads):
        for name in guarded(HEAD_FIELDS):
            if not np.all(np.isfinite(getattr(head, name))):
                return f"heads[{i}].{name}"
    for name in guarded(LAYER_FIELDS):
        if not np.all(np.isfinite(getattr(trace, name))):
            return name
    return None


def compute(data):
    """The fixture's trace, or a FixtureError if its numbers are too large for float64."""
    with np.errstate(over="ignore", invalid="ignore"):
        trace = engine.run(data)
    field = overflowed(trace)
    if field:
        raise FixtureError(
            data.path, "", "numbers small enough for attention to stay finite", f"an overflow in {field}"
        )
    return trace


def load(folder):
    """One lesson, computed: raises a LessonError naming the file and field at fault."""
    folder = Path(folder)
    data = fixture.load(folder / "fixture.yaml")
    return Lesson(folder.name, folder, front_matter(folder / LESSON_FILE), data, compute(data))


def load_all(root=LESSONS):
    return {lesson.slug: lesson for lesson in map(load, folders(root))}
