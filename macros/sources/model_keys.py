"""The fixture keys for the model around attention: where X comes from, and where the output goes.

    vocabulary: [the, cat, sat]    # token strings; n_vocab is its length
    embedding:                     # in place of X: X = E[ids] + P[0:n]
      E: [[...]]                   #   n_vocab × d_model
      ids: [0, 1, 2]               #   one id per position (tokens are then the vocabulary's words)
      P: [[...]]                   #   optional learned positions, n_max × d_model (n_max ≥ n)
    unembedding:                   # logits = Y W_U, Y the layer's (or stack's) output
      W_U: [[...]]                 #   d_out × n_vocab, or the word tied (W_U = Eᵀ)
      targets: [1, 2, 0]           #   optional: the true next ids, for the loss
    sampling: {temperature: 0.8, top_k: 3, seed: 7}   # the next token drawn from the last row
    layers:                        # in place of heads: attention layers on the residual stream
      - {heads: [...], W_O: [[...]]}
    train: {lr: 0.1}               # one step of gradient descent on every matrix the loss reaches

What each needs and refuses, each at its key: the vocabulary comes with an embedding or an
unembedding; an embedding replaces X and tokens; a tied unembedding needs the embedding and
an output as wide as it; sampling needs the unembedding; ``layers`` replaces ``heads`` and
``W_O``, refuses a ``transformer`` block (inside an entry or beside it) and any key that
changes a layer (each layer is plain self-attention, causal or not), and keeps every layer
as wide as the stream (each W_O maps back to d_model); ``train`` needs targets, and a plain
single layer (the backward pass is computed for one layer: a stack, a transformer block's
W_1 and W_2, or a changed layer are refused). ``upstream`` and ``transformer`` take the plain
layer alone (macros/sources/training_keys.py), so they refuse every key here: the loss gives
the upstream gradient, and the unembedding reads the attention layer, not a block around it.
"""

import dataclasses

import numpy as np

from macros.engine.embedding import EmbeddingSpec
from macros.engine.sampling import SamplingSpec
from macros.engine.stack import LayerSpec
from macros.engine.training import TrainSpec
from macros.engine.unembedding import UnembeddingSpec
from macros.sources.found import describe

FIELDS = {"vocabulary", "embedding", "unembedding", "sampling", "layers", "train"}
EMBEDDING_FIELDS = ("E", "ids", "P")
UNEMBEDDING_FIELDS = ("W_U", "targets")
SAMPLING_FIELDS = ("temperature", "top_k", "seed")
LAYER_FIELDS = ("heads", "W_O")
TIED = "tied"
# The keys a stack, or a trained layer, may have beside it: the plain layer, its labels and the model's keys.
MODEL = {"X", "tokens", "causal", "params", "extends", "practice"} | FIELDS
STACK = MODEL
TRAINED = MODEL - {"layers"} | {"heads", "W_O"}


def _mapping(check, value, path, what):
    if not isinstance(value, dict):
        check.fail(path, f"a mapping with {what}", describe(value))
    return value


def _whole(check, value, path, low, high, meaning):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        check.fail(path, f"a whole number from {low} to {high} ({meaning})", describe(value))
    return value


def _ids(check, value, path, n_vocab, what):
    if not isinstance(value, list) or not value:
        check.fail(path, f"a list of token ids ({what})", describe(value))
    return tuple(
        _whole(check, x, f"{path}[{i}]", 0, n_vocab - 1, "an id of the vocabulary") for i, x in enumerate(value)
    )


def vocabulary(check, data):
    """The token strings, each once; n_vocab is their number."""
    value = data.get("vocabulary")
    if value is None:
        uses = "embedding" if "embedding" in data else "unembedding"
        check.fail("vocabulary", f"this field: the token strings {uses} counts in", "nothing: it is missing")
    if not isinstance(value, list) or len(value) < 2 or not all(isinstance(x, str) for x in value):
        check.fail("vocabulary", "a list of at least 2 token strings", describe(value))
    if len(set(value)) != len(value):
        twice = next(x for x in value if value.count(x) > 1)
        check.fail("vocabulary", "each token string once", f"{twice!r} twice")
    return tuple(value)


