"""What a practice question asks, in a reader's words: its label, tolerance and range.

A graded value is named by a path (``heads.1.weights.2.0``). The page never shows that path:
it asks "In head 2, the weight the query at position 3 (“mouse”) gives the key at position 1
(“cat”)", states how close an answer must be, and refuses an answer outside the quantity's
range with the reason (a weight lies between 0 and 1; a count is a whole number). Its worked
solution is macros/practice/worked.py's. A path no entry here words is refused by the build
(``quantity`` raises KeyError).

Words may use the set's own numbers (a temperature, a model's sizes, the keys a block holds):
``quantity`` reads them from the set's record. Positions, heads, columns and blocks are
counted from 1. Matrix names are written W_Q, d_k: the page shows the part after the
underscore as a subscript (macros/render/practice.py, ``marked``).

Tolerances fit the quantity: 0.01 for a number a reader computes by hand to a few decimals
(a weight, a score, a reading, a size in GiB or a count in millions), exact for a count.
"""

import re
from dataclasses import dataclass

HAND = 0.01  # within this of the exact value, a hand calculation counts


@dataclass(frozen=True)
class Quantity:
    words: str  # the question, in the reader's words
    tolerance: float = HAND  # absolute (0 for a count: exact)
    low: float | None = None  # the quantity's range; an answer outside it is refused with ``why``
    high: float | None = None
    whole: bool = False  # a count: a whole number, exactly
    why: str = ""

    @property
    def label(self):
        """The question as the page writes it: a sentence's start."""
        return self.words[:1].upper() + self.words[1:]

    @property
    def stated(self):
        """How close an answer must be, as the question says it."""
        if self.whole:
            return "Give the exact whole number (digits may be grouped by commas: 12,288)."
        return f"An answer counts when it is within {_plain(self.tolerance)} of the exact one."


def _plain(x):
    return f"{x:g}"


WEIGHT = dict(low=0.0, high=1.0, why="a weight lies between 0 and 1")
COUNT = dict(tolerance=0.0, low=0.0, whole=True, why="a count is a whole number, 0 or more")
POSITIVE = dict(low=0.0, why="elu + 1 is above 0 on every entry, and so is a sum of such entries")
SIZE = dict(low=0.0, why="a size is 0 or more")
# What a pass through the layer (macros/engine/decode_cost.py) counts, as a question names it.
PASS_FIELDS = {
    "macs": "the multiply-adds of",
    "projection_macs": "the multiply-adds of the projections (Q, K, V) in",
    "score_macs": "the multiply-adds of the scores in",
    "weighting_macs": "the multiply-adds of the weighting of the values in",
    "output_macs": "the multiply-adds of the output projection W_O in",
    "numbers_read": "the numbers read (weights, keys and values) by",
    "bytes_read": "the bytes read (weights, keys and values) by",
    "cache_bytes": "the bytes of keys and values read by",
}
# What one layer's cost table counts (macros/engine/cost.py), as a question names it.
COST_WORDS = {
    "projection_macs": "the multiply-adds of the projections (Q, K and V of every head)",
    "score_macs": "the multiply-adds of the scores (every query with every key, in every head)",
    "weighting_macs": "the multiply-adds of the weighting of the values",
    "output_macs": "the multiply-adds of the output projection W_O",
    "quadratic_macs": "the multiply-adds of the scores and the weighting of the values, every query with every key",
    "causal_quadratic_macs": "the multiply-adds of the scores and the weighting under the causal mask",
    "score_numbers": "the scores held (an n × n matrix per head)",
    "kv_cache_numbers": "the numbers of keys and values held",
}
# A path's prefix that asks a large count in a unit a person writes (macros.practice.record.UNITS).
UNIT_WORDS = {
    "millions": "in millions",
    "billions": "in billions",
    "mib": "in MiB (2^20 bytes)",
    "gib": "in GiB (2^30 bytes)",
}


