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
POSITIVE = dict(low=0.0, why="elu + 1 is above 0 on every entry, and so is a sum of such entries")


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
        "sink_weight": (
            f"the weight {query} gives the sink (its weight on no key)",
            WEIGHT | {"why": "the sink's weight lies between 0 and 1"},
        ),
        "phi_Q": (f"coordinate {(rest or 0) + 1} of φ(q) for {query} (elu + 1 of its query)", POSITIVE),
        "phi_K": (f"coordinate {(rest or 0) + 1} of φ(k) for {names.key(q)} (elu + 1 of its key)", POSITIVE),
        "normalizers": (
            f"coordinate {(rest or 0) + 1} of the running normaliser N after "
            f"{names.position(q, names.queries, 'token')}",
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
}


def quantity(path, names):
    """The Quantity a path asks for; KeyError for a path no reader's words name yet."""
    parts = str(path).split(".")
    match parts:
        case ["batch", b, *rest]:
            inner = quantity(".".join(rest), names)
            return Quantity(f"In sequence {int(b) + 1} of the batch, {_lower(inner.words)}", **_kept(inner))
        case ["heads", h, "states", q, r, c]:
            token = names.position(int(q), names.queries, "token")
            return Quantity(
                f"{names.head(int(h))}row {int(r) + 1}, column {int(c) + 1} of the running state M after {token}"
            )
        case ["heads", h, field, q, *rest]:
            return _head_words(field, int(h), int(q), int(rest[0]) if rest else None, names)
        case ["latent", "c", q, c]:
            token = names.position(int(q), names.queries, "token")
            return Quantity(f"coordinate {int(c) + 1} of the latent row (the row of C = X W_DKV) of {token}")
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


def _sum_line(terms, exact, places, operands):
    """'a + b + c ≈ x', x the exact result; where the shown terms give another number at
    ``places``, the same sentence the page adds (macros.render.arithmetic.note)."""
    shown = as_shown(terms, places)
    written = " + ".join(_factor(t) if i else t for i, t in enumerate(format_values(terms, places)))
    sign = "=" if shown.sum() == exact else "≈"
    return f"{written} {sign} {_num(exact, places)}." + _spaced(note(shown.sum(), exact, places, operands))


def _products_line(a, b, exact, places, operands):
    """'a₁·b₁ + a₂·b₂ ≈ x' from the numbers as shown, with the note where rounding shows."""
    pairs = zip(format_values(a, places), format_values(b, places), strict=True)
    written = " + ".join(f"{_factor(x) if i else x}·{_factor(y)}" for i, (x, y) in enumerate(pairs))
    from_shown = float(np.dot(as_shown(a, places), as_shown(b, places)))
    sign = "=" if from_shown == exact else "≈"
    return f"{written} {sign} {_num(exact, places)}." + _spaced(note(from_shown, exact, places, operands))


def _spaced(text):
    return f" {text}" if text else ""


def _latent_solution(data, fixture, q, c, places):
    """An entry of the latent rows: the token's row of X times a column of W_DKV."""
    x = fixture["X"][q]
    column = [row[c] for row in fixture["latent"]["W_DKV"]]
    return [
        f"Token {q + 1}'s row of X: {_row(x, places)}; column {c + 1} of W_DKV: {_row(column, places)}.",
        "Their dot product: " + _products_line(x, column, data["latent"]["c"][q][c], places, "entries"),
    ]


def _latent_key_lines(data, fixture, h, k, places):
    """Where a latent head's key comes from: the token's latent row times the head's W_UK."""
    up = fixture["latent"]["heads"][h]["W_UK"]
    return [
        f"The latent row of key {k + 1}: {_row(data['latent']['c'][k], places)}; times W_UK "
        f"{'of head ' + str(h + 1) + ' ' if len(data['heads']) > 1 else ''}({_matrix(up, places)}), "
        f"the key row: {_row(data['heads'][h]['K'][k], places)}."
    ]


def _matrix(M, places):
    return "; ".join(_row(row, places) for row in M)