def embedding(check, data):
    """The embedding in place of X: (X = E[ids] + P[0:n], the EmbeddingSpec, the vocabulary)."""
    for key in ("X", "tokens"):
        if key in data:
            words = "the rows are E[ids] + P" if key == "X" else "the tokens are the vocabulary's words at ids"
            check.fail(key, f"no {key} beside embedding ({words})", f"{key} as well")
    words = vocabulary(check, data)
    value = _mapping(check, data["embedding"], "embedding", "E and ids (and P, optionally)")
    check.fields(value, "embedding.", set(EMBEDDING_FIELDS), ("E", "ids"))
    E = check.matrix(value["E"], "embedding.E")
    if E.shape[0] != len(words):
        check.fail("embedding.E", f"a matrix with {len(words)} rows (n_vocab × d_model)", f"{E.shape[0]}×{E.shape[1]}")
    ids = _ids(check, value["ids"], "embedding.ids", len(words), "one per position")
    P = None
    if "P" in value:
        P = check.matrix(value["P"], "embedding.P")
        if P.shape[1] != E.shape[1] or P.shape[0] < len(ids):
            check.fail(
                "embedding.P",
                f"a matrix with at least {len(ids)} rows (one per position) and {E.shape[1]} columns (d_model)",
                f"{P.shape[0]}×{P.shape[1]}",
            )
    spec = EmbeddingSpec(E, ids, P)
    rows = E[list(ids)] + (P[: len(ids)] if P is not None else 0)  # (n, d_model)
    return np.asarray(rows, dtype=float), spec, words


def input_rows(check, data):
    """(X, its EmbeddingSpec or None, the vocabulary or ()): X as given, or from the embedding."""
    if "embedding" in data:
        return embedding(check, data)
    if "X" not in data:
        check.fail("X", "this field, or embedding (token ids and their embedding matrix)", "nothing: it is missing")
    X = check.matrix(data["X"], "X")
    if "vocabulary" in data and "unembedding" not in data:
        check.fail("vocabulary", "embedding or unembedding beside it (the vocabulary they count in)", "neither")
    return X, None, vocabulary(check, data) if "unembedding" in data else ()


def refuse_others(check, data, key, allowed, why):
    """Refuse, at ``key``, any key beside it outside ``allowed``."""
    other = sorted(set(data) - allowed)
    if other:
        check.fail(key, f"no {other[0]} alongside it ({why})", f"{other[0]} as well")


def layers(check, data, d_model, head_reader):
    """The stack's layers, each with its heads (read by ``head_reader``) and W_O mapping back to d_model."""
    refuse_others(check, data, "layers", STACK, "each layer is plain self-attention, causal or not, on the stream")
    value = data["layers"]
    if not isinstance(value, list) or not value:
        check.fail("layers", "a list with one entry (heads, and W_O optionally) per layer", describe(value))
    specs = []
    for i, entry in enumerate(value):
        path = f"layers[{i}]"
        _mapping(check, entry, path, "heads (and W_O, optionally)")
        if "transformer" in entry:
            check.fail(f"{path}.transformer", "heads and W_O only: a transformer block is not stacked here", "a block")
        check.fields(entry, f"{path}.", set(LAYER_FIELDS), ("heads",))
        heads = entry["heads"]
        if not isinstance(heads, list) or not heads:
            check.fail(f"{path}.heads", "a list with one entry (W_Q, W_K, W_V) per head", describe(heads))
        projections = [head_reader(check, head, f"{path}.heads[{h}]", d_model) for h, head in enumerate(heads)]
        width = sum(p.W_V.shape[1] for p in projections)
        W_O = None
        if "W_O" in entry:
            W_O = check.matrix(
                entry["W_O"], f"{path}.W_O", (width, d_model), "heads · d_v × d_model, back to the stream"
            )
        elif width != d_model:
            check.fail(
                f"{path}.W_O",
                f"a {width}×{d_model} matrix: the heads' values are {width} wide, the stream {d_model}",
                "none",
            )
        specs.append(LayerSpec(tuple(projections), W_O))
    return tuple(specs)