@dataclass(frozen=True)
class Names:
    """How a lesson names its positions and heads: labels of queries and keys, the head count."""

    queries: tuple
    keys: tuple
    n_heads: int
    vocabulary: tuple = ()  # the token strings, by id, where the lesson has a vocabulary

    def word(self, t):
        """'“cat”' for token id t of the vocabulary (or 'token id t' without one)."""
        return f"“{self.vocabulary[t]}”" if t < len(self.vocabulary) else f"token id {t}"

    def position(self, i, labels, role):
        """'the query at position 3 (“mouse”)'; the one query of a lesson is 'the query'."""
        if role == "query" and len(labels) == 1:
            return "the query"
        label = labels[i] if i < len(labels) else ""
        telling = label and not re.fullmatch(r"[A-Za-z]?\d*", str(label))
        return f"the {role} at position {i + 1}" + (f" (“{label}”)" if telling else "")

    def query(self, i):
        return self.position(i, self.queries, "query")

    def key(self, i):
        return self.position(i, self.keys, "key")

    def token(self, i):
        return self.position(i, self.queries, "token")

    def head(self, h):
        return f"In head {h + 1}, " if self.n_heads > 1 else ""


def _head_field(rec, h, name):
    try:
        return rec.data["heads"][h].get(name) if rec is not None else None
    except (KeyError, IndexError, TypeError):
        return None


def _head_words(field, h, q, rest, names, rec):
    """The question for a head's field at query ``q`` (and key or coordinate ``rest``)."""
    query = names.query(q)
    key = names.key(rest) if rest is not None else None
    additive = rec is not None and rec.fixture.additive is not None
    rotary = _head_field(rec, h, "theta") is not None
    scores = {
        "scores": f"the {'additive score' if additive else 'raw score'} of {key} for {query}"
        + (", its query and key turned to their positions" if rotary else ""),
        "scaled": f"the scaled score of {key} for {query}",
    }
    words = {
        "scores": (scores["scores"], {}),
        "scaled": (scores["scaled"], {}),
        "capped": (f"the capped score of {key} for {query} (its scaled score after soft-capping)", {}),
        "biased": (f"the score of {key} for {query}, scaled and with the ALiBi bias added", {}),
        "Q": (
            f"coordinate {(rest or 0) + 1} of {query}, turned to its position"
            if rotary
            else f"coordinate {(rest or 0) + 1} of the query row of {query}",
            {},
        ),
        "Q_normed": (f"coordinate {(rest or 0) + 1} of {query}, normalised (QK-norm)", {}),
        "K_normed": (f"coordinate {(rest or 0) + 1} of {names.key(q)}, normalised (QK-norm)", {}),
        "exps": (f"the exponential of the shifted score of {key} for {query}", WEIGHT),
        "sink_weight": (
            f"the weight {query} gives the sink (its weight on no key)",
            WEIGHT | {"why": "the sink's weight lies between 0 and 1"},
        ),
        "phi_Q": (f"coordinate {(rest or 0) + 1} of φ(q) for {query} (elu + 1 of its query)", POSITIVE),
        "phi_K": (f"coordinate {(rest or 0) + 1} of φ(k) for {names.key(q)} (elu + 1 of its key)", POSITIVE),
        "normalizers": (
            f"coordinate {(rest or 0) + 1} of the running normaliser N after {names.token(q)}",
            POSITIVE,
        ),
        "weights": (f"the weight {query} gives {key}", WEIGHT),
        "output": (f"coordinate {(rest or 0) + 1} of the reading of {query}", {}),
        "shift": (f"the largest scaled score {query} sees (its softmax's shift)", {}),
        "logsumexp": (f"the log-sum-exp of the scaled scores {query} sees, log Σ exp(score)", {}),
        "sums": (
            f"the sum of the exponentials of the shifted scores of {query}",
            dict(low=1.0, why="the sum includes exp(0) = 1, so it is at least 1"),
        ),
    }
    if field not in words:
        raise KeyError(field)
    text, extra = words[field]
    return Quantity(names.head(h) + text, **extra)


# A transformer block's steps (macros/engine/block.py), as a question names them.
BLOCK_WORDS = {
    "norm_1": "the first layer norm's output",
    "attention": "the attention layer's output",
    "residual_1": "the first residual sum (the input plus the attention's output)",
    "norm_2": "the second layer norm's output",
    "pre_activation": "the feed-forward layer's first product, plus its bias, before the activation",
    "hidden": "the feed-forward layer's hidden row, after the activation",
    "ffn": "the feed-forward layer's output",
    "residual_2": "the second residual sum",
    "output": "the block's output",
}


