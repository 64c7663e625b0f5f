"""An engine step is declared once and guarded everywhere (macros/engine/trace.py).

Two kinds of declaration, each checked against what the places really produce:

- A published **field** of a head or a layer is shown or checked in four places besides the
  page (``PLACES``): the browser twin, the lesson's notebook, the shared explanations and
  the practice questions. Each handles the field (found by looking at what it produces or
  names) or the field's declaration says why not (``published(..., browser="...")``).
- An optional **step** (``STEPS``: the fixture key that turns it on) must be handled in
  every place of ``STEP_PLACES``: the engine computes it, the fixture reader checks its key,
  the twin computes it (or the declaration says why not, and labs refuse it), the notebook
  computes it, a recomputed head keeps it, the shared partials refuse it unless they model
  it, the practice panel says it is there, and the glossary has its symbols. Each step is
  tried on the first lesson whose fixture has its key, or on BASE with the declared example.

A new field or step with a place still to do fails here, naming the file and what to add;
an opt-out that is not true fails too. tests/test_engine_steps_scratch.py adds a scratch
step to a copy of the project and shows this list, then shows it pass once each place is
handled.
"""

import copy
import json
import pickle
import re
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from macros import compute, lessons
from macros.engine.trace import (
    CORE_KEYS,
    HEAD_FIELDS,
    LAYER_FIELDS,
    PLACES,
    STEP_PLACES,
    STEPS,
    Field,
    for_place,
    to_dict,
)
from macros.errors import FixtureError, LessonError
from macros.notebooks import checks
from macros.notebooks.build import notebook_bytes
from macros.practice import quantities
from macros.render import practice
from macros.render.lesson_widgets import not_in_browser
from macros.sources import fixture
from macros.vocabulary import facts, glossary, recomputed
from tests import computed
from tests.nodejs import run_node

ROOT = Path(__file__).resolve().parent.parent
PARTIALS = ROOT / "macros" / "explain" / "steps.md.j2"
FIELDS = [("head", f) for f in HEAD_FIELDS] + [("layer", f) for f in LAYER_FIELDS]
BASE = "two-heads-separate-projections"  # where a step no lesson has yet is tried, with its example
TOL = 1e-9


# ---------------------------------------------------------------- each step, tried on a lesson


def without(plain, step):
    """The fixture's JSON form without the step's key (and the keys that need it). A key that
    is another way to write the heads (the latent: keys and values rebuilt from it) leaves,
    without it, the heads it stands for: each with W_K = W_DKV W_UK and W_V = W_DKV W_UV; an
    embedding, another way to write X, leaves the rows it makes, labelled with their tokens
    (and the vocabulary only where an unembedding still counts in it); a stack of layers leaves
    its first layer alone."""
    rest = {key: value for key, value in plain.items() if key not in (step.key, *step.together)}
    if step is not None and step.key == "latent" and "latent" in plain:
        rest["heads"] = folded_heads(plain)
    if step is not None and step.key == "layers" and "layers" in plain:
        rest |= plain["layers"][0]  # the first layer alone, its output not added to the stream
    if step is not None and step.key == "embedding" and "embedding" in plain:
        rest |= embedded_rows(plain)
        if "unembedding" not in rest:
            rest.pop("vocabulary", None)
    return rest


def embedded_rows(plain):
    """X = E[ids] + P[0:n] and the tokens at the ids, as a fixture without the embedding writes them."""
    found = plain["embedding"]
    E, ids = np.asarray(found["E"]), found["ids"]
    P = np.asarray(found["P"])[: len(ids)] if "P" in found else 0
    return {"X": (E[ids] + P).tolist(), "tokens": [plain["vocabulary"][i] for i in ids]}


def folded_heads(plain):
    W_DKV = np.asarray(plain["latent"]["W_DKV"])
    return [
        {"W_Q": head["W_Q"], "W_K": (W_DKV @ up["W_UK"]).tolist(), "W_V": (W_DKV @ up["W_UV"]).tolist()}
        for head, up in zip(plain["heads"], plain["latent"]["heads"], strict=True)
    ]


