"""An engine step is declared once and guarded everywhere (macros/engine/trace.py).

Every published field of a head or a layer is shown or checked in four places besides the
page: the browser twin, the lesson's notebook, the shared explanations and the practice
questions. For each field and place, either the place handles the field (found by looking at
what that place really produces or names) or the field's declaration says why not
(``published(..., browser="no lab recomputes it")``). A new field with neither fails here,
listing each place still to handle it; an opt-out that is not true fails too.
"""

import re
from functools import cache
from pathlib import Path

import pytest

from macros.engine.trace import HEAD_FIELDS, LAYER_FIELDS, PLACES, Field
from macros.notebooks import checks
from macros.practice import quantities
from tests import computed
from tests.nodejs import run_node

PARTIALS = Path(__file__).resolve().parent.parent / "macros" / "explain" / "steps.md.j2"
FIELDS = [("head", f) for f in HEAD_FIELDS] + [("layer", f) for f in LAYER_FIELDS]


@cache
def twin_fields():
    """(head fields, layer fields) the browser twin's trace holds, over every lesson's numbers."""
    lessons = [computed.lesson(slug) for slug in computed.SLUGS]
    traces = run_node("run_trace.mjs", [lesson.plain_fixture for lesson in lessons])
    heads = {name for twin in traces for head in twin["trace"]["heads"] for name in head}
    return heads, {name for twin in traces for name in twin["trace"]} - {"heads"}


def asks_for(level, name):
    """Whether a practice question can ask for an entry of the field, in a reader's words."""
    names = quantities.Names(queries=("a", "b"), keys=("a", "b"), n_heads=2)
    inside = {"backward": "backward.d_X.0.0", "block": "block.output.0.0"}  # records: one of their entries
    try:
        quantities.quantity(f"heads.0.{name}.0.0" if level == "head" else inside.get(name, f"{name}.0.0"), names)
    except KeyError:
        return False
    return True


def handles(place, level, field: Field):
    """Whether ``place`` shows or checks the field, found from what the place produces."""
    if place == "browser":
        return field.name in twin_fields()[0 if level == "head" else 1]
    if place == "notebook":
        return field.name in (checks.HEAD_CHECKED if level == "head" else checks.LAYER_CHECKED | checks.RECORDS_CHECKED)
    if place == "partials":
        owner = "head" if level == "head" else "trace"
        return re.search(rf"\b{owner}\.{field.name}\b", PARTIALS.read_text(encoding="utf-8")) is not None
    if place == "practice":
        return asks_for(level, field.name)
    raise AssertionError(place)


@pytest.mark.parametrize(("level", "field"), FIELDS, ids=[f"{level}.{f.name}" for level, f in FIELDS])
def test_every_place_handles_the_field_or_says_why_not(level, field):
    still = [place for place in PLACES if field.handled_by(place) and not handles(place, level, field)]
    assert still == [], (
        f"{level} field {field.name!r} is not yet handled by: {', '.join(still)} "
        f"({'; '.join(PLACES[p] for p in still)}). Handle it there, or declare why not in "
        f'macros/engine/trace.py: published(..., {still[0]}="why it does not need {field.name}")'
    )


@pytest.mark.parametrize(("level", "field"), FIELDS, ids=[f"{level}.{f.name}" for level, f in FIELDS])
def test_an_opt_out_is_true(level, field):
    untrue = [place for place in PLACES if not field.handled_by(place) and handles(place, level, field)]
    assert untrue == [], f"{field.name} is declared unhandled by {untrue}, but it is handled there"


def test_the_guard_sees_a_new_field():
    """The control: a field no place knows is reported for every place."""
    new = Field("tiles_new", "matrix")
    assert [place for place in PLACES if new.handled_by(place) and not handles(place, "head", new)] == list(PLACES)