def _entry_of(matrix):
    return lambda i, j, names: f"the entry in row {i + 1}, column {j + 1} of {matrix}"


# The backward pass's gradients (macros/engine/backward.py): with respect to what, in words.
GRADIENT_WORDS = {
    "d_X": lambda i, j, names: f"coordinate {j + 1} of the input row of {names.query(i)}",
    "d_concat": lambda i, j, names: f"coordinate {j + 1} of the concatenated readings of {names.query(i)}",
    "d_W_O": _entry_of("W_O"),
    "d_W_Q": _entry_of("W_Q"),
    "d_W_K": _entry_of("W_K"),
    "d_W_V": _entry_of("W_V"),
    "d_output": lambda i, j, names: f"coordinate {j + 1} of the reading of {names.query(i)}",
    "d_Q": lambda i, j, names: f"coordinate {j + 1} of the query of {names.query(i)}",
    "d_K": lambda i, j, names: f"coordinate {j + 1} of the key of {names.key(i)}",
    "d_V": lambda i, j, names: f"coordinate {j + 1} of the value of {names.key(i)}",
    "d_weights": lambda i, j, names: f"the weight {names.query(i)} gives {names.key(j)}",
    "d_scaled": lambda i, j, names: f"the scaled score {names.query(i)} gives {names.key(j)}",
    "d_scores": lambda i, j, names: f"the raw score {names.query(i)} gives {names.key(j)}",
    "upstream": lambda i, j, names: f"coordinate {j + 1} of the layer's output for {names.token(i)} (dY, the upstream)",
}


def _unit(unit, path, names, rec):
    """A large count asked in millions, MiB or GiB, to two decimals."""
    inner = quantity(path, names, rec)
    return Quantity(
        f"{inner.words}, {UNIT_WORDS[unit]}",
        why="a count is 0 or more" if unit in ("millions", "billions") else SIZE["why"],
        low=0.0,
    )


def _keys_of(block):
    start, stop = block
    return f"key {start + 1}" if stop - start == 1 else f"keys {start + 1} to {stop}"


def _tile_words(field, q, b, names, rec):
    """A query's running value after a key block of FlashAttention's tiles."""
    blocks = rec.data["tiles"]["key_blocks"] if rec is not None else None
    which = f"key block {b + 1}" + (f" ({_keys_of(blocks[b])})" if blocks and b < len(blocks) else "")
    if field == "running_max":
        return Quantity(f"the running maximum of the scaled scores of {names.query(q)} after its tile with {which}")
    return Quantity(
        f"the running sum of the exponentials of {names.query(q)} after its tile with {which}",
        low=1.0,
        why="the running sum holds exp(0) = 1 for the largest score so far, so it is at least 1",
    )


def _cache_words(field, rec):
    """A model's KV cache: its size after n tokens, or the tokens a budget holds."""
    params = rec.params if rec is not None else {}
    if field == "gib":
        n = params.get("question_length", "n")
        return Quantity(f"the KV cache of this model after {_count(n)} tokens, in GiB (2^30 bytes)", **SIZE)
    if field == "tokens":
        budget = params.get("budget_gib", "B")
        return Quantity(f"how many tokens' keys and values fit in {_plain(float(budget))} GiB of cache", **COUNT)
    if field == "bytes_per_token":
        return Quantity("the bytes of cache each token leaves, in all layers and heads", **COUNT)
    raise KeyError(field)


def _fused_words(parts, names, rec):
    """The fused projection of from-hand-to-code: an entry, and the head and column it belongs to."""
    heads = rec.trace.n_heads if rec is not None else names.n_heads
    match parts:
        case ["Q", i, c]:
            return Quantity(
                f"the entry in row {int(i) + 1}, column {int(c) + 1} of the fused queries X W_Q, W_Q holding the "
                "heads' W_Q side by side"
            )
        case ["head", c]:
            return Quantity(
                f"which head column {int(c) + 1} of the fused queries belongs to (its number)",
                tolerance=0.0,
                low=1.0,
                high=float(heads),
                whole=True,
                why=f"the heads are numbered 1 to {heads}",
            )
        case ["column", c]:
            return Quantity(
                "which of that head's own query columns it is (counted from 1)",
                tolerance=0.0,
                low=1.0,
                whole=True,
                why="a column is numbered from 1",
            )
    raise KeyError(".".join(parts))


