"""The named record of every intermediate, and its JSON form (the trace command's output).

The trace's fields are declared once, here, in the order a lesson teaches them: each
published field of ``HeadTrace`` and ``Trace`` carries its kind (how its JSON form is
written) and whether it must be finite for a trace to be published. ``HEAD_FIELDS`` and
``LAYER_FIELDS`` are read from these declarations; the JSON form, the overflow guard, the
browser twin's contract (docs/assets/js/contract.js, written by macros.twin_contract) and
the tests all follow them, so a new step is named in one place.
"""

from dataclasses import dataclass, field, fields

import numpy as np

# Kinds of field: how the JSON form writes each one.
MATRIX = "matrix"  # a list of rows of numbers; a non-finite entry is null
VECTOR = "vector"  # a list of numbers; a non-finite entry is null
SCALAR = "scalar"  # one number
MASKED = "masked"  # a matrix with null wherever the head's `visible` is false (or not finite)
MASK = "mask"  # a matrix of true/false


@dataclass(frozen=True)
class Field:
    """One published field: its name, its kind, and whether a publishable trace has it finite.

    ``finite`` is False only where the engine's own array holds ±inf by design: the shifted
    scores are −inf at masked keys, and the plain exponentials may overflow (a lesson's point).
    """

    name: str
    kind: str
    finite: bool = True


def published(kind, finite=True):
    """A dataclass field that is part of the published trace, with its kind."""
    return field(metadata={"kind": kind, "finite": finite})


@dataclass(frozen=True)
class HeadTrace:
    """One head, step by step. Shapes use n_q queries, n_k keys."""

    Q: np.ndarray = published(MATRIX)  # (n_q, d_k)
    K: np.ndarray = published(MATRIX)  # (n_k, d_k)
    V: np.ndarray = published(MATRIX)  # (n_k, d_v)
    scores: np.ndarray = published(MATRIX)  # (n_q, n_k)  raw dot products
    scale: float = published(SCALAR)  # 1 / sqrt(d_k)
    scaled: np.ndarray = published(MASKED)  # (n_q, n_k)  before the mask is applied
    visible: np.ndarray = published(MASK)  # (n_q, n_k)  bool, False where the mask hides a key
    shift: np.ndarray = published(VECTOR)  # (n_q,)
    shifted: np.ndarray = published(MASKED, finite=False)  # (n_q, n_k)  scaled - shift; -inf where masked
    exps: np.ndarray = published(MATRIX)  # (n_q, n_k)
    sums: np.ndarray = published(VECTOR)  # (n_q,)
    weights: np.ndarray = published(MATRIX)  # (n_q, n_k)
    output: np.ndarray = published(MATRIX)  # (n_q, d_v)
    plain_exps: np.ndarray = published(MATRIX, finite=False)  # (n_q, n_k)  exp(scaled), no shift; inf on overflow
    plain_sums: np.ndarray = published(VECTOR, finite=False)  # (n_q,)

    @property
    def d_k(self):
        return self.Q.shape[1]

    @property
    def d_v(self):
        return self.V.shape[1]


@dataclass(frozen=True)
class Trace:
    """The whole layer: its heads, their concatenation and the output projection."""

    heads: tuple  # of HeadTrace, in head order
    concat: np.ndarray = published(MATRIX)  # (n_q, h * d_v)
    W_O: np.ndarray = published(MATRIX)  # (h * d_v, d_out)
    output: np.ndarray = published(MATRIX)  # (n_q, d_out)
    # New steps' intermediates under the names a lesson uses (macros.engine.sequence): not
    # part of the twin's contract; the trace command prints them as "extras".
    extras: dict = field(default_factory=dict, compare=False)

    @property
    def n_heads(self):
        return len(self.heads)


def _declared(cls):
    return tuple(Field(f.name, f.metadata["kind"], f.metadata["finite"]) for f in fields(cls) if f.metadata)


HEAD_FIELDS = _declared(HeadTrace)  # every field of heads[i], in the order a lesson teaches them
LAYER_FIELDS = _declared(Trace)  # the layer's own fields, after "heads"


def guarded(declared):
    """Names of the fields the overflow guard checks: those a publishable trace has finite."""
    return tuple(f.name for f in declared if f.finite and f.kind != MASK)


def _rows(array):
    """A matrix, vector or number as (nested lists of) Python floats (JSON has no numpy types).

    A non-finite value (an overflowed plain exponential) becomes None, JSON's null.
    """
    array = np.asarray(array, dtype=float)
    finite = np.isfinite(array)
    if finite.all():
        return array.tolist()  # the usual case, several times quicker than the masked form
    return np.where(finite, array, None).tolist()


def _masked_rows(values, visible):
    """A matrix with masked (or non-finite) entries as None, which JSON writes as null."""
    shown = np.asarray(visible) & np.isfinite(values)
    if shown.all():
        return np.asarray(values, dtype=float).tolist()
    return [
        [float(x) if ok else None for x, ok in zip(row, keep, strict=True)]
        for row, keep in zip(values, shown, strict=True)
    ]


def _json_form(value, kind, visible=None):
    if kind == MASKED:
        return _masked_rows(value, visible)
    if kind == MASK:
        return np.asarray(value, dtype=bool).tolist()
    return _rows(value)


def head_to_dict(head):
    return {f.name: _json_form(getattr(head, f.name), f.kind, head.visible) for f in HEAD_FIELDS}


class JsonView:
    """A trace read through its JSON form one field at a time: ``view["heads"][0]["weights"]``
    equals ``to_dict(trace)["heads"][0]["weights"]``, but only the fields read are converted.

    The practice check rejects about half of its draws after reading four fields of fifteen;
    writing out the whole JSON form of each was a third of its time.
    """

    def __init__(self, record, declared, visible=None):
        self.record = record  # the trace (or head) behind the view
        self._kinds = {f.name: f.kind for f in declared}
        self._visible = visible
        self._read = {}

    def __getitem__(self, name):
        if name not in self._read:
            self._read[name] = self._convert(name)
        return self._read[name]

    def __contains__(self, name):
        return name in self._kinds or (name == "heads" and hasattr(self.record, "heads"))

    def _convert(self, name):
        if name == "heads":
            return [JsonView(head, HEAD_FIELDS, head.visible) for head in self.record.heads]
        return _json_form(getattr(self.record, name), self._kinds[name], self._visible)


def to_dict(trace):
    """The contract shared with the browser twin: matrices as lists of rows."""
    layer = {f.name: _json_form(getattr(trace, f.name), f.kind) for f in LAYER_FIELDS}
    return {"heads": [head_to_dict(head) for head in trace.heads], **layer}
