"""The named record of every intermediate, and its JSON form (the trace command's output).

The trace's fields are declared once, here, in the order a lesson teaches them: each
published field of ``HeadTrace`` and ``Trace`` carries its kind (how its JSON form is
written), whether it must be finite for a trace to be published, whether it is optional
(present only when the fixture asks for its step) and, for each place that shows or checks
a trace (``PLACES``), why that place does not need it, where it does not. ``HEAD_FIELDS`` and
``LAYER_FIELDS`` are read from these declarations; the JSON form, the overflow guard, the
browser twin's contract (docs/assets/js/contract.js, written by macros.tools.twin_contract) and
the tests follow them, so a new step is named in one place, and tests/test_engine_steps.py
lists every place still to handle it.
"""

from dataclasses import MISSING, dataclass, field, fields

import numpy as np

# Kinds of field: how the JSON form writes each one.
MATRIX = "matrix"  # a list of rows of numbers; a non-finite entry is null
VECTOR = "vector"  # a list of numbers; a non-finite entry is null
SCALAR = "scalar"  # one number
MASKED = "masked"  # a matrix with null wherever the head's `visible` is false (or not finite)
MASK = "mask"  # a matrix of true/false
LAYERS = "layers"  # a list of whole layers (a padded batch: one per sequence)
RECORD = "record"  # a step's own record (its to_dict() is its JSON form): the backward pass, the block
RECORDS = "records"  # a list of such records: FlashAttention's tiles
STRUCTURED = (MASK, LAYERS, RECORD, RECORDS)  # kinds the overflow guard does not read as numbers

# Where a published field is shown or checked, besides the page itself:
PLACES = {
    "browser": "the browser twin computes it (docs/assets/js/engine.js), so a lab can show it",
    "notebook": "the lesson's notebook checks it against the page's value",
    "partials": "a shared explanation (macros/explain/steps.md.j2) shows it",
    "practice": "a practice question can ask for it in the reader's words",
}


@dataclass(frozen=True)
class Field:
    """One published field: its name, its kind, whether a publishable trace has it finite,
    whether it is optional, and why each place in ``unhandled`` does not need it.

    ``finite`` is False only where the engine's own array holds ±inf by design: the shifted
    scores are −inf at masked keys, and the plain exponentials may overflow (a lesson's point).
    """

    name: str
    kind: str
    finite: bool = True
    optional: bool = False
    unhandled: tuple = ()  # (place, why) pairs

    def handled_by(self, place):
        return place not in dict(self.unhandled)


def published(kind, finite=True, optional=False, **unhandled):
    """A dataclass field that is part of the published trace. ``unhandled`` names the places
    that do not show or check it, each with the reason (``browser="no lab recomputes it"``)."""
    unknown = set(unhandled) - set(PLACES)
    if unknown:
        raise ValueError(f"unknown places {sorted(unknown)}; the places are {sorted(PLACES)}")
    metadata = {"kind": kind, "finite": finite, "optional": optional, "unhandled": tuple(sorted(unhandled.items()))}
    return field(default=None if optional else MISSING, metadata=metadata)


# Reasons shared by several fields.
NO_LAB = "no lab recomputes it"
INPUT = "it is the lesson's own input, shown as given"
SOFTMAX_STEP = "a step inside the softmax, checked through the weights it gives"
ROTARY = "the rotary lesson shows it with its own table and lab"
POSITIONS = "the position-encoding lesson shows it in its own words"
NOT_ASKED = "no question asks for it"
ON_THE_WAY = "questions ask for the weight or reading it leads to"
ALIBI = "the ALiBi lesson explains it in its own words; the shared steps refuse a biased layer"
TILES = "the FlashAttention lesson shows its tiles in its own table; the shared steps refuse a tiled layer"
OWN_LESSON = dict(optional=True, browser=NO_LAB, partials="its lesson shows it in its own words")
# The optional steps of one lesson each, which that lesson shows in its own words and tables.
ROTARY_STEP = dict(optional=True, browser=NO_LAB, notebook=ROTARY, partials=ROTARY, practice=ROTARY)
POSITION_STEP = dict(optional=True, browser=NO_LAB, notebook=POSITIONS, partials=POSITIONS, practice=POSITIONS)


