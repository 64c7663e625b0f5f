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

from collections.abc import Mapping
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
TENSOR = "tensor"  # a list of matrices, one per query: linear attention's running states
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
    step: str | None = None  # the optional step that makes it (macros.engine.optional_steps)

    def handled_by(self, place):
        return place not in dict(self.unhandled)


def published(kind, finite=True, optional=False, step=None, **unhandled):
    """A dataclass field that is part of the published trace. ``unhandled`` names the places
    that do not show or check it, each with the reason (``browser="no lab recomputes it"``);
    an optional field names the ``step`` (its fixture key) that makes it."""
    unknown = set(unhandled) - set(PLACES)
    if unknown:
        raise ValueError(f"unknown places {sorted(unknown)}; the places are {sorted(PLACES)}")
    if optional and step is None:
        raise ValueError("an optional field names the step that makes it: published(..., step='key')")
    metadata = {
        "kind": kind,
        "finite": finite,
        "optional": optional,
        "unhandled": tuple(sorted(unhandled.items())),
        "step": step,
    }
    return field(default=None if optional else MISSING, metadata=metadata)


# ---------------------------------------------------------------- the optional steps
#
# Plain attention is project, score, scale, mask, softmax, weigh the values, concatenate and
# project again. Everything else a lesson's layer can do (a causal mask, a bias, a cap on the
# scores, positions, a block around it, a backward pass) is a Step: the fixture key that turns
# it on, the reader's words for it, the glossary entries of its symbols and, for each place in
# STEP_PLACES, why that place does not need it where it does not. The fields a step adds name
# it (``published(..., step="alibi")``). A declaration alone makes a shared partial refuse a
# layer with a step it does not model (naming it in these words) and a lab refuse a lesson
# with a step the browser twin does not compute; tests/test_engine_steps.py fails for each
# place still to handle a step, naming the file and what to add there.

# Where a step must be handled, and what handling it means there.
STEP_PLACES = {
    "engine": "macros/engine/: a function computes the step, applied where the layer is assembled "
    "(a change to the scores: scoring.py's prepared or softmax_input), so the trace changes with the key",
    "validation": "macros/sources/: the key read with located errors in the *_keys.py module of its concept "
    "(listed in that module's FIELDS)",
    "browser": "docs/assets/js/engine.js: the twin computes the step, so a lab recomputes what the page shows; "
    'or declare why not here (browser="..."), and labs refuse a lesson with it',
    "notebook": "macros/notebooks/: cells that compute the step in plain numpy (scoring.py for a change to the "
    "scores), so the notebook with the key differs from the one without",
    "recomputed": "macros/vocabulary/recomputed.py: a head computed again keeps the step (it recomputes through "
    "engine.attention.attend_with with the head's own scoring), or refuses the step by name",
    "partials": "macros/explain/steps.md.j2: each shared partial refuses a layer with the step unless its "
    'expects(...) lists the key; declare partials="..." here only where the step changes nothing they show',
    "practice": "macros/render/practice.py: a sentence in settings() (or a table in inputs()) for the key, "
    "so a reader working a practice set knows the step is there",
    "glossary": "macros/vocabulary/glossary.py: an entry for each symbol the step adds, named in symbols=(...) here",
}


@dataclass(frozen=True)
class Step:
    """One optional step: its fixture key, the reader's words for it, the glossary entries of
    its symbols, keys that only make sense with it (taken away with it), and why each place
    in ``unhandled`` does not need it."""

    key: str
    words: str
    symbols: tuple = ()
    together: tuple = ()
    example: object = None  # the key's value as a fixture writes it, to try the step where no lesson has it
    unhandled: tuple = ()  # (place, why) pairs

    def handled_by(self, place):
        return place not in dict(self.unhandled)

    def __hash__(self):  # a key names one step; an example may be a mapping, which does not hash
        return hash(self.key)

    def why_not(self, place):
        return dict(self.unhandled).get(place)