def valid(slug, plain):
    """Whether the fixture's JSON form is a valid lesson without the step (ALiBi needs its mask)."""
    try:
        fixture.validate(ROOT / "lessons" / slug / "fixture.yaml", copy.deepcopy(plain))
    except FixtureError:
        return False
    return True


@cache
def sample(step):
    """(where, the fixture's JSON form with the step, without it) for the step, or None when no
    lesson has it and it declares no example."""
    for slug in computed.SLUGS:
        plain = computed.lesson(slug).plain_fixture
        if plain.get(step.key) in (None, False):
            continue
        # Another step may need this one (ALiBi needs the causal mask, padding counts the
        # source's rows): leave such a step out of both, so that each is a valid lesson.
        for other in (None, *(s for s in STEPS if s.key != step.key and s.key in plain)):
            kept = without(plain, other) if other else plain
            if valid(slug, kept) and valid(slug, without(kept, step)):
                return f"lessons/{slug}/fixture.yaml", copy.deepcopy(kept), without(kept, step)
    return on_base(step)


def on_base(step):
    """(where, with, without) for the step's declared example on BASE, or None without one."""
    if step.example is None:
        return None
    base = copy.deepcopy(computed.lesson(BASE).plain_fixture)
    return f"lessons/{BASE}/fixture.yaml with {step.key}: {step.example!r}", {**base, step.key: step.example}, base


def samples(step):
    """Where the step is tried: on a lesson (or BASE with its example), and also on BASE with its
    example where a lesson has the key, so that a part of the step no lesson's fixture uses (a
    sink's logits beside a lesson's kept tokens) is tried in every place as well."""
    found = sample(step)
    extra = on_base(step)
    return [found] + ([extra] if extra and found and extra[0] != found[0] else [])


def lesson_of(where, plain):
    """A Lesson computed from a fixture's JSON form, as the page would compute it."""
    data = fixture.validate(ROOT / where.split(" ")[0], copy.deepcopy(plain))
    slug = where.split("/")[1]
    own = computed.lesson(slug)
    return lessons.Lesson(slug, own.folder, own.meta, data, compute.compute(data))


def close(a, b):
    """Two JSON forms equal to TOL, nulls in the same places."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(close(x, y) for x, y in zip(a, b, strict=True))
    if a is None or b is None or isinstance(a, bool):
        return a == b
    return abs(a - b) <= TOL * (1 + abs(a))


def engine_handles(where, plain, bare, step):
    """The trace, or the generation steps the lesson's tables come from, changes with the key."""
    made, plain_lesson = lesson_of(where, plain), lesson_of(where, bare)
    same = pickle.dumps((to_dict(made.trace), made.generation)) == pickle.dumps(
        (to_dict(plain_lesson.trace), plain_lesson.generation)
    )
    return "the trace is the same with the key and without it" if same else None


def validation_handles(where, plain, bare, step):
    if step.key not in fixture.SELF_FIELDS | fixture.DIRECT_FIELDS:
        return f"the fixture reader does not accept the key {step.key!r}"
    try:
        fixture.validate(ROOT / where.split(" ")[0], {**plain, step.key: "not a value"})
    except FixtureError as error:
        return None if error.path.startswith(step.key) else f"a wrong value is reported at {error.path!r}"
    return "a wrong value ('not a value') is accepted"


def browser_handles(where, plain, bare, step):
    made = lesson_of(where, plain)
    if not step.handled_by("browser"):
        said = not_in_browser(made.fixture)
        return None if step.words in said else f"a lab is not refused on it (not_in_browser says {said!r})"
    twin = run_node("run_trace.mjs", [json.loads(json.dumps(made.plain_fixture))])[0]["trace"]
    wanted = for_place(to_dict(made.trace), "browser")
    return None if close(wanted, twin) else "the twin's trace differs from the engine's on it"


def notebook_handles(where, plain, bare, step):
    same = notebook_bytes(lesson_of(where, plain)) == notebook_bytes(lesson_of(where, bare))
    return "the notebook is the same with the key and without it" if same else None


