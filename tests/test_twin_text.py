"""Text parity: what a lab re-renders after an edit is what the build would print for the same numbers.

The build writes a lab's numbers with macros/render/numbers.py, through the widget helpers
a lesson template calls (bound(), bars(), maps(): macros/pages/context.py). After an edit the
browser recomputes with the twin (docs/assets/js/engine.js) and rewrites every
[data-bind] text with labs.js's bindTexts and format.js. Here every drawn fixture of
tests/test_js_twin.py, and every lesson's, is drawn by the build's own helpers with every
field a lab can bind; the bound elements found in that HTML (each with its data-bind,
its data-group and the figure around it) go to node (tests/js/run_bind.mjs), where the
twin recomputes the fixture and bindTexts groups and formats the values as a lab does.
Two comparisons:

- the twin's numbers: the build's helpers drawing the twin's own trace give, character for
  character, the lab's texts, for every field a lab can bind (formatting and grouping);
- numpy's numbers: the build's pages give the lab's texts exactly for every field a
  publishable trace holds finite. The plain exponentials are left out of this one: they
  reach 1e300, where a printed integer shows digits beyond float64's precision, and
  numpy's exp and the browser's Math.exp differ there in the last bits.

`make test-fast` compares a sample (SWEEP's: the first two drawn fixtures, the hand-picked
edge cases and a lesson of each form of fixture); the other cases are marked slow (tests/sweeps.py).
"""

import dataclasses
import re
from html import unescape

import numpy as np
import pytest

from macros import lessons
from macros.engine.trace import HEAD_FIELDS, LAYER_FIELDS, MASK, MASKED, MATRIX, HeadTrace, Trace
from macros.pages import context
from macros.render import lesson_widgets, numbers
from macros.sources import fixture
from tests import computed
from tests.nodejs import run_node
from tests.sweeps import Sweep
from tests.test_js_twin import CASES, LESSON_FIXTURES, write_yaml

# A lab binds numbers; the masked fields (null where a key is hidden) and the mask are drawn
# by maps() and the step tables, never bound one value at a time.
# An optional field (a step's) is bound only where its step is: the bindable paths are the required fields'.
BROWSER_HEAD = [f for f in HEAD_FIELDS if f.handled_by("browser") and not f.optional]
BROWSER_LAYER = [f for f in LAYER_FIELDS if f.handled_by("browser") and not f.optional]
BINDABLE = [f.name for f in BROWSER_HEAD if f.kind not in (MASK, MASKED)]
EXACT = [name for name in BINDABLE if next(f for f in HEAD_FIELDS if f.name == name).finite]


# In the widgets' HTML: an svg opening or closing, or a bound element with its text. Bound
# elements hold text only (a span, or an SVG text), so they never nest and their text runs to
# their own closing tag. (Read with a regular expression: html.parser took most of this module's
# time; bound_elements counts what it found against the data-bind attributes in the HTML.)
PIECE = re.compile(
    r"<svg\b(?P<svg>[^>]*)>|</svg>"
    r'|<(?P<tag>[a-zA-Z][\w-]*)(?P<attrs>\s[^>]*?\bdata-bind="[^"]*"[^>]*)>(?P<text>[^<]*)</(?P=tag)>'
)
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')


def bound_elements(html):
    """Every [data-bind] element of some HTML: its bind path, data-group, figure index and text.

    The figure index counts the svg.abh-figure figures in order; it is None outside them.
    """
    found, figure, figures = [], None, 0
    for piece in PIECE.finditer(html):
        if piece["tag"]:
            attrs = {name: unescape(value) for name, value in ATTRIBUTE.findall(piece["attrs"])}
            found.append(
                {
                    "bind": attrs["data-bind"],
                    "group": attrs.get("data-group"),
                    "figure": figure,
                    "tag": piece["tag"],
                    "text": unescape(piece["text"]),
                }
            )
        elif piece["svg"] is not None:
            if "abh-figure" in dict(ATTRIBUTE.findall(piece["svg"])).get("class", "").split():
                figure, figures = figures, figures + 1
        else:
            figure = None
    assert len(found) == html.count("data-bind="), "a bound element that bound_elements cannot read"
    return found