def step(key, words, symbols=(), together=(), example=None, **unhandled):
    """A Step; ``unhandled`` names the places that do not need it, each with the reason."""
    unknown = set(unhandled) - set(STEP_PLACES)
    if unknown:
        raise ValueError(f"unknown places {sorted(unknown)}; the places are {sorted(STEP_PLACES)}")
    required = set(unhandled) & {"engine", "validation", "recomputed", "glossary"}
    if required:
        raise ValueError(f"every step is computed, read, kept when recomputed and in the glossary: {sorted(required)}")
    return Step(key, words, tuple(symbols), tuple(together), example, tuple(sorted(unhandled.items())))


FORWARD_UNCHANGED = "the forward layer the shared steps explain is the same with it"
NOT_IN_TWIN = "no lab recomputes it"
AFTER_LAYER = "it comes after the layer, which the shared steps explain unchanged"

STEPS = (
    step("causal", "a causal mask", symbols=("i",)),
    step("key_length", "padding (key_length)", symbols=("key_length",)),
    step("source", "keys and values from a separate source", symbols=("source", "m"), together=("source_tokens",)),
    step(
        "window",
        "a sliding window",
        symbols=("w",),
        notebook="the window is counted in its lesson's cost tables; the layer the notebook computes is the same",
    ),
    step("positions", "position encodings", symbols=("PE", "p", "theta")),
    step("qk_norm", "queries and keys normalised (QK-norm)", symbols=("rms",), example=True),
    step("additive", "additive scoring", symbols=("W_a", "U_a", "v_a", "d_a"), browser=NOT_IN_TWIN),
    step("softcap", "scores soft-capped", symbols=("cap",), example=2.0),
    step("alibi", "a bias added to the scores (ALiBi)", symbols=("slope", "B"), browser=NOT_IN_TWIN),
    step(
        "transformer",
        "a transformer block around it (its heads read the normalised rows, not X)",
        symbols=("LN", "mu"),
        browser="the twin computes the attention layer alone, not the block around it",
    ),
    step(
        "block_size",
        "keys read in blocks (online softmax)",
        symbols=("m_max", "l", "acc"),
        partials=FORWARD_UNCHANGED,
        notebook="the blocks change no value the notebook checks; the online-softmax lesson's own cells "
        "(lessons/online-softmax/notebook.py) walk through them",
    ),
    step(
        "query_block_size",
        "FlashAttention's tiles",
        symbols=("b_q", "b_k", "lse"),
        partials=FORWARD_UNCHANGED,
    ),
    step("upstream", "the backward pass", symbols=("d", "loss"), partials=FORWARD_UNCHANGED),
    step(
        "latent",
        "keys and values rebuilt from a shared latent (multi-head latent attention)",
        symbols=("C", "d_c", "W_DKV", "W_UK", "W_UV"),
    ),
    step("sink", "an attention sink", symbols=("s_sink", "a_sink", "n_sink"), example={"logits": [0.5, -1.0]}),
    step(
        "linear",
        "linear attention (a feature map in place of the softmax)",
        symbols=("phi", "M", "N"),
        browser=NOT_IN_TWIN,
    ),
    step("paged", "a paged KV cache", symbols=("page_size", "block_table"), partials=FORWARD_UNCHANGED),
    # The model around attention: where X comes from, and where the output goes.
    step(
        "embedding",
        "token ids looked up in an embedding (X = E[ids] + P)",
        symbols=("E", "P_learned", "n_vocab"),
        partials="the layer the shared steps explain reads X, whichever way its rows were made",
    ),
    step(
        "unembedding",
        "logits over a vocabulary (the unembedding)",
        symbols=("W_U", "logit", "p_hat"),
        together=("sampling", "train"),
        partials=AFTER_LAYER,
    ),
    step(
        "sampling",
        "a seeded draw of the next token",
        symbols=("T", "u_draw"),
        partials=AFTER_LAYER,
        browser="no lab draws tokens: numpy's seeded generator has no twin in the browser",
    ),
    step("layers", "attention layers stacked on the residual stream", symbols=("x_l",)),
    step(
        "train",
        "one step of gradient descent on every matrix",
        symbols=("eta", "one_hot"),
        partials=AFTER_LAYER,
        browser="no lab trains: the gradients are shown with the page's own numbers",
    ),
)
BY_KEY = {s.key: s for s in STEPS}