def quantity(path, names, rec=None):
    """The Quantity a path asks for, in the words of the set ``rec`` (a Record, for the words that
    name its numbers); KeyError for a path no reader's words name yet."""
    parts = str(path).split(".")
    match parts:
        case [("millions" | "billions" | "mib" | "gib") as unit, *rest] if rest:
            return _unit(unit, ".".join(rest), names, rec)
        case ["embedding" | "logits" | "probs" | "loss" | "d_logits" | "sampling" | "train" | "layers", *_]:
            return model_quantity(parts, names, rec)
        case ["batch", b, *rest]:
            inner = quantity(".".join(rest), names, rec)
            return Quantity(f"In sequence {int(b) + 1} of the batch, {_lower(inner.words)}", **_kept(inner))
        case ["heads", h, "states", q, r, c]:
            return Quantity(
                f"{names.head(int(h))}row {int(r) + 1}, column {int(c) + 1} of the running state M after "
                f"{names.token(int(q))}"
            )
        case ["heads", h, field, q, *rest]:
            return _head_words(field, int(h), int(q), int(rest[0]) if rest else None, names, rec)
        case ["unscaled", "heads", h, "weights", q, k]:
            return Quantity(
                f"{names.head(int(h))}without the division by √d_k (the softmax of the raw scores), the weight "
                f"{names.query(int(q))} gives {names.key(int(k))}",
                **WEIGHT,
            )
        case ["tempered", "heads", h, "weights", q, k]:
            T = _plain(float(rec.params["asked_temperature"])) if rec is not None else "T"
            return Quantity(
                f"{names.head(int(h))}at temperature T = {T} (the scaled scores divided by {T} before the softmax), "
                f"the weight {names.query(int(q))} gives {names.key(int(k))}",
                **WEIGHT,
            )
        case ["wide", "weights" | "output" as field, q, k]:
            width = len(rec.data["wide"]["Q"][0]) if rec is not None else "d"
            one = (
                f"with one head of width {width} in place of the {names.n_heads} heads (the same queries, keys and "
                "values)"
            )
            if field == "weights":
                return Quantity(f"{one}, the weight {names.query(int(q))} gives {names.key(int(k))}", **WEIGHT)
            return Quantity(f"{one}, coordinate {int(k) + 1} of the reading of {names.query(int(q))}")
        case ["fused", *rest]:
            return _fused_words(rest, names, rec)
        case ["tiles", "skipped" | "computed" as field]:
            what = "skips (tiles in which the mask hides every key from every query)" if field == "skipped" else "runs"
            return Quantity(f"how many tiles the causal pass {what}", **COUNT)
        case ["tiles", "running_max" | "running_sum" as field, q, b]:
            return _tile_words(field, int(q), int(b), names, rec)
        case ["kv_cache", field]:
            return _cache_words(field, rec)
        case ["X_encoded", i, c]:
            return Quantity(
                f"coordinate {int(c) + 1} of the input row of {names.token(int(i))} with its position encoding "
                "added (x + PE)"
            )
        case ["latent", "c", q, c]:
            return Quantity(
                f"coordinate {int(c) + 1} of the latent row (the row of C = X W_DKV) of {names.token(int(q))}"
            )
        case ["window" | "streaming" as how, "weights", h, q, k]:
            under = {
                "window": "under the sliding window alone",
                "streaming": "under the sliding window with the first tokens kept",
            }[how]
            return Quantity(
                f"{names.head(int(h))}{under}, the weight {names.query(int(q))} gives {names.key(int(k))}", **WEIGHT
            )
        case ["paged", "total_wasted", "paged" | "contiguous" as how]:
            which = {
                "paged": "in the paged cache, the token slots the requests' pages leave unused, all requests together",
                "contiguous": "in the contiguous cache, the token slots its reservations leave unused, all requests "
                "together",
            }[how]
            return Quantity(which, **COUNT)
        case ["paged", "pages", i]:
            return Quantity(f"the pages request {int(i) + 1} takes", **COUNT)
        case ["paged", "fork", "pages"]:
            return Quantity(
                "the pages the two sequences that share the prompt hold together, once both have written", **COUNT
            )
        case ["output" | "concat" as field, q, c]:
            what = "the layer's output" if field == "output" else "the heads' readings side by side"
            return Quantity(f"coordinate {int(c) + 1} of {what} for {names.query(int(q))}")
        case ["swapped" | "swapped_with_blocks" as how, "output", q, c]:
            blocks = "and W_O's row blocks moved with them" if how == "swapped_with_blocks" else "and W_O as it was"
            return Quantity(
                f"with the heads in the other order {blocks}: coordinate {int(c) + 1} of the output for "
                f"{names.query(int(q))}"
            )
        case ["online", "heads", h, "blocks", b, "m" | "l" | "rescale" as field, q]:
            after = f"after block {int(b) + 1} of keys"
            words = {
                "m": (f"the running maximum of the scaled scores of {names.query(int(q))} {after}", {}),
                "l": (
                    f"the running sum of the exponentials of {names.query(int(q))} {after}",
                    dict(low=1.0, why="the running sum is at least 1"),
                ),
                "rescale": (
                    f"the factor that rescales the running sum of {names.query(int(q))} at block {int(b) + 1} of keys",
                    WEIGHT | {"why": "a rescale factor lies between 0 and 1"},
                ),
            }[field]
            return Quantity(names.head(int(h)) + words[0], **words[1])
        case ["decoding", "heads", h, "steps", t, "reading", c]:
            return Quantity(
                f"{names.head(int(h))}coordinate {int(c) + 1} of the reading of the token added at step "
                f"{int(t) + 1}, from the cached keys and values"
            )
        case ["groups", g, "readings", h, q, *c]:
            coordinate = f"coordinate {int(c[0]) + 1} of " if c else ""
            how = _grouping(rec.data["groups"][int(g)], names) if rec is not None else "with shared key/value heads"
            return Quantity(f"{how}: {coordinate}query head {int(h) + 1}'s reading of {names.query(int(q))}")
        case ["average", q, k]:
            return Quantity(
                f"in the map averaged over the heads, the weight {names.query(int(q))} gives {names.key(int(k))}",
                **WEIGHT,
            )
        case ["window", "pairs" | "causal_pairs" as field]:
            what = "under the sliding window" if field == "pairs" else "under the causal mask alone"
            return Quantity(f"the number of query–key pairs {what}", **COUNT)
        case ["block", field, q, c] if field in BLOCK_WORDS:
            return Quantity(f"coordinate {int(c) + 1} of {BLOCK_WORDS[field]}, for {names.token(int(q))}")
        case ["backward", "heads", h, field, i, j] if field in GRADIENT_WORDS:
            what = GRADIENT_WORDS[field](int(i), int(j), names)
            return Quantity(f"{names.head(int(h))}the gradient of the loss with respect to {what}")
        case ["backward", field, i, j] if field in GRADIENT_WORDS:
            what = GRADIENT_WORDS[field](int(i), int(j), names)
            return Quantity(f"the gradient of the loss with respect to {what}")
        case ["decode_cost", i, "prefill" | "step" | "uncached" as phase, field] if field in PASS_FIELDS:
            given_as = "as given" if int(i) == 0 else f"the length numbered {int(i) + 1} of those given"
            n = f"n tokens (n {given_as})"
            which = {
                "prefill": f"the prefill of a prompt of {n}",
                "step": f"one decode step with the cache, when the text holds {n}, the new one included",
                "uncached": "one decode step without the cache (the whole text through the layer again), when "
                f"the text holds {n}, the new one included",
            }[phase]
            return Quantity(f"in one layer, {PASS_FIELDS[field]} {which}", **COUNT)
        case ["window_cost", i, "macs"]:
            row = rec.data["window_cost"][int(i)] if rec is not None else {"n": "n", "window": "w"}
            return Quantity(
                f"at n = {_count(row['n'])} tokens under a sliding window of {_count(row['window'])} keys, the "
                "multiply-adds of the scores and the weighting of the values in one layer",
                **COUNT,
            )
        case ["cost", i, field] if field in COST_WORDS:
            n = rec.data["cost"][int(i)]["n"] if rec is not None else None
            at = f"at n = {n:,} tokens" if isinstance(n, int) else f"in row {int(i) + 1} of the table"
            return Quantity(f"{at}, {COST_WORDS[field]} in one layer", **COUNT)
    raise KeyError(path)


