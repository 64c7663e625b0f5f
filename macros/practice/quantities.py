"""What a practice question asks, in a reader's words: its label, tolerance, range and worked solution.

A graded value is named by a path (``heads.1.weights.2.0``). The page never shows that path:
it asks "In head 2, the weight the query at position 3 (“mouse”) gives the key at position 1
(“cat”)", states how close an answer must be, refuses an answer outside the quantity's
range with the reason (a weight lies between 0 and 1; a count is a whole number), and, after
an attempt, shows the few values its worked solution needs, computed for that set of
numbers. A path no entry here words is refused by the build (``quantity`` raises KeyError).

Tolerances fit the quantity: 0.01 for a number a reader computes by hand to a few decimals
(a weight, a score, a reading), exact for a count.
"""

import re
from dataclasses import dataclass

import numpy as np

from macros.render.arithmetic import note
from macros.render.numbers import as_shown, byte_count, format_number, format_values, given

HAND = 0.01  # within this of the computed value, a hand calculation counts


@dataclass(frozen=True)
class Quantity:
    words: str  # the question, in the reader's words
    tolerance: float = HAND  # absolute (0 for a count: exact)
    low: float | None = None  # the quantity's range; an answer outside it is refused with ``why``
    high: float | None = None
    whole: bool = False  # a count: a whole number, exactly
    why: str = ""

    @property
    def stated(self):
        """How close an answer must be, as the question says it."""
        if self.whole:
            return "Give the exact whole number."
        return f"An answer counts when it is within {format_number(self.tolerance, 2)} of the computed value."


WEIGHT = dict(low=0.0, high=1.0, why="a weight lies between 0 and 1")
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
COUNT = dict(tolerance=0.0, low=0.0, whole=True, why="a count is a whole number, 0 or more")


@dataclass(frozen=True)
class Names:
    """How a lesson names its positions and heads: labels of queries and keys, the head count."""

    queries: tuple
    keys: tuple
    n_heads: int

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

    def head(self, h):
        return f"In head {h + 1}, " if self.n_heads > 1 else ""


def _head_words(field, h, q, rest, names):
    """The question for a head's field at query ``q`` (and key or coordinate ``rest``)."""
    query = names.query(q)
    key = names.key(rest) if rest is not None else None
    words = {
        "scores": (f"the raw score of {key} for {query}", {}),
        "scaled": (f"the scaled score of {key} for {query}", {}),
        "capped": (f"the capped score of {key} for {query} (its scaled score after soft-capping)", {}),
        "biased": (f"the score of {key} for {query}, scaled and with the bias added", {}),
        "Q_normed": (f"coordinate {(rest or 0) + 1} of {query}, normalised (QK-norm)", {}),
        "K_normed": (f"coordinate {(rest or 0) + 1} of {names.key(q)}, normalised (QK-norm)", {}),
        "exps": (f"the exponential of the shifted score of {key} for {query}", WEIGHT),
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
}


def quantity(path, names):
    """The Quantity a path asks for; KeyError for a path no reader's words name yet."""
    parts = str(path).split(".")
    match parts:
        case ["batch", b, *rest]:
            inner = quantity(".".join(rest), names)
            return Quantity(f"In sequence {int(b) + 1} of the batch, {_lower(inner.words)}", **_kept(inner))
        case ["heads", h, field, q, *rest]:
            return _head_words(field, int(h), int(q), int(rest[0]) if rest else None, names)
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
                    f"the factor that rescales the running sum of {names.query(int(q))} {after}",
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
            return Quantity(
                f"with the query heads sharing key/value heads (the {_ordinal(int(g))} way of grouping them), "
                f"{coordinate}query head {int(h) + 1}'s reading of {names.query(int(q))}"
            )
        case ["average", q, k]:
            return Quantity(
                f"in the map averaged over the heads, the weight {names.query(int(q))} gives {names.key(int(k))}",
                **WEIGHT,
            )
        case ["window", "pairs" | "causal_pairs" as field]:
            what = "under the sliding window" if field == "pairs" else "under the causal mask alone"
            return Quantity(f"the number of query–key pairs {what}", **COUNT)
        case ["block", field, q, c] if field in BLOCK_WORDS:
            token = names.position(int(q), names.queries, "token")  # a block's row is a token, not only a query
            return Quantity(f"coordinate {int(c) + 1} of {BLOCK_WORDS[field]}, for {token}")
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
                "uncached": f"one decode step without the cache (the whole text through the layer again), when "
                f"the text holds {n}, the new one included",
            }[phase]
            return Quantity(f"in one layer, {PASS_FIELDS[field]} {which}", **COUNT)
        case ["cost", i, field] if field.endswith(("_macs", "_numbers")):
            kind = "multiply-adds" if field.endswith("_macs") else "numbers held"
            part = field.rsplit("_", 1)[0].replace("_", " ")
            return Quantity(f"the {kind} of the {part} step, in row {int(i) + 1} of the table", **COUNT)
    raise KeyError(path)