# The keys of plain attention, labels and the lesson's own settings: not steps.
CORE_KEYS = frozenset(
    {"X", "heads", "Q", "K", "V", "n_heads", "W_O", "tokens", "query_labels", "key_labels", "extends", "params"}
    | {"practice", "source_tokens"}
    # The token strings an embedding or an unembedding counts in: labels, like tokens.
    | {"vocabulary"}
    # Another way to write the heads (shared key/value projections), expanded into every
    # head's W_K and W_V when read: what follows sees ordinary heads.
    | {"kv_heads"}
)


def steps_present(plain):
    """The steps a fixture's JSON form turns on, in declaration order."""
    return [s for s in STEPS if plain.get(s.key) not in (None, False)]


def words_for(keys):
    """The reader's words for each step key, in declaration order."""
    return [s.words for s in STEPS if s.key in keys]


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
OWN_WORDS = "its lesson shows it in its own words"
OWN_LESSON = dict(optional=True, browser=NO_LAB, partials=OWN_WORDS)
# The optional steps of one lesson each, which that lesson shows in its own words and tables.
ROTARY_STEP = dict(optional=True, step="positions", browser=NO_LAB, notebook=ROTARY, partials=ROTARY, practice=ROTARY)
POSITION_STEP = dict(
    optional=True, step="positions", browser=NO_LAB, notebook=POSITIONS, partials=POSITIONS, practice=POSITIONS
)