@dataclass(frozen=True)
class HeadTrace:
    """One head, step by step. Shapes use n_q queries, n_k keys."""

    Q: np.ndarray = published(MATRIX, practice=NOT_ASKED)  # (n_q, d_k)
    K: np.ndarray = published(MATRIX, practice=NOT_ASKED)  # (n_k, d_k)
    V: np.ndarray = published(MATRIX, practice=NOT_ASKED)  # (n_k, d_v)
    scores: np.ndarray = published(MATRIX)  # (n_q, n_k)  raw dot products
    scale: float = published(SCALAR, notebook=INPUT, practice=NOT_ASKED)  # 1 / sqrt(d_k)
    scaled: np.ndarray = published(MASKED)  # (n_q, n_k)  before the mask is applied
    visible: np.ndarray = published(MASK, notebook=INPUT, practice="it is shown, never asked")  # (n_q, n_k)
    shift: np.ndarray = published(VECTOR, notebook=SOFTMAX_STEP)  # (n_q,)
    shifted: np.ndarray = published(  # (n_q, n_k)  scaled - shift; -inf where masked
        MASKED,
        finite=False,
        notebook=SOFTMAX_STEP,
        partials="the partials show the exponentials of it",
        practice=ON_THE_WAY,
    )
    exps: np.ndarray = published(MATRIX)  # (n_q, n_k)
    sums: np.ndarray = published(VECTOR, notebook=SOFTMAX_STEP)  # (n_q,)
    weights: np.ndarray = published(MATRIX)  # (n_q, n_k)
    output: np.ndarray = published(MATRIX)  # (n_q, d_v)
    plain_exps: np.ndarray = published(  # (n_q, n_k)  exp(scaled), no shift; inf on overflow
        MATRIX,
        finite=False,
        notebook=SOFTMAX_STEP,
        partials="one lesson's point, made in its own words",
        practice=ON_THE_WAY,
    )
    plain_sums: np.ndarray = published(  # (n_q,)
        VECTOR,
        finite=False,
        notebook=SOFTMAX_STEP,
        partials="one lesson's point, made in its own words",
        practice=ON_THE_WAY,
    )
    # ALiBi (optional): the bias added to the scaled scores, and what the softmax then reads
    # (the shift, exponentials and weights above are the softmax of ``biased``).
    bias: np.ndarray = published(
        MATRIX, optional=True, browser=NO_LAB, partials=ALIBI, practice=NOT_ASKED
    )  # (n_q, n_k)
    biased: np.ndarray = published(MASKED, optional=True, browser=NO_LAB, partials=ALIBI)  # (n_q, n_k)
    # FlashAttention (optional): the tiled forward pass's tiles, in the order they run, and the
    # log-sum-exp it saves per query for the backward pass; its reading is ``output`` above.
    logsumexp: np.ndarray = published(VECTOR, optional=True, browser=NO_LAB, partials=TILES)  # (n_q,)
    tiles: tuple = published(
        RECORDS,
        optional=True,
        browser=NO_LAB,
        notebook="the notebook checks the log-sum-exp and the reading the tiles lead to",
        partials=TILES,
        practice="a question asks for the log-sum-exp the tiles lead to; the lesson's table names each tile",
    )  # of engine.tiles.Tile
    # Rotary positions (optional): the head's own Q and K above are the rotated ones, since
    # they are what the scores multiply; these are the steps before and of the turn.
    Q_projected: np.ndarray = published(MATRIX, **ROTARY_STEP)  # (n_q, d_k)
    K_projected: np.ndarray = published(MATRIX, **ROTARY_STEP)  # (n_k, d_k)
    theta: np.ndarray = published(VECTOR, **ROTARY_STEP)  # (d_k/2,)
    q_angles: np.ndarray = published(MATRIX, **ROTARY_STEP)  # (n_q, d_k/2)
    k_angles: np.ndarray = published(MATRIX, **ROTARY_STEP)  # (n_k, d_k/2)

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
    W_O: np.ndarray = published(MATRIX, notebook=INPUT, practice=NOT_ASKED)  # (h * d_v, d_out)
    output: np.ndarray = published(MATRIX)  # (n_q, d_out)
    # Sinusoidal positions (optional): the encodings and the encoded rows the heads project.
    PE: np.ndarray = published(MATRIX, **POSITION_STEP)  # (n, d_model)
    X_encoded: np.ndarray = published(MATRIX, **POSITION_STEP)  # (n, d_model)
    source_PE: np.ndarray = published(MATRIX, **POSITION_STEP)  # (m, d_model)
    source_encoded: np.ndarray = published(MATRIX, **POSITION_STEP)  # (m, d_model)
    # A padded batch (optional): one whole layer per sequence; the trace itself is the first's.
    batch: tuple = published(
        LAYERS,
        optional=True,
        browser=NO_LAB,
        notebook="the notebook checks the first sequence, which is the trace itself",
        partials="the padding lesson shows the sequences side by side",
        practice="a question names the sequence and asks its own layer's value",
    )

    # The backward pass (optional): every gradient, given the gradient of the output (``upstream``).
    backward: object = published(RECORD, **OWN_LESSON)  # engine.backward.Backward
    # A transformer block around the layer (optional): its steps; the heads above read norm_1
    # (pre-norm) or X (post-norm).
    block: object = published(RECORD, **OWN_LESSON)  # engine.block.BlockTrace

    @property
    def n_heads(self):
        return len(self.heads)


