"""A lesson computed: its fixture validated, the engine run once, kept with its front matter.

Finding the folders, reading the fixture and checking the front matter belong to
``macros.sources``; this module puts them together into the ``Lesson`` the page, the
golden record and the command line share.
"""

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from macros import engine
from macros.engine import generation, variants
from macros.engine.trace import HEAD_FIELDS, LAYER_FIELDS, guarded, present, to_dict
from macros.errors import FixtureError
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
        """The trace as the browser sees it, plus the head average a lab may bind to."""
        return to_dict(self.trace) | {"average": variants.head_average(self.trace)}


def generation_of(data, trace):
    """The generation steps the fixture's keys ask for (kv_heads, window, block_size, params), or None."""
    keys = getattr(data, "generation", None)
    if keys is None or not keys.any:
        return None
    projections = [(head.W_Q, head.W_K, head.W_V) for head in data.heads]
    try:
        return generation.generate(
            data.X, projections, data.causal, data.W_O, trace, keys.kv_heads, keys.window, keys.block_size, keys.params
        )
    except ValueError as error:
        raise FixtureError(data.path, "params", "sizes the tables can be computed from", str(error)) from None


def overflowed(trace, where=""):
    """The first published field that is not finite, e.g. 'heads[0].scores', or None.

    Checked fixtures hold finite numbers, but their products can still overflow float64
    (1e200 · 1e200). The plain exponentials may overflow by design and are not checked;
    each layer of a batch is checked like the trace itself.
    """
    for i, head in enumerate(trace.heads):
        for name in guarded(present(head, HEAD_FIELDS)):
            if not np.all(np.isfinite(getattr(head, name))):
                return f"{where}heads[{i}].{name}"
    for name in guarded(present(trace, LAYER_FIELDS)):
        if not np.all(np.isfinite(getattr(trace, name))):
            return where + name
    for b, layer in enumerate(trace.batch or ()):
        found = overflowed(layer, f"{where}batch[{b}].")
        if found:
            return found
    return None


def compute(data):
    """The fixture's trace, or a FixtureError if its numbers are too large for float64."""
    with np.errstate(over="ignore", invalid="ignore"):
        trace = data.run()
    field = overflowed(trace)
    if field:
        raise FixtureError(
            data.path, "", "numbers small enough for attention to stay finite", f"an overflow in {field}"
        )
    return trace


def load(folder, practice_variants=practice_build.COUNT):
    """One lesson, computed: raises a SourceError naming the file and field at fault.

    Drawing and checking ``practice_variants`` practice variants is the last step.
    """
    folder = Path(folder)
    merged = fixture.merged_data(folder / FIXTURE_FILE)
    data = fixture.validate(folder / FIXTURE_FILE, merged)
    meta = front_matter.read(folder / LESSON_FILE)
    trace = compute(data)
    practice = practice_build.load(folder / FIXTURE_FILE, practice_variants, merged=merged, base=data.to_plain())
    return Lesson(folder.name, folder, meta, data, trace, practice)


def load_all(root=LESSONS):
    return {lesson.slug: lesson for lesson in map(load, folders(root))}