@dataclass(frozen=True)
class HeadTrace:
    """One head, step by step. Shapes use n_q queries, n_k keys."""

    Q: np.ndarray = published(MATRIX)  # (n_q, d_k)
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
    # QK-norm (optional): the rows of Q and K divided by their root mean square; the scores
    # above are computed from these.
    Q_normed: np.ndarray = published(MATRIX, optional=True, step="qk_norm", partials=OWN_WORDS)  # (n_q, d_k)
    K_normed: np.ndarray = published(MATRIX, optional=True, step="qk_norm", partials=OWN_WORDS)  # (n_k, d_k)
    # Soft-capping (optional): cap · tanh(scaled / cap), what the softmax reads (or, with
    # ALiBi, what its bias is added to).
    capped: np.ndarray = published(MASKED, optional=True, step="softcap", partials=OWN_WORDS)  # (n_q, n_k)
    # ALiBi (optional): the bias added to the scaled scores, and what the softmax then reads
    # (the shift, exponentials and weights above are the softmax of ``biased``).
    bias: np.ndarray = published(
        MATRIX, optional=True, step="alibi", browser=NO_LAB, partials=ALIBI, practice=NOT_ASKED
    )  # (n_q, n_k)
    biased: np.ndarray = published(MASKED, optional=True, step="alibi", browser=NO_LAB, partials=ALIBI)  # (n_q, n_k)
    # FlashAttention (optional): the tiled forward pass's tiles, in the order they run, and the
    # log-sum-exp it saves per query for the backward pass; its reading is ``output`` above.
    logsumexp: np.ndarray = published(
        VECTOR, optional=True, step="query_block_size", browser=NO_LAB, partials=TILES
    )  # (n_q,)
    tiles: tuple = published(
        RECORDS,
        optional=True,
        step="query_block_size",
        browser=NO_LAB,
        notebook="the notebook checks the log-sum-exp and the reading the tiles lead to",
        partials=TILES,
        practice="a question asks for the log-sum-exp the tiles lead to; the lesson's table names each tile",
    )  # of engine.tiles.Tile
    # An attention sink (optional): each row's softmax also runs over the head's sink logit,
    # which has no value to read; the weight it takes (one per query), so that the weights on
    # the keys add up to 1 − sink_weight. The shift and the sums above count the sink too.
    sink_weight: np.ndarray = published(VECTOR, optional=True, step="sink", partials=OWN_WORDS)  # (n_q,)
    # Linear attention (optional): no softmax. φ(q) and φ(k) (elu + 1), each query's state
    # S_i = Σ φ(k_j)ᵀ v_j and normaliser z_i = Σ φ(k_j) over the keys it sees; its reading is
    # φ(q_i) S_i / (φ(q_i) · z_i). The softmax's fields above then hold the all-pairs way: the
    # scores are φ(q)·φ(k), the scale 1, the shift 0, the "exponentials" the similarities
    # themselves (0 where hidden), the sums their row sums and the weights each divided by it.
    phi_Q: np.ndarray = published(MATRIX, optional=True, step="linear", browser=NO_LAB, partials=OWN_WORDS)
    phi_K: np.ndarray = published(MATRIX, optional=True, step="linear", browser=NO_LAB, partials=OWN_WORDS)
    states: np.ndarray = published(  # (n_q, d_k, d_v)
        TENSOR, optional=True, step="linear", browser=NO_LAB, partials=OWN_WORDS
    )
    normalizers: np.ndarray = published(  # (n_q, d_k)
        MATRIX, optional=True, step="linear", browser=NO_LAB, partials=OWN_WORDS
    )
    # Rotary positions (optional): the head's own Q and K above are the rotated ones, since
    # they are what the scores multiply; these are the steps before and of the turn.
    Q_projected: np.ndarray = published(MATRIX, **ROTARY_STEP)  # (n_q, d_k)
    K_projected: np.ndarray = published(MATRIX, **ROTARY_STEP)  # (n_k, d_k)
    theta: np.ndarray = published(VECTOR, **ROTARY_STEP)  # (d_k/2,)
    q_angles: np.ndarray = published(MATRIX, **ROTARY_STEP)  # (n_q, d_k/2)
    k_angles: np.ndarray = published(MATRIX, **ROTARY_STEP)  # (n_k, d_k/2)
    # Not published, and not a name templates see: how the head scored its keys
    # (engine.scoring.Scoring), so that a lesson's "what if" computes the head again with
    # every one of its steps (macros.vocabulary.recomputed).
    _scoring: object = None

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
    X_encoded: np.ndarray = published(
        MATRIX, optional=True, step="positions", browser=NO_LAB, notebook=POSITIONS, partials=POSITIONS
    )  # (n, d_model)
    source_PE: np.ndarray = published(MATRIX, **POSITION_STEP)  # (m, d_model)
    source_encoded: np.ndarray = published(MATRIX, **POSITION_STEP)  # (m, d_model)
    # A padded batch (optional): one whole layer per sequence; the trace itself is the first's.
    batch: tuple = published(
        LAYERS,
        optional=True,
        step="key_length",
        browser=NO_LAB,
        notebook="the notebook checks the first sequence, which is the trace itself",
        partials="the padding lesson shows the sequences side by side",
        practice="a question names the sequence and asks its own layer's value",
    )

    # The backward pass (optional): every gradient, given the gradient of the output (``upstream``).
    backward: object = published(RECORD, step="upstream", **OWN_LESSON)  # engine.backward.Backward
    # A transformer block around the layer (optional): its steps; the heads above read norm_1
    # (pre-norm) or X (post-norm).
    block: object = published(RECORD, step="transformer", **OWN_LESSON)  # engine.block.BlockTrace
    # Multi-head latent attention (optional): the shared latent c = X W_DKV, the one thing the
    # cache keeps, and the absorbed form computed from it (engine.latent.LatentTrace); the
    # heads above hold K = c W_UK and V = c W_UV.
    latent: object = published(RECORD, step="latent", **OWN_LESSON)  # engine.latent.LatentTrace
    # The model around attention (optional). The embedding: the ids looked up in E, the positions
    # added, the rows X the layer reads (engine.embedding.Embedding).
    embedding: object = published(RECORD, optional=True, step="embedding", browser=NO_LAB, partials=OWN_WORDS)
    # The unembedding: each output row scored against every token, the softmax over the
    # vocabulary, and with the true next ids the mean cross-entropy and its gradient.
    logits: np.ndarray = published(MATRIX, optional=True, step="unembedding", partials=OWN_WORDS)  # (n, n_vocab)
    probs: np.ndarray = published(MATRIX, optional=True, step="unembedding", partials=OWN_WORDS)  # (n, n_vocab)
    loss: float = published(SCALAR, optional=True, step="unembedding", partials=OWN_WORDS)
    d_logits: np.ndarray = published(MATRIX, optional=True, step="unembedding", partials=OWN_WORDS)  # (n, n_vocab)
    # The next token drawn from the last row (engine.sampling.Sampling).
    sampling: object = published(RECORD, optional=True, step="sampling", browser=NO_LAB, partials=OWN_WORDS)
    # A stack of layers on the residual stream: each a whole layer's trace; ``output`` above is
    # then the last stream, and the stack has no heads, concatenation or W_O of its own.
    layers: tuple = published(LAYERS, optional=True, step="layers", partials=OWN_WORDS)
    # One step of gradient descent (engine.training.Train); the backward pass above is its layer's.
    train: object = published(RECORD, optional=True, step="train", browser=NO_LAB, partials=OWN_WORDS)

    @property
    def n_heads(self):
        return len(self.heads)