def recomputed_handles(where, plain, bare, step):
    """Each recomputation with the head's own settings gives the head back, or refuses the step."""
    trace = lesson_of(where, plain).trace
    for i, head in enumerate(trace.heads):
        redone = {"with_scale(head, head.scale)": lambda h=head: recomputed.with_scale(h, h.scale)}
        n_q, n_k = head.visible.shape
        if head.visible.all():
            redone["without_mask(head)"] = lambda h=head: recomputed.without_mask(h)
        if (head.visible <= np.tri(n_q, n_k, dtype=bool)).all():
            redone["as_causal(head)"] = lambda h=head: recomputed.causal(h)
        for name, again in redone.items():
            try:
                weights, output = again()
            except LessonError as error:
                if step.words in str(error) or step.key in str(error):
                    continue
                return f"{name} refuses heads[{i}] without naming the step: {error}"
            if not (np.allclose(weights, head.weights, atol=1e-12) and np.allclose(output, head.output, atol=1e-12)):
                return f"{name} does not give heads[{i}] back"
    return None


def partials_handles(where, plain, bare, step):
    """A partial refuses the step unless it says it models it: the step is one of the layer's
    cases (or, declared as changing nothing the partials show, it is not)."""
    cases, bare_cases = (facts.layer_cases(lesson_of(where, p).fixture) for p in (plain, bare))
    if not step.handled_by("partials"):
        return f"declared unhandled, yet a case of the layer: {sorted(cases)}" if step.key in cases else None
    if step.key in cases and step.key not in bare_cases:
        return None
    return f"the partials' cases are {sorted(cases)} with the key and {sorted(bare_cases)} without"


def practice_handles(where, plain, bare, step):
    same = practice.inputs(plain, 3) == practice.inputs(bare, 3)
    return "the practice panel shows the same inputs and notes with the key and without it" if same else None


def glossary_handles(where, plain, bare, step):
    missing = [symbol for symbol in step.symbols if symbol not in glossary.GLOSSARY]
    if not step.symbols:
        return "the step names no symbols=(...)"
    return f"no glossary entry for {missing}" if missing else None


HANDLES = {
    "engine": engine_handles,
    "validation": validation_handles,
    "browser": browser_handles,
    "notebook": notebook_handles,
    "recomputed": recomputed_handles,
    "partials": partials_handles,
    "practice": practice_handles,
    "glossary": glossary_handles,
}


def tried(handles, where, plain, bare, step):
    """What a place still lacks for the step, or None; a place that cannot be tried yet (the
    fixture reader refuses the key, say) lacks the step too, and the reason is given."""
    try:
        return handles(where, plain, bare, step)
    except FixtureError as error:
        if error.path.startswith(step.key) or f"{step.key}: expected one of the fields" in str(error):
            return "cannot be tried until the fixture reader accepts the key"
        return f"cannot be tried yet: {str(error).splitlines()[0]}"
    except LessonError as error:
        return f"cannot be tried yet: {str(error).splitlines()[0]}"


def still_to_do(step):
    """Each place that does not handle the step yet, with the file and what to add there."""
    found = sample(step)
    if found is None:
        return [
            f"no lesson's fixture has {step.key!r}: give it example=... in its step(...) in macros/engine/trace.py, "
            "so each place can be tried on it"
        ]
    todo = []
    for where, plain, bare in samples(step):
        for place, handles in HANDLES.items():
            declared = step.why_not(place)
            if declared is not None and place not in ("browser", "partials"):  # those two check the opt-out itself
                continue
            problem = tried(handles, where, plain, bare, step)
            if problem:
                todo.append(f"{place} ({problem}, tried on {where}): {STEP_PLACES[place]}")
    return todo


@pytest.mark.parametrize("step", STEPS, ids=[s.key for s in STEPS])
def test_every_place_handles_the_step(step):
    todo = still_to_do(step)
    assert todo == [], f"step {step.key!r} is not yet handled by:\n- " + "\n- ".join(todo)


def test_every_key_the_reader_accepts_is_a_step_or_plain_attention():
    declared = {s.key for s in STEPS} | {key for s in STEPS for key in s.together} | CORE_KEYS
    undeclared = sorted((fixture.SELF_FIELDS | fixture.DIRECT_FIELDS) - declared)
    assert undeclared == [], (
        f"the fixture keys {undeclared} are read (macros/sources/) but not declared: declare each as a step "
        "in macros/engine/trace.py, step(key, words, symbols=...), or as plain attention's in CORE_KEYS"
    )