def lab_html(lesson, fields):
    """Every widget a lab can hold, drawn by the build's helpers over every bindable path of ``fields``."""
    helpers = context.lesson_widgets_of(lesson)
    trace = lesson.trace
    if trace.layers:  # a stack: no heads of its own, so no maps or bars; every layer's fields bound
        parts, paths = [], ["output"]
        for l, layer in enumerate(trace.layers):  # noqa: E741
            paths += [f"layers.{l}.{f.name}" for f in BROWSER_LAYER]
            paths += [f"layers.{l}.heads.{i}.{name}" for i in range(layer.n_heads) for name in fields]
    else:
        parts = [helpers["maps"]()]
        paths = [f.name for f in BROWSER_LAYER] + ["average"]
    for i, head in enumerate(trace.heads):
        parts += [helpers["bars"](i, row, f"head {i + 1}, query {row + 1}") for row in range(head.Q.shape[0])]
        paths += [f"heads.{i}.{name}" for name in fields]
    # each whole field, then each of its rows (a matrix's) or entries (a vector's)
    values = {path: lesson_widgets.resolve(lesson.published, path) for path in paths}
    parts += [helpers["bound"](path) for path in paths]
    parts += [
        helpers["bound"](f"{path}.{r}")
        for path, value in values.items()
        if np.ndim(value) >= 1
        for r in range(len(value))
    ]
    return "\n".join(parts)


def as_trace(data):
    """A trace in its JSON form (the twin's) as the engine's Trace; null becomes nan, as float(None) does."""

    def field(value, kind):
        return np.array(value, dtype=bool if kind == MASK else float)

    if "layers" in data:  # a stack: its layers as traces, the last stream as its output
        layers = tuple(as_trace(layer) for layer in data["layers"])
        return Trace((), None, None, field(data["output"], MATRIX), layers=layers)
    heads = [HeadTrace(**{f.name: field(head[f.name], f.kind) for f in BROWSER_HEAD}) for head in data["heads"]]
    return Trace(tuple(heads), **{f.name: field(data[f.name], f.kind) for f in BROWSER_LAYER})


def drawn_lessons(folder, names):
    """A lesson for each of ``names``: a drawn fixture (decimals 0 to 5 in turn, by its place
    in CASES) or one of the book's lessons."""
    found = []
    for name in names:
        if name in CASES:
            loaded = fixture.load(write_yaml(CASES[name], folder / name))
            meta = {"decimals": list(CASES).index(name) % 6}
            found.append(lessons.Lesson(name, folder / name, meta, loaded, loaded.run()))
        else:
            found.append(computed.lesson(name))
    return found


def run_labs(drawn, elements):
    """Per lesson: the twin's trace and the lab's texts for the given bound elements."""
    payload = [
        {
            "fixture": lesson.fixture.to_plain(),
            "places": lesson.decimals,
            "elements": [{key: e[key] for key in ("bind", "group", "figure")} for e in found],
        }
        for lesson, found in zip(drawn, elements, strict=True)
    ]
    return run_node("run_bind.mjs", payload)


LESSON_SLUGS = [path.parent.name for path in LESSON_FIXTURES]
# Lessons of every form of fixture: Q, K and V given (four decimals), causal self-attention,
# a source with valid lengths and W_O, positions.
SAMPLE_LESSONS = ["attention-by-hand", "two-heads-separate-projections", "cross-attention", "rotary-by-hand"]
# `make test-fast` compares the first drawn fixtures, the edge cases and those lessons.
SWEEP = Sweep(
    [*CASES, *LESSON_SLUGS],
    sample=[*list(CASES)[:2], *(name for name in CASES if not name.startswith("random-")), *SAMPLE_LESSONS],
)


@pytest.fixture(scope="module")
def parity(tmp_path_factory):
    """part -> slug -> (lesson, the build's bound elements, the lab's {trace, texts}).

    numpy's numbers, the EXACT fields."""

    def compute(names):
        drawn = drawn_lessons(tmp_path_factory.mktemp("text"), names)
        elements = [bound_elements(lab_html(lesson, EXACT)) for lesson in drawn]
        labs = run_labs(drawn, elements)
        return {lesson.slug: (lesson, found, lab) for lesson, found, lab in zip(drawn, elements, labs, strict=True)}

    return SWEEP.results(compute)