def _ordinal(i):
    return ("first", "second", "third", "fourth", "fifth")[i] if i < 5 else f"{i + 1}th"


def _lower(text):
    return text[:1].lower() + text[1:]


def _kept(q):
    return dict(tolerance=q.tolerance, low=q.low, high=q.high, whole=q.whole, why=q.why)


# ---------------------------------------------------------------- worked solutions


def _row(values, places, visible=None):
    texts = format_values(values, places)
    if visible is not None:
        texts = [t if seen else "−∞" for t, seen in zip(texts, visible, strict=True)]
    return "[" + ", ".join(texts) + "]"


def _factor(text):
    """A number as a factor of a product: a negative one in parentheses."""
    return f"({text})" if text.startswith("−") else text


def _num(x, places):
    return format_number(x, places)


def _noted(from_shown, exact, places, operands):
    """' The weights shown are rounded: …' after a sum of rounded terms when they give another
    result at the shown places (the book's rounding note), else nothing."""
    said = note(from_shown, exact, places, operands)
    return f" {said}" if said else ""


def _head_solution(head, field, q, rest, places):
    scaled, visible = np.asarray(head["scaled"][q], dtype=object), head["visible"][q]
    scaled = [0.0 if x is None else x for x in scaled]
    weights = head["weights"][q]
    lines = [f"The scaled scores: {_row(scaled, places, visible)}."]
    if field == "biased":
        scaled, bias = _num(head["scaled"][q][rest], places), _num(head["bias"][q][rest], places)
        return [f"The scaled score {scaled} and the bias {bias} add up to {_num(head['biased'][q][rest], places)}."]
    if field in ("scores", "scaled"):
        lines = [f"The query row {_row(head['Q'][q], places)}, the key row {_row(head['K'][rest], places)}."]
        lines.append(f"Their dot product is {_num(head['scores'][q][rest], places)}.")
        if field == "scaled":
            lines.append(f"Times 1/√d_k = {_num(head['scale'], places)}: {_num(head['scaled'][q][rest], places)}.")
        return lines
    lines.append(
        f"Subtract the largest, {_num(head['shift'][q], places)}: the exponentials are "
        f"{_row(head['exps'][q], places)}, adding up to {_num(head['sums'][q], places)}."
        + _noted(as_shown(head["exps"][q], places).sum(), head["sums"][q], places, "exponentials")
    )
    if field == "weights":
        lines.append(
            f"Divided by that sum: {_row(weights, places)}; the one asked for is {_num(weights[rest], places)}."
        )
    elif field == "logsumexp":
        # the tiles end with m = the shift and l = that sum, and save m + log l
        shift, total = _num(head["shift"][q], places), _num(head["sums"][q], places)
        lines.append(f"The log-sum-exp is m + log l = {shift} + log {total} ≈ {_num(head['logsumexp'][q], places)}.")
    elif field == "output":
        column = [row[rest] for row in head["V"]]
        texts = zip(format_values(weights, places), format_values(column, places), strict=True)
        terms = " + ".join(f"{w}·{_factor(v)}" for w, v in texts)
        lines.append(f"The weights: {_row(weights, places)}.")
        lines.append(f"Coordinate {rest + 1} of the value rows: {_row(column, places)}.")
        from_shown = np.dot(as_shown(weights, places), as_shown(column, places))
        lines.append(
            f"The reading: {terms} ≈ {_num(head['output'][q][rest], places)}."
            + _noted(from_shown, head["output"][q][rest], places, "weights")
        )
    return lines


