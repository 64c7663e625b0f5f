"""Figures and interactive parts of one lesson: weight bars, heat maps, editors, bound numbers.

Each takes the computed lesson (its trace, labels and decimals) first; ``macros.pages.context``
binds them to the page's lesson under the names a template uses.
"""

import numpy as np

from macros import lookup
from macros.engine import variants
from macros.engine.trace import steps_present
from macros.errors import WidgetError
from macros.render import figures, noscript, numbers, widgets


def resolve(data, path):
    """A dotted path into nested dicts, lists and arrays: 'heads.0.weights.2'; a path that
    names nothing is a located error in the lesson's words, never a KeyError."""
    return lookup.select(data, path)


def key_labels(lesson):
    return lesson.fixture.key_labels or [str(j + 1) for j in range(lesson.trace.heads[0].K.shape[0])]


def query_labels(lesson):
    return lesson.fixture.query_labels or [str(i + 1) for i in range(lesson.trace.heads[0].Q.shape[0])]


def own_heads(lesson, name):
    """Refuse a widget drawn from the lesson's heads when its trace is a stack of layers, which
    has none of its own."""
    if not lesson.trace.heads:
        raise WidgetError(
            f"{name}(): this lesson's trace is a stack of layers, with no heads of its own; show a layer's "
            "weights with its own numbers (trace.layers[l].heads[h].weights) in a table or a matrix"
        )


def bars(lesson, h, row, title):
    """One query's weights as bars, with the same numbers as a table beside them."""
    own_heads(lesson, "bars")
    keys, places = key_labels(lesson), lesson.decimals
    weights = lesson.trace.heads[h].weights[row]
    svg = figures.weight_bars(weights, keys, places, f"heads.{h}.weights.{row}", title)
    rows = [[key, text] for key, text in zip(keys, numbers.format_values(weights, places), strict=True)]
    return svg + "\n\n" + figures.numbers_table(title, ["key", "weight"], rows)


def maps(lesson, average=True, names=None):
    """Every head's weight map side by side (and their average), each with its table."""
    own_heads(lesson, "maps")
    trace, places = lesson.trace, lesson.decimals
    keys, queries = key_labels(lesson), query_labels(lesson)
    names = names or [f"head {i + 1}" for i in range(trace.n_heads)]
    shown = [
        (name, head.weights, head.visible, f"heads.{i}.weights")
        for i, (name, head) in enumerate(zip(names, trace.heads, strict=True))
    ]
    if average:
        mean = variants.head_average(trace)
        shown.append(("average of the heads", mean, trace.heads[0].visible, "average"))
    svgs = [
        (name, figures.heat_map(w, seen, queries, keys, places, path, f"attention weights, {name}"))
        for name, w, seen, path in shown
    ]
    tables = "\n".join(
        figures.numbers_table(name, ["query", *keys], widgets.bound_rows(path, w, seen, places, queries))
        for name, w, seen, path in shown
    )
    return figures.maps_side_by_side(svgs) + "\n\n" + tables


def editor(lesson, field, label):
    """An editable matrix of the fixture (W_O shows the identity when the fixture has none)."""
    plain = lesson.plain_fixture
    initial = resolve(plain, field) if field != "W_O" or "W_O" in plain else lesson.trace.W_O
    return widgets.editor(field, initial, label, lesson.decimals)


def bound(lesson, path):
    """Numbers of the published trace that a lab re-renders after an edit."""
    return widgets.bound(path, np.ravel(resolve(lesson.published, path)), lesson.decimals)


def not_in_browser(fixture):
    """Why the browser's twin cannot recompute this layer, or '': the steps it has that the
    twin does not compute (declared in macros.engine.trace.STEPS)."""
    missing = [s.words for s in steps_present(fixture.to_plain()) if not s.handled_by("browser")]
    return " and ".join(missing)


def lab(lesson, name, caller):
    """A block whose editors and bound numbers recompute together in the browser.

    The browser computes plain attention only: a lab on a lesson whose heads score another
    way would show the reader numbers unlike the page's, so the build refuses it.
    """
    reason = not_in_browser(lesson.fixture)
    if reason:
        raise WidgetError(
            f"lab({name!r}): the reader's browser cannot recompute this lesson's layer, which has {reason};"
            " show the step with the page's own numbers instead"
        )
    return (
        f'<div class="abh-lab" data-lab="{name}" markdown>\n\n{caller()}\n\n'
        '<p class="abh-lab-message" aria-live="polite" hidden></p>\n'
        f"{noscript.notice('Editing the numbers here')}\n</div>"
    )