def _declared(cls):
    return tuple(
        Field(f.name, f.metadata["kind"], f.metadata["finite"], f.metadata["optional"], f.metadata["unhandled"])
        for f in fields(cls)
        if f.metadata
    )


HEAD_FIELDS = _declared(HeadTrace)  # every field of heads[i], in the order a lesson teaches them
LAYER_FIELDS = _declared(Trace)  # the layer's own fields, after "heads"


def guarded(declared):
    """Names of the fields the overflow guard checks: those a publishable trace has finite."""
    return tuple(f.name for f in declared if f.finite and f.kind not in STRUCTURED)


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
    if kind == LAYERS:
        return [to_dict(layer) for layer in value]
    if kind == RECORD:
        return value.to_dict()
    if kind == RECORDS:
        return [record.to_dict() for record in value]
    if kind == MASKED:
        return _masked_rows(value, visible)
    if kind == MASK:
        return np.asarray(value, dtype=bool).tolist()
    return _rows(value)


def present(record, declared):
    """The declared fields ``record`` has: every required one, and the optional ones its step made."""
    return [f for f in declared if not f.optional or getattr(record, f.name) is not None]


def head_to_dict(head):
    return {f.name: _json_form(getattr(head, f.name), f.kind, head.visible) for f in present(head, HEAD_FIELDS)}


class JsonView:
    """A trace read through its JSON form one field at a time: ``view["heads"][0]["weights"]``
    equals ``to_dict(trace)["heads"][0]["weights"]``, but only the fields read are converted.

    The practice check rejects about half of its draws after reading four fields of fifteen;
    writing out the whole JSON form of each was a third of its time.
    """

    def __init__(self, record, declared, visible=None):
        self.record = record  # the trace (or head) behind the view
        self._kinds = {f.name: f.kind for f in present(record, declared)}
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
    """The trace's JSON form (the trace command's output): matrices as lists of rows."""
    layer = {f.name: _json_form(getattr(trace, f.name), f.kind) for f in present(trace, LAYER_FIELDS)}
    return {"heads": [head_to_dict(head) for head in trace.heads], **layer}


def for_place(data, place):
    """The JSON form with only the fields ``place`` handles: what the browser twin computes,
    for instance (``for_place(to_dict(trace), "browser")`` is the twin's contract)."""
    heads = [
        {f.name: head[f.name] for f in HEAD_FIELDS if f.handled_by(place) and f.name in head} for head in data["heads"]
    ]
    layer = {f.name: data[f.name] for f in LAYER_FIELDS if f.handled_by(place) and f.name in data}
    return {"heads": heads, **layer}
