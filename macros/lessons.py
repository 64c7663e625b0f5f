"""Find the lessons (folders of lessons/ holding fixture.yaml and lesson.md) and compute them.

A lesson is loaded once per build: its fixture is validated, the engine runs, and the
result is kept with the lesson's front matter, which the page and the golden record share.
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from macros import engine, fixture
from macros.errors import FixtureError

LESSONS = Path("lessons")
FRONT_MATTER_FIELDS = {"title", "decimals", "chapter", "kind", "minutes", "requires", "optional", "summary"}


@dataclass(frozen=True)
class Lesson:
    slug: str
    folder: Path
    meta: dict
    fixture: fixture.Fixture
    trace: engine.Trace

    @property
    def template(self):
        return self.folder / "lesson.md"

    @property
    def decimals(self):
        return self.meta.get("decimals", 3)


def folders(root=LESSONS):
    """Every lesson folder, in name order: a folder with a lesson.md in it."""
    return sorted(path.parent for path in Path(root).glob("*/lesson.md"))


def front_matter(template):
    """The YAML between the leading '---' lines of a lesson template, checked for typos."""
    text = Path(template).read_text(encoding="utf-8")
    if not text.startswith("---"):
        return {}
    end = text.find("\n---", 3)
    meta = yaml.safe_load(text[3:end]) or {} if end > 0 else {}
    if not isinstance(meta, dict):
        raise FixtureError(template, "front matter", "a mapping of fields", type(meta).__name__)
    for key in meta:
        if key not in FRONT_MATTER_FIELDS:
            raise FixtureError(
                template, f"front matter: {key}", "one of " + ", ".join(sorted(FRONT_MATTER_FIELDS)), "an unknown field"
            )
    decimals = meta.get("decimals", 3)
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 8:
        raise FixtureError(template, "front matter: decimals", "a whole number from 0 to 8", repr(decimals))
    return meta


def overflowed(trace):
    """The first published field that is not finite, e.g. 'heads[0].scores', or None.

    Checked fixtures hold finite numbers, but their products can still overflow float64
    (1e200 · 1e200). The plain exponentials may overflow by design and are not checked.
    """
    for i, head in enumerate(trace.heads):
        for name in ("Q", "K", "V", "scores", "scaled", "weights", "output"):
            if not np.all(np.isfinite(getattr(head, name))):
                return f"heads[{i}].{name}"
    for name in ("concat", "output"):
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
    return Lesson(folder.name, folder, front_matter(folder / "lesson.md"), data, compute(data))


def load_all(root=LESSONS):
    return {lesson.slug: lesson for lesson in map(load, folders(root))}