def _sink_solution(head, sink, q, places):
    """A row's weight on the sink: its visible scaled scores and the sink logit, through the
    softmax that counts the sink."""
    visible = head["visible"][q]
    seen = [x for x, v in zip(head["scaled"][q], visible, strict=True) if v]
    exps = [e for e, v in zip(head["exps"][q], visible, strict=True) if v]
    sink_exp = head["sink_weight"][q] * head["sums"][q]
    lines = [
        f"The scaled scores of the keys it sees: {_row(seen, places)}; the sink logit: {_num(sink, places)}.",
        f"Subtract the largest of them all, {_num(head['shift'][q], places)}: the keys' exponentials are "
        f"{_row(exps, places)} and the sink's is {_num(sink_exp, places)}.",
        "Their sum: " + _sum_line([*exps, sink_exp], head["sums"][q], places, "exponentials"),
        f"The sink's exponential divided by that sum: {_num(head['sink_weight'][q], places)}.",
    ]
    return lines


def _masked_solution(data, how, h, q, k, places):
    """A weight under the window (or the window with the first tokens kept): the keys the row
    sees there, their scaled scores, the softmax over them."""
    weights = data[how]["weights"][h][q]
    seen = [j for j, w in enumerate(weights) if w > 0]  # a visible key's weight is never 0 at these sizes
    scaled = [data["heads"][h]["scaled"][q][j] for j in seen]
    top = max(scaled)
    exps = [float(np.exp(x - top)) for x in scaled]
    total = sum(exps)
    kept = "sees" if how == "window" else "sees, the first tokens kept,"
    return [
        f"The keys the query {kept} are at positions {_and([j + 1 for j in seen])}; their scaled scores: "
        f"{_row(scaled, places)}.",
        f"Subtract the largest, {_num(top, places)}: the exponentials are {_row(exps, places)}.",
        "Their sum: " + _sum_line(exps, total, places, "exponentials"),
        f"Each divided by the sum: {_row([e / total for e in exps], places)}; key {k + 1}'s is "
        f"{_num(weights[k], places)}.",
    ]