@pytest.fixture(scope="module")
def same_numbers(parity):
    """part -> slug -> (the build's elements drawn from the twin's own trace, every bindable field; the lab's texts)."""

    def compute(names):
        drawn = [parity.case(name)[0] for name in names]
        twins = [dataclasses.replace(lesson, trace=as_trace(parity.case(lesson.slug)[2]["trace"])) for lesson in drawn]
        elements = [bound_elements(lab_html(twin, BINDABLE)) for twin in twins]
        labs = run_labs(drawn, elements)
        return {lesson.slug: (found, lab["texts"]) for lesson, found, lab in zip(drawn, elements, labs, strict=True)}

    return SWEEP.results(compute)


def mismatches(found, lab):
    return [
        f"{e['bind']}: build {e['text']!r}, lab {text!r}"
        for e, text in zip(found, lab, strict=True)
        if e["text"] != text
    ]


@pytest.mark.parametrize("slug", SWEEP.params())
def test_the_lab_prints_what_the_build_prints(parity, slug):
    _, found, lab = parity.case(slug)
    assert mismatches(found, lab["texts"]) == []


@pytest.mark.parametrize("slug", SWEEP.params())
def test_for_the_same_numbers_every_bindable_field_reads_the_same(same_numbers, slug):
    found, lab = same_numbers.case(slug)
    assert mismatches(found, lab) == []


def field_of(bind):
    """'heads.1.weights.2' -> 'weights'; 'output.0' -> 'output'; a stack's 'layers.0.heads.0.Q' -> 'Q'."""
    parts = bind.split(".")
    if parts[0] == "layers":
        parts = parts[2:]
    return parts[2] if parts[0] == "heads" else parts[0]


@pytest.mark.slow
@pytest.mark.parametrize("fields", ["exact", "bindable"])
def test_every_kind_of_group_is_compared(parity, same_numbers, fields):
    """Bound rows and matrices, bars and heat maps (figure groups), table twins (data-group), every field."""
    if fields == "exact":
        drawn = [found for _, found, _ in parity.everything().values()]
    else:
        drawn = [found for found, _ in same_numbers.everything().values()]
    elements = [e for found in drawn for e in found]
    expected = {"concat", "W_O", "output", "average", *(EXACT if fields == "exact" else BINDABLE)}
    assert {field_of(e["bind"]) for e in elements} == expected
    assert any(e["group"] for e in elements) and any(e["figure"] is not None for e in elements)
    assert len(elements) > 10_000


def test_a_changed_text_is_reported(parity):
    """Negative control: one digit changed on the build's side is a mismatch."""
    _, found, lab = parity.case(next(iter(CASES)))
    changed = [dict(e) for e in found]
    changed[0]["text"] += "1"
    assert len(mismatches(changed, lab["texts"])) == 1


@pytest.mark.parametrize("part", Sweep.part_params())
def test_grouping_matters(parity, part):
    """Negative control: formatted one value at a time, some heat-map cells would read otherwise."""
    alone = [
        (e["text"], numbers.format_values([lesson_widgets.resolve(lesson.published, e["bind"])], lesson.decimals)[0])
        for lesson, found, _ in parity[part].values()
        for e in found
        if e["figure"] is not None
    ]
    assert any(grouped != single for grouped, single in alone)


def test_bound_elements_are_read_with_their_group_and_figure():
    html = (
        '<svg class="abh-figure x" viewBox="0 0 1 1"><text class="v" data-bind="heads.0.weights.0.1">0.25</text>'
        '<rect data-heat="a"/></svg><span data-bind="output.0" data-group="g">&minus;1.5</span>'
        '<svg class="abh-figure"><text data-bind="average.0.0">1</text></svg>'
    )
    assert [(e["bind"], e["group"], e["figure"], e["text"]) for e in bound_elements(html)] == [
        ("heads.0.weights.0.1", None, 0, "0.25"),
        ("output.0", "g", None, "\u22121.5"),
        ("average.0.0", None, 1, "1"),
    ]
    with pytest.raises(AssertionError, match="cannot read"):  # a bound element holding markup
        bound_elements('<span data-bind="output.0"><b>1</b></span>')