def _declared(cls):
    return tuple(
        Field(
            f.name,
            f.metadata["kind"],
            f.metadata["finite"],
            f.metadata["optional"],
            f.metadata["unhandled"],
            f.metadata["step"],
        )
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


# A single layer's own fields, which a stack of layers (``layers``) does not have: each of its
# layers' traces holds its own heads, concatenation and W_O.
SINGLE_LAYER = ("concat", "W_O")


def is_stack(record):
    """Whether a trace is a stack of layers (no heads, concatenation or W_O of its own)."""
    return getattr(record, "layers", None) is not None


def present(record, declared):
    """The declared fields ``record`` has: every required one, and the optional ones its step made."""
    stack = is_stack(record)
    return [
        f
        for f in declared
        if (not f.optional or getattr(record, f.name) is not None) and not (stack and f.name in SINGLE_LAYER)
    ]


def head_to_dict(head):
    return {f.name: _json_form(getattr(head, f.name), f.kind, head.visible) for f in present(head, HEAD_FIELDS)}


class JsonView(Mapping):
    """A trace read through its JSON form one field at a time: ``view["heads"][0]["weights"]``
    equals ``to_dict(trace)["heads"][0]["weights"]``, but only the fields read are converted.

    A practice set's questions and worked solutions read a few fields of one head or two;
    writing out the whole JSON form of every set was a third of the time spent on them.
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
        return name in self._kinds or (name == "heads" and self._has_heads())

    def __iter__(self):
        return iter((["heads"] if self._has_heads() else []) + list(self._kinds))

    def __len__(self):
        return len(self._kinds) + self._has_heads()

    def _has_heads(self):
        """A layer's heads are a field of its JSON form; a stack's are its layers' (to_dict)."""
        return hasattr(self.record, "heads") and not is_stack(self.record)

    def _convert(self, name):
        if name == "heads":
            return [JsonView(head, HEAD_FIELDS, head.visible) for head in self.record.heads]
        return _json_form(getattr(self.record, name), self._kinds[name], self._visible)


def to_dict(trace):
    """The trace's JSON form (the trace command's output): matrices as lists of rows."""
    layer = {f.name: _json_form(getattr(trace, f.name), f.kind) for f in present(trace, LAYER_FIELDS)}
    if is_stack(trace):
        return layer
    return {"heads": [head_to_dict(head) for head in trace.heads], **layer}


def for_place(data, place):
    """The JSON form with only the fields ``place`` handles: what the browser twin computes,
    for instance (``for_place(to_dict(trace), "browser")`` is the twin's contract)."""
    layer = {f.name: data[f.name] for f in LAYER_FIELDS if f.handled_by(place) and f.name in data}
    if "layers" in layer:
        layer["layers"] = [for_place(each, place) for each in layer["layers"]]
    if "heads" not in data:  # a stack of layers
        return layer
    heads = [
        {f.name: head[f.name] for f in HEAD_FIELDS if f.handled_by(place) and f.name in head} for head in data["heads"]
    ]
    return {"heads": heads, **layer}