def output_width(fixture):
    """The width of what the unembedding reads: the stack's stream, W_O's columns or the heads' values."""
    if fixture.layers:
        return fixture.X.shape[1]
    if fixture.W_O is not None:
        return fixture.W_O.shape[1]
    return sum(head.W_V.shape[1] for head in fixture.heads)


def unembedding(check, data, fixture, words):
    """W_U (d_out × n_vocab, or the word tied for Eᵀ, which then needs an embedding and an
    output as wide as E's rows) and the true next ids, one per position. Tied and untied are
    checked apart because a tied W_U has no matrix of its own to locate a mistake in."""
    value = _mapping(check, data["unembedding"], "unembedding", "W_U (or W_U: tied) and targets")
    check.fields(value, "unembedding.", set(UNEMBEDDING_FIELDS), ("W_U",))
    d_out, n_vocab = output_width(fixture), len(words)
    if value["W_U"] == TIED:
        if fixture.embedding is None:
            check.fail("unembedding.W_U", "a matrix: tied needs an embedding whose E it transposes", "tied")
        if d_out != fixture.X.shape[1]:
            check.fail(
                "unembedding.W_U",
                f"a matrix: tied needs an output as wide as E's rows ({fixture.X.shape[1]})",
                f"tied with an output {d_out} wide",
            )
        W_U = None
    elif isinstance(value["W_U"], str):
        check.fail(
            "unembedding.W_U", f"a {d_out}×{n_vocab} matrix (d_out × n_vocab), or the word tied", describe(value["W_U"])
        )
    else:
        W_U = check.matrix(value["W_U"], "unembedding.W_U", (d_out, n_vocab), "d_out × n_vocab")
    targets = ()
    if "targets" in value:
        n = fixture.X.shape[0]
        targets = _ids(check, value["targets"], "unembedding.targets", n_vocab, "the true next id of each position")
        if len(targets) != n:
            check.fail("unembedding.targets", f"{n} ids, one per position", f"{len(targets)}")
    return UnembeddingSpec(W_U, targets)


def sampling(check, data, n_vocab):
    if "unembedding" not in data:
        check.fail("sampling", "unembedding beside it (the logits it draws from)", "no unembedding")
    value = _mapping(check, data["sampling"], "sampling", "temperature and seed (and top_k, optionally)")
    check.fields(value, "sampling.", set(SAMPLING_FIELDS), ("temperature", "seed"))
    temperature = check.number(value["temperature"], "sampling.temperature")
    if temperature <= 0:
        check.fail("sampling.temperature", "a number above 0", describe(value["temperature"]))
    top_k = _whole(check, value["top_k"], "sampling.top_k", 1, n_vocab, "ids kept") if "top_k" in value else None
    seed = _whole(check, value["seed"], "sampling.seed", 0, 2**32 - 1, "numpy default_rng's seed")
    return SamplingSpec(temperature, top_k, seed)


def train(check, data, spec):
    if spec is None or not spec.targets:
        check.fail("train", "unembedding with targets beside it (the loss a step lowers)", "no targets")
    why = "the step is computed for one plain layer: not a stack, a transformer block's W_1 and W_2, or a changed layer"
    refuse_others(check, data, "train", TRAINED, why)
    value = _mapping(check, data["train"], "train", "lr")
    check.fields(value, "train.", {"lr"}, ("lr",))
    lr = check.number(value["lr"], "train.lr")
    if lr <= 0:
        check.fail("train.lr", "a learning rate above 0", describe(value["lr"]))
    return lr


def extend(check, data, fixture, words):
    """The fixture with its unembedding, sampling and training step, unchanged without them."""
    changes = {}
    if "unembedding" in data:
        changes["unembedding"] = unembedding(check, data, fixture, words)
    if "sampling" in data:
        changes["sampling"] = sampling(check, data, len(words))
    if "train" in data:
        changes["train"] = TrainSpec(train(check, data, changes.get("unembedding")))
    return dataclasses.replace(fixture, **changes) if changes else fixture