def _and(items):
    items = [str(x) for x in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _linear_solution(head, field, q, rest, places):
    """Linear attention worked from the running state: φ(q), the column of the state M and the
    normaliser N after the token that the coordinate needs, the reading φ(q) M / (φ(q) · N)."""
    phi_q, M, N = head["phi_Q"][q], head["states"][q], head["normalizers"][q]
    column = [row[rest] for row in M]
    numerator, denominator = float(np.dot(phi_q, column)), float(np.dot(phi_q, N))
    reading = head["output"][q][rest]
    from_shown = as_shown(numerator, places) / as_shown(denominator, places)
    return [
        f"φ(q) = elu(q) + 1 of the query {_row(head['Q'][q], places)}: {_row(phi_q, places)}.",
        f"Column {rest + 1} of the state M = Σ φ(k)ᵀ v over the keys it sees: {_row(column, places)}; "
        f"the normaliser N = Σ φ(k): {_row(N, places)}.",
        "φ(q) times that column: " + _products_line(phi_q, column, numerator, places, "entries"),
        "φ(q) · N: " + _products_line(phi_q, N, denominator, places, "entries"),
        f"The reading's coordinate {rest + 1}: {_num(numerator, places)} / {_num(denominator, places)} ≈ "
        f"{_num(reading, places)}." + _spaced(note(from_shown, reading, places, "numbers")),
    ]


def _state_solution(head, q, r, c, places):
    """An entry of the running state: Σ φ(k_j)[r] v_j[c] over the keys the token sees."""
    seen = [j for j, v in enumerate(head["visible"][q]) if v]
    phis = [head["phi_K"][j][r] for j in seen]
    values = [head["V"][j][c] for j in seen]
    return [
        f"The keys the token sees: positions {_and([j + 1 for j in seen])}.",
        f"Coordinate {r + 1} of φ(k) for each: {_row(phis, places)}; coordinate {c + 1} of each value: "
        f"{_row(values, places)}.",
        "M's entry is their products added: "
        + _products_line(phis, values, head["states"][q][r][c], places, "entries"),
    ]


def _paged_solution(paged, field, places):
    """Pages and unused slots, request by request, or the two sequences sharing a prompt."""
    size = paged["page_size"]
    if field == "fork":
        fork = paged["fork"]
        prompt, (first, second) = fork["prompt_length"], fork["continuations"]
        filled = prompt % size
        lines = [
            f"The prompt's {prompt} tokens fill {prompt // size} whole page{'s' if prompt // size != 1 else ''}"
            + (
                f" and {filled} slot{'s' if filled != 1 else ''} of one more; both sequences hold these pages."
                if filled
                else "; both sequences hold them."
            ),
        ]
        if fork["copied"]:
            lines.append(
                "The first sequence writes into the shared, partly filled page: it gets a copy first (copy on write), "
                "and the second keeps the original."
            )
        tables = "; ".join(
            f"sequence {i + 1}: pages {_and([p + 1 for p in t])}" for i, t in enumerate(fork["block_tables"])
        )
        lines.append(f"After {first} and {second} new tokens, the block tables are {tables}.")
        held = sorted({page + 1 for table in fork["block_tables"] for page in table})
        lines.append(
            f"The pages in either table: {_and(held)}, {fork['pages']} in all (each sequence with its own copy of "
            f"the prompt: {fork['separate_pages']})."
        )
        return lines
    lines = []
    for i, (n, pages) in enumerate(zip(paged["lengths"], paged["pages"], strict=True)):
        if field == "paged":
            lines.append(
                f"Request {i + 1}: {n} token{'s' if n != 1 else ''} take{'s' if n == 1 else ''} ⌈{n}/{size}⌉ = "
                f"{pages} page{'s' if pages != 1 else ''}, "
                f"{pages * size} slots, {pages * size - n} unused."
            )
        else:
            lines.append(
                f"Request {i + 1}: {paged['max_length']} slots reserved, {n} used, {paged['max_length'] - n} unused."
            )
    wasted = paged["wasted_slots"][field]
    lines.append(f"All together: {' + '.join(map(str, wasted))} = {paged['total_wasted'][field]}.")
    return lines


def solution(path, data, places, fixture=None):
    """The worked solution's lines for one set of numbers: the few values it needs, as text.
    ``fixture`` is the set's numbers (the fixture's JSON form), for a solution that starts from
    an input the trace does not hold (X and W_DKV for a latent row, a head's sink logit)."""
    parts = str(path).split(".")
    match parts:
        case ["latent", "c", q, c]:
            return _latent_solution(data, fixture, int(q), int(c), places)
        case ["heads", h, "scores", q, k] if "latent" in data:
            return _latent_key_lines(data, fixture, int(h), int(k), places) + _head_solution(
                data["heads"][int(h)], "scores", int(q), int(k), places
            )
        case ["heads", h, "sink_weight", q]:
            return _sink_solution(data["heads"][int(h)], fixture["sink"]["logits"][int(h)], int(q), places)
        case ["heads", h, "states", q, r, c]:
            return _state_solution(data["heads"][int(h)], int(q), int(r), int(c), places)
        case ["heads", h, "output" | "phi_Q" | "normalizers" as field, q, *rest] if "phi_Q" in data["heads"][int(h)]:
            return _linear_solution(data["heads"][int(h)], field, int(q), int(rest[0]) if rest else 0, places)
        case ["window" | "streaming" as how, "weights", h, q, k]:
            return _masked_solution(data, how, int(h), int(q), int(k), places)
        case ["paged", "total_wasted", field]:
            return _paged_solution(data["paged"], field, places)
        case ["paged", "fork", "pages"]:
            return _paged_solution(data["paged"], "fork", places)
        case ["batch", b, *rest]:
            return solution(".".join(rest), data["batch"][int(b)], places, fixture)
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