def _grouping(variant, names):
    """'With g = 2 key/value heads (query heads 1 and 2 read the first, …)': the grouping a
    question uses, with which key/value head each query head reads."""
    g, of = variant["kv_heads"], variant["kv_head_of"]
    if g == 1:
        return (
            f"With one key/value head shared by all {len(of)} query heads (multi-query; its W_K and W_V are the "
            "means of the query heads' own)"
        )
    groups = [[i + 1 for i, j in enumerate(of) if j == kv] for kv in range(g)]
    said = "; ".join(
        f"query heads {' and '.join(map(str, members))} read key/value head {kv + 1}"
        for kv, members in enumerate(groups)
    )
    return (
        f"With g = {g} key/value heads ({said}; each key/value head's W_K and W_V are the means of its query heads' "
        "own)"
    )


def _count(n):
    return f"{n:,}" if isinstance(n, int) else str(n)


EMBEDDING_WORDS = {
    "rows": "the row of E looked up for {token}",
    "positions": "the row of P added at {token}",
    "X": "the input row of {token}, its row of E plus its position's row of P",
}
MATRIX_WORDS = {"E": "E", "P": "P", "W_O": "W_O", "W_U": "W_U", "W_Q": "W_Q", "W_K": "W_K", "W_V": "W_V"}