def solution(path, data, places):
    """The worked solution's lines for one set of numbers: the few values it needs, as text."""
    parts = str(path).split(".")
    match parts:
        case ["batch", b, *rest]:
            return solution(".".join(rest), data["batch"][int(b)], places)
        case ["heads", h, field, q, *rest]:
            return _head_solution(data["heads"][int(h)], field, int(q), int(rest[0]) if rest else None, places)
        case ["output", q, c]:
            column = [row[int(c)] for row in data["W_O"]]
            return [
                f"The heads' readings side by side: {_row(data['concat'][int(q)], places)}.",
                f"Column {int(c) + 1} of W_O: {_row(column, places)}.",
                f"Their dot product: {_num(data['output'][int(q)][int(c)], places)}.",
            ]
        case ["concat", q, c]:
            return [f"The heads' readings side by side: {_row(data['concat'][int(q)], places)}."]
        case ["average", q, _]:
            weights = [_row(head["weights"][int(q)], places) for head in data["heads"]]
            return [
                f"Each head's weights for that query: {'; '.join(weights)}.",
                f"Averaged entry by entry: {_row(data['average'][int(q)], places)}.",
            ]
        case ["swapped" | "swapped_with_blocks" as how, "output", q, c]:
            return [
                f"The readings side by side in the other order: {_row(data[how]['concat'][int(q)], places)}.",
                f"Through W_O{' with its blocks moved' if how == 'swapped_with_blocks' else ''}: "
                f"{_num(data[how]['output'][int(q)][int(c)], places)}.",
            ]
        case ["online", "heads", h, "blocks", b, field, q]:
            block = data["online"]["heads"][int(h)]["blocks"][int(b)]
            q = int(q)
            return [
                f"This block's scaled scores: {_row(block['scaled'][q], places)}.",
                f"Running maximum {_num(block['m'][q], places)}; rescale factor {_num(block['rescale'][q], places)}; "
                f"running sum {_num(block['l'][q], places)}.",
            ]
        case ["block", field, q, c]:
            return _block_solution(data["block"], field, int(q), int(c), places)
        case ["backward", "heads", h, "d_weights" | "d_V" | "d_scaled" | "d_scores" as field, i, j]:
            return _backward_solution(data, int(h), field, int(i), int(j), places)
        case ["backward", *rest]:
            return [f"The computed gradient: {_num(_at(data, parts), places)}."] + _backward_note(rest)
        case ["decoding", "heads", h, "steps", t, "reading", c]:
            step = data["decoding"]["heads"][int(h)]["steps"][int(t)]
            return [
                f"The scaled scores against the {len(step['scaled'])} cached keys: {_row(step['scaled'], places)}.",
                f"The weights: {_row(step['weights'], places)}.",
                f"The reading: {_row(step['reading'], places)}.",
            ]
        case ["decode_cost", i, phase, field]:
            done = data["decode_cost"][int(i)][phase]
            n = {name: given(value) for name, value in done.items() if isinstance(value, int | float)}
            lines = [
                f"The layer's weight matrices: {n['weight_numbers']} numbers; the keys and values: "
                f"{n['cache_numbers']} numbers ({n['keys']} of each, in every head).",
                f"Numbers read: {n['numbers_read']}, times {byte_count(done['bytes_per_number'])}: "
                f"{n['bytes_read']} bytes.",
            ]
            if field.endswith("macs"):
                lines = [
                    f"{n['tokens']} row{'s' if done['tokens'] > 1 else ''} projected; the last query meets "
                    f"{n['keys']} keys.",
                    f"Projections {n['projection_macs']}, scores {n['score_macs']}, weighting "
                    f"{n['weighting_macs']}, W_O {n['output_macs']}: {n['macs']} in all.",
                ]
            return lines
        case ["groups", g, "readings", h, q, *c]:
            variant = data["groups"][int(g)]
            shared = variant["kv_head_of"][int(h)] + 1
            reading = _entry(variant["readings"][int(h)][int(q)], int(c[0]) if c else 0)
            return [
                f"Query head {int(h) + 1} reads key/value head {shared} of {variant['kv_heads']}.",
                f"Its reading: {_num(reading, places)}.",
            ]
    return [f"The computed value: {_num(_at(data, parts), places)}."]


def _block_solution(block, field, q, c, places):
    """The rows a block step is computed from, for one token."""
    row = lambda name: _row(block[name][q], places)  # noqa: E731
    order = block["order"]
    into_ffn = "norm_2" if order == "pre" else "norm_1"
    if field in ("norm_1", "norm_2"):
        return _norm_solution(block, field, q, places) + [
            f"Its coordinate {c + 1}: {_num(block[field][q][c], places)}."
        ]
    lines = {
        "attention": [f"The attention layer's output row: {row('attention')}."],
        "residual_1": [f"The attention's output {row('attention')}, added to the block's input: {row('residual_1')}."],
        "pre_activation": [
            f"The feed-forward layer reads {row(into_ffn)}: times W_1, plus b_1: {row('pre_activation')}."
        ],
        "hidden": [f"Before the activation {row('pre_activation')}; after it {row('hidden')}."],
        "ffn": [f"The hidden row {row('hidden')}, times W_2, plus b_2: {row('ffn')}."],
        "residual_2": [f"The feed-forward output {row('ffn')}, added to what it read past: {row('residual_2')}."],
        "output": [f"The block's output row: {row('output')}."],
    }[field]
    return lines + [f"Its coordinate {c + 1}: {_num(block[field][q][c], places)}."]


