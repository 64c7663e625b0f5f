"""A trace field as the page shows it: its declared kind decides how a masked entry reads.

A masked score is what the softmax is given, so it shows as −∞ (the fields of kind
``masked``: the scaled and shifted scores); a masked weight, exponential or plain
exponential is an exact zero, so it shows as 0, written as a whole number, never as a
rounded 0.000. Templates write ``shown(head, "scaled")`` or ``shown(head, "weights", row)``
and this one place picks the form from the declaration in macros/engine/trace.py.
"""

import numpy as np

from macros.engine.trace import HEAD_FIELDS, LAYER_FIELDS, MASKED
from macros.errors import LessonError
from macros.render import latex

KINDS = {f.name: f.kind for f in (*LAYER_FIELDS, *HEAD_FIELDS)}
HIDDEN = {True: r"-\infty", False: "0"}  # masked kind or not -> what a hidden entry shows


def shown(record, name, places, row=None, visible=None, value=None):
    """LaTeX for field ``name`` of a head or a layer (one row of it with ``row``); ``visible``
    replaces the head's own mask, for a lesson that applies a mask by hand, and ``value``
    the field's own numbers, for values of that kind the lesson derived (an average of
    weights is shown as weights are)."""
    if name not in KINDS:
        raise LessonError(f"shown(): no trace field {name!r}; the fields are {', '.join(KINDS)}")
    value = np.asarray(getattr(record, name) if value is None else value, dtype=float)
    if visible is None:
        visible = getattr(record, "visible", None)
    visible = None if visible is None else np.asarray(visible, dtype=bool)
    if row is not None:
        value = value[row]
        visible = visible[row] if visible is not None and visible.ndim == 2 else visible
    if visible is None or visible.shape != value.shape or visible.all():  # nothing hidden here
        return latex.vector(value, places) if value.ndim == 1 else latex.matrix(value, places)
    hidden = HIDDEN[KINDS[name] == MASKED]
    if value.ndim == 1:
        return latex.masked_vector(value, visible, places, hidden)
    return latex.masked_matrix(value, visible, places, hidden)