def model_quantity(parts, names, rec=None):
    """The model around attention, in words: the embedding, the logits and probabilities, the
    loss, the draw, a layer of a stack and a training step."""
    match parts:
        case ["embedding", field, i, c] if field in EMBEDDING_WORDS:
            what = EMBEDDING_WORDS[field].format(token=names.token(int(i)))
            return Quantity(f"coordinate {int(c) + 1} of {what}")
        case ["logits", i, t]:
            return Quantity(f"the logit of {names.word(int(t))} at {names.token(int(i))}")
        case ["probs", i, t]:
            token = names.token(int(i))
            return Quantity(
                f"the probability the model gives {names.word(int(t))} as the token after {token}", **WEIGHT
            )
        case ["loss"]:
            return Quantity(
                "the loss: the mean over positions of −log of the probability given to the true next token",
                low=0.0,
                why="a loss of −log p with p at most 1 is 0 or more",
            )
        case ["d_logits", i, t]:
            token = names.token(int(i))
            return Quantity(f"the gradient of the loss with respect to the logit of {names.word(int(t))} at {token}")
        case ["sampling", "probs" | "renormalised" as field, t]:
            which = "at the temperature, after top-k, renormalised" if field == "renormalised" else "at the temperature"
            return Quantity(f"the probability of {names.word(int(t))} in the draw of the next token, {which}", **WEIGHT)
        case ["sampling", "choice"]:
            return Quantity("the id of the token drawn", **COUNT)
        case ["train", "loss_after"]:
            return Quantity("the loss after the step", low=0.0, why="a loss of −log p with p at most 1 is 0 or more")
        case ["train", "grads", name, h, r, c] if name in ("W_Q", "W_K", "W_V"):
            head = f"head {int(h) + 1}'s " if names.n_heads > 1 else ""
            return Quantity(f"the gradient of the loss with respect to {_entry_in(r, c)} of {head}{name}")
        case ["train", "grads", name, r, c] if name in MATRIX_WORDS:
            return Quantity(f"the gradient of the loss with respect to {_entry_in(r, c)} of {name}")
        case ["layers", l, *rest]:  # noqa: E741
            inner = quantity(".".join(rest), names, rec)
            return Quantity(f"In layer {int(l) + 1}, {_lower(inner.words)}", **_kept(inner))
    raise KeyError(".".join(parts))


def _entry_in(r, c):
    return f"the entry in row {int(r) + 1}, column {int(c) + 1}"


def _lower(text):
    return text[:1].lower() + text[1:]


def _kept(q):
    return dict(tolerance=q.tolerance, low=q.low, high=q.high, whole=q.whole, why=q.why)