def _norm_solution(block, field, q, places):
    """A layer norm worked for one row: the row it reads, its mean, deviations and variance, the
    divisor √(σ² + ε) and the result. The row read is not in the block's record for pre-norm's
    first norm (it is the input x = residual_1 − attention); the divisor is read off the result,
    |x − μ| / |LN(x)|, since ε is not in the record either."""
    pre, residual_1 = block["order"] == "pre", np.asarray(block["residual_1"][q], dtype=float)
    read, what = residual_1, "The first residual sum (the input plus the attention's output)"
    if field == "norm_1" and pre:
        read, what = residual_1 - np.asarray(block["attention"][q], dtype=float), "The block's input row"
    elif field == "norm_2" and not pre:
        read, what = np.asarray(block["residual_2"][q], dtype=float), "The second residual sum"
    read = np.round(read, 12)  # x + a − a: the input's whole numbers print whole
    deviations, normalised = read - read.mean(), np.asarray(block[field][q], dtype=float)
    lines = [
        f"{what}: {_row(read, places)}.",
        f"Its mean: μ = {_num(read.mean(), places)}. The deviations x − μ: {_row(deviations, places)}.",
    ]
    if not np.any(normalised):
        return lines + ["Every entry equals the mean, so every deviation is 0, and so is every normalised entry."]
    divisor = np.linalg.norm(deviations) / np.linalg.norm(normalised)
    return lines + [
        f"Their variance, the mean of their squares: σ² = {_num(deviations.var(), places)}.",
        f"Each deviation divided by √(σ² + ε) ≈ {_num(divisor, places)}: {_row(normalised, places)}.",
    ]


def _backward_solution(data, h, field, i, j, places):
    """The few values a head's gradient is worked from by hand: the weights' gradient from the
    reading's gradient and a value row; the values' gradient from a column of weights; the
    scaled (or raw) scores' gradient from one row through the softmax, a ⊙ (da − da · a)."""
    head, grads = data["heads"][h], data["backward"]["heads"][h]
    d_Z = grads["d_output"]
    if field == "d_weights":
        return [
            f"The gradient of the reading of query {i + 1}, dz (the upstream row times W_Oᵀ): {_row(d_Z[i], places)}.",
            f"The value row of key {j + 1}: {_row(head['V'][j], places)}.",
            f"Their dot product, dz · v: {_num(grads['d_weights'][i][j], places)}.",
        ]
    if field == "d_V":
        column = [row[i] for row in head["weights"]]
        coordinate = [row[j] for row in d_Z]
        return [
            f"The weight each query gives key {i + 1} (column {i + 1} of the weights): {_row(column, places)}.",
            f"Coordinate {j + 1} of each reading's gradient dz: {_row(coordinate, places)}.",
            f"Their dot product, a row of Aᵀ times a column of dZ: {_num(grads['d_V'][i][j], places)}.",
        ]
    weights, d_a = head["weights"][i], grads["d_weights"][i]
    scaled = [0.0 if x is None else x for x in head["scaled"][i]]
    lines = [
        f"The scaled scores of query {i + 1}: {_row(scaled, places, head['visible'][i])}; their softmax, "
        f"the weights: {_row(weights, places)}.",
        f"Their gradient da, dz · each value row: {_row(d_a, places)}.",
    ]
    if not head["visible"][i][j]:
        lines.append(f"Key {j + 1} is hidden from query {i + 1}: its weight is exactly 0, so its gradient is 0.")
    else:
        inner = sum(w * d for w, d in zip(weights, d_a, strict=True))
        a, d = _num(weights[j], places), _num(d_a[j], places)
        lines.append(f"da · a = {_num(inner, places)}.")
        lines.append(
            f"Entry {j + 1} of a ⊙ (da − da · a): {a} · ({d} − {_factor(_num(inner, places))}) ≈ "
            f"{_num(grads['d_scaled'][i][j], places)}."
        )
    if field == "d_scores":
        lines.append(f"Times 1/√d_k = {_num(head['scale'], places)}: {_num(grads['d_scores'][i][j], places)}.")
    return lines


def _backward_note(rest):
    """What the gradient comes from, in a line, for the gradients a lesson works by hand."""
    field = rest[-3] if rest and rest[0] == "heads" else rest[0] if rest else ""
    return {
        "d_V": ["d_V = Aᵀ · d_Z: column j of the weights times the reading's gradient."],
        "d_weights": ["d_A = d_Z · Vᵀ: the reading's gradient times each value row."],
        "d_scaled": ["d_S = A ⊙ (d_A − rowsum(d_A ⊙ A)), row by row."],
        "d_W_O": ["d_W_O = concatᵀ · d_Y."],
    }.get(field, [])


def _entry(value, c):
    """Coordinate c of a reading (a reading of width 1 is one number)."""
    return value[c] if isinstance(value, list) else value


def _at(data, parts):
    for part in parts:
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data