def test_every_optional_field_names_a_declared_step():
    steps = {s.key for s in STEPS}
    unnamed = [f.name for f in (*HEAD_FIELDS, *LAYER_FIELDS) if f.optional and f.step not in steps]
    assert unnamed == [], f"optional fields {unnamed} name no step declared in macros/engine/trace.py STEPS"


def test_the_step_guard_sees_a_step_no_place_handles():
    """The control: a key nothing reads, computes or names is reported for every place."""
    from macros.engine.trace import step as declare

    new = declare("scratch_scale", "scores multiplied by a scratch factor", example=2.0)
    where, plain, bare = sample(new)
    problems = {place for place, handles in HANDLES.items() if tried(handles, where, plain, bare, new)}
    assert problems == set(HANDLES)


# ---------------------------------------------------------------- each field, in each place


@cache
def twin_fields():
    """(head fields, layer fields) the browser twin's trace holds, over every lesson's numbers
    and every step's sample."""
    plains = [computed.lesson(slug).plain_fixture for slug in computed.SLUGS]
    plains += [found[1] for step in STEPS for found in samples(step) if found and found[1] not in plains]
    traces = [twin["trace"] for twin in run_node("run_trace.mjs", plains)]
    traces += [layer for trace in traces for layer in trace.get("layers", [])]  # a stack's layers are whole layers
    heads = {name for trace in traces for head in trace.get("heads", []) for name in head}
    return heads, {name for trace in traces for name in trace} - {"heads"}


def asks_for(level, name):
    """Whether a practice question can ask for an entry of the field, in a reader's words."""
    names = quantities.Names(queries=("a", "b"), keys=("a", "b"), n_heads=2)
    inside = {  # records, and a stack's layers: one of their entries
        "backward": "backward.d_X.0.0",
        "block": "block.output.0.0",
        "latent": "latent.c.0.0",
        "embedding": "embedding.X.0.0",
        "sampling": "sampling.renormalised.0",
        "train": "train.loss_after",
        "layers": "layers.0.heads.0.weights.0.0",
        "loss": "loss",
    }
    entry = {"states": "heads.0.states.0.0.0"}  # a head's field of three axes: one of its entries
    try:
        path = entry.get(name, f"heads.0.{name}.0.0") if level == "head" else inside.get(name, f"{name}.0.0")
        quantities.quantity(path, names)
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


WHERE = {
    "browser": "docs/assets/js/engine.js (the twin's attend or run)",
    "notebook": "macros/notebooks/ (a cell computing it, and its name in checks.HEAD_CHECKED or the module's CHECKED)",
    "partials": "macros/explain/steps.md.j2",
    "practice": "macros/practice/quantities.py (its words in _head_words or the layer's)",
}


@pytest.mark.parametrize(("level", "field"), FIELDS, ids=[f"{level}.{f.name}" for level, f in FIELDS])
def test_every_place_handles_the_field_or_says_why_not(level, field):
    still = [place for place in PLACES if field.handled_by(place) and not handles(place, level, field)]
    assert still == [], (
        f"{level} field {field.name!r} is not yet handled by: "
        + "; ".join(f"{place}: {PLACES[place]}, in {WHERE[place]}" for place in still)
        + f'. Handle it there, or declare why not in macros/engine/trace.py: published(..., {still[0]}="why")'
    )


@pytest.mark.parametrize(("level", "field"), FIELDS, ids=[f"{level}.{f.name}" for level, f in FIELDS])
def test_an_opt_out_is_true(level, field):
    untrue = [place for place in PLACES if not field.handled_by(place) and handles(place, level, field)]
    assert untrue == [], f"{field.name} is declared unhandled by {untrue}, but it is handled there"


def test_the_guard_sees_a_new_field():
    """The control: a field no place knows is reported for every place."""
    new = Field("tiles_new", "matrix")
    assert [place for place in PLACES if new.handled_by(place) and not handles(place, "head", new)] == list(PLACES)
