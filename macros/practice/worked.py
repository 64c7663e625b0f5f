"""The worked solution of a practice question: every step the question needs, for one set of
numbers, as plain text a reader can follow and redo with a calculator.

A solution starts from the numbers on the panel and ends with the value asked, as the page
formats it (``check_reaches`` refuses one that does not). Each step is written in the page's
words (the scaled scores, the shift, the exponentials, the weights, the reading), positions
counted from 1; each sum, product and quotient is written from the numbers it shows, with
the book's rounding note (macros.render.arithmetic.note) where the shown numbers give
another result at the lesson's decimals. macros/practice/worked_sums.py redoes every one of
them and stops the build at a miss with no note.

Matrix names are written W_Q, d_k: the page shows what follows the underscore as a subscript.
A path with no solution here is refused (KeyError): no question ships without its working.
"""

import numpy as np

from macros.practice import worked_model
from macros.practice.record import UNITS
from macros.practice.worked_lines import (
    _and,
    _dot,
    _embedded_lines,
    _factor,
    _num,
    _ratio,
    _result,
    _row,
    _softmax_lines,
    _spaced,
    _sum,
    _visible_keys,
    _weight_line,
    _weights_line,
)
from macros.render.arithmetic import note
from macros.render.numbers import ACTIVATION_NAMES, as_shown, format_rows, format_values, given

# ---------------------------------------------------------------- numbers as text


def _rows(M, places):
    """A matrix as rows, every entry formatted alike (one decimal style for the whole matrix)."""
    return "; ".join("[" + ", ".join(row) + "]" for row in format_rows(M, places))


def _times(a, b, exact, places, operands="numbers"):
    x, y = _num(a, places), _num(b, places)
    return _result(
        f"{x} × {_factor(y)}", float(as_shown(a, places)) * float(as_shown(b, places)), exact, places, operands
    )


def _entry(value, c):
    """Coordinate c of a row (a row of width 1 is one number)."""
    return value[c] if isinstance(value, list) else value


def _column(M, c):
    return [row[c] for row in M]


# ---------------------------------------------------------------- where queries and keys come from


def _projected(plain, rec, h, name, rows, places):
    """How the rows of Q, K or V (``name``) the question reads come about: from X (and its
    position encodings, or the source's rows) times the head's W, or given directly (a slice
    of them per head)."""
    head = rec.data["heads"][h]
    letter = name.lower()
    role = {"Q": "query", "K": "key", "V": "value"}[name]
    rows_given = "X" in plain or "embedding" in plain
    if rows_given and "heads" in plain and name in ("Q", "K", "V") and f"W_{name}" in plain["heads"][h]:
        encoded = "X_encoded" in rec.data
        from_source = name != "Q" and "source" in plain
        X = rec.data["X_encoded"] if encoded else plain["source"] if from_source else _input_rows(plain, rec)
        row = "the source's row" if from_source else "x + PE" if encoded else "x"
        W = f"W_{name}" + (f" of head {h + 1}" if len(plain["heads"]) > 1 else "")
        said = "; ".join(
            f"{row} {_row(X[i], places)} gives {letter}_{i + 1} = {_row(_as_row(head[name][i]), places)}" for i in rows
        )
        plural = "s" if len(rows) > 1 else ""
        return f"The {role}{plural}, {row} times {W}: {said}."
    heads = len(rec.data["heads"])
    many = len(head[name]) > 1 or name != "Q"
    shown = "; ".join(
        (f"{letter}_{i + 1} = " if many else f"{letter} = ") + _row(_as_row(head[name][i]), places) for i in rows
    )
    if heads > 1 and name in plain:
        width = len(_as_row(head[name][0]))
        start = h * width
        cols = f"column {start + 1}" if width == 1 else f"columns {start + 1} to {start + width}"
        return f"Head {h + 1} reads {cols} of {name}: {shown}."
    what = {"Q": "The query" if not many else "The queries", "K": "The keys", "V": "The values"}[name]
    return f"{what}: {shown}."


def _as_row(value):
    return value if isinstance(value, list) else [value]


def _input_rows(plain, rec):
    """X as given, or made from the embedding (E[ids] + P), which the solution says first."""
    return plain["X"] if "X" in plain else rec.data["embedding"]["X"]


def _score_lines(plain, rec, h, q, keys, places, scaled=True):
    """The query's raw scores against ``keys`` (dot products), then divided by √d_k."""
    head = rec.data["heads"][h]
    if plain.get("additive"):
        return _additive_lines(plain, head, q, keys, places)
    lines = []
    if head.get("theta") is not None:
        lines += _rotary_lines(head, q, keys, places)
    else:
        lines.append(_projected(plain, rec, h, "Q", [q], places))
        lines.append(_projected(plain, rec, h, "K", keys, places))
    q_row = _as_row(head["Q"][q])
    query = f"q_{q + 1}" if len(head["Q"]) > 1 else "q"
    for j in keys:
        lines.append(f"{query}·k_{j + 1}: " + _dot(q_row, _as_row(head["K"][j]), head["scores"][q][j], places))
    if scaled:
        d_k = len(q_row)
        scaled_row = [head["scaled"][q][j] for j in keys]
        if d_k == 1:
            lines.append(f"d_k = 1, so √d_k = 1 and the scaled scores are the raw scores: {_row(scaled_row, places)}.")
        else:
            divided = ", ".join(
                _result(
                    f"{_num(head['scores'][q][j], places)} / √{d_k}",
                    float(as_shown(head["scores"][q][j], places)) / np.sqrt(d_k),
                    head["scaled"][q][j],
                    places,
                    "raw scores",
                ).rstrip(".")
                for j in keys
            )
            lines.append(f"Each divided by √d_k = √{d_k}, the scaled scores: {divided}.")
    return lines


def _additive_lines(plain, head, q, keys, places):
    """Additive scores: v_a · tanh(q W_a + k U_a) for each key, not divided by √d_k."""
    net = plain["additive"]
    W_a, U_a, v_a = (np.asarray(net[name], dtype=float) for name in ("W_a", "U_a", "v_a"))
    q_row = np.asarray(_as_row(head["Q"][q]), dtype=float)
    qW = q_row @ W_a  # (d_a,)
    lines = [
        "An additive score is v_a · tanh(q W_a + k U_a), and it is not divided by √d_k.",
        f"q W_a for the query {_row(q_row, places)}: {_row(qW, places)}.",
    ]
    for j in keys:
        kU = np.asarray(_as_row(head["K"][j]), dtype=float) @ U_a  # (d_a,)
        t = np.tanh(qW + kU)
        lines.append(
            f"Key {j + 1}: k U_a = {_row(kU, places)}; added to q W_a, {_row(qW + kU, places)}; tanh of each, "
            f"{_row(t, places)}; times v_a: " + _dot(v_a, t, head["scores"][q][j], places)
        )
    return lines


def _rotary_lines(head, q, keys, places):
    """The query and keys projected, then each coordinate pair turned by (position − 1)·θ_i."""
    theta = head["theta"]
    lines = [
        f"The frequencies θ_i of the coordinate pairs: {_row(theta, places)}. A token at position p (counted "
        "from 1) turns pair i by (p − 1)·θ_i radians, the formula's position counting from 0."
    ]
    for role, i, before, after in [("query", q, head["Q_projected"][q], head["Q"][q])] + [
        ("key", j, head["K_projected"][j], head["K"][j]) for j in keys
    ]:
        angles = [i * t for t in theta]
        lines.append(
            f"The {role} at position {i + 1}, projected: {_row(before, places)}; its angles {_row(angles, places)}; "
            f"turned: {_row(after, places)}."
        )
    return lines


def _softmax_of_head(head, q, places, plain=None):
    """The softmax of a head's row: of its scaled scores (additive scores are not scaled), or of
    what a cap or a bias made of them."""
    lines, into = [], head["scaled"][q]
    what = "additive scores" if plain is not None and plain.get("additive") else "scaled scores"
    seen = _visible_keys(head, q)
    if head.get("capped") is not None:
        into, what = head["capped"][q], "capped scores"
        lines.append(f"Soft-capped, the scaled scores become {_row(into, places, head['visible'][q])}.")
    if head.get("biased") is not None:
        bias, before = head["bias"][q], into
        added = ", ".join(_sum([before[j], bias[j]], head["biased"][q][j], places).rstrip(".") for j in seen)
        lines.append(
            f"The ALiBi bias −m·(i − j) for each key it sees: {_row([bias[j] for j in seen], places)}; added: {added}."
        )
        into, what = head["biased"][q], "biased scores"
    return lines + _softmax_lines(
        into, head["visible"][q], head["shift"][q], head["exps"][q], head["sums"][q], places, what
    )


def _weights_solution(plain, rec, h, q, k, places):
    head = rec.data["heads"][h]
    lines = _embedded_lines(plain, rec, range(len(head["Q"])), places)
    lines += _score_lines(plain, rec, h, q, _visible_keys(head, q), places)
    lines += _softmax_of_head(head, q, places, plain)
    lines.append(_weight_line(head["exps"][q], head["sums"][q], head["weights"][q], k, places))
    return lines


def _reading_lines(weights, V, c, exact, places, values_from=""):
    column = [_entry(row, c) for row in V]
    return [
        f"Coordinate {c + 1} of each value row{values_from}: {_row(column, places)}.",
        "The reading, the weights times those coordinates: " + _dot(weights, column, exact, places, "weights"),
    ]


def _output_solution(plain, rec, h, q, c, places):
    """A coordinate of a head's reading: its scores, its softmax, its values, the weighted sum."""
    head = rec.data["heads"][h]
    keys = _visible_keys(head, q)
    lines = _score_lines(plain, rec, h, q, keys, places) + _softmax_of_head(head, q, places, plain)
    lines.append(_weights_line(head["weights"][q], places))
    values = _values_line(plain, rec, h, keys, places)
    return (
        lines
        + values
        + _reading_lines(
            [head["weights"][q][j] for j in keys],
            [head["V"][j] for j in keys],
            c,
            head["output"][q][c],
            places,
            f" of the keys it sees (positions {_and([j + 1 for j in keys])})" if len(keys) < len(head["V"]) else "",
        )
    )


def _values_line(plain, rec, h, keys, places):
    if "X" in plain and "heads" in plain and "W_V" in plain["heads"][h]:
        return [_projected(plain, rec, h, "V", keys, places)]
    if len(rec.data["heads"]) > 1 and "V" in plain:
        return [_projected(plain, rec, h, "V", keys, places)]
    return []


def _head_compact(plain, rec, h, q, places, reading=True):
    """One head's work for one query in a line: its query, keys and values, scaled scores,
    weights and reading, each as a row."""
    head = rec.data["heads"][h]
    keys = _visible_keys(head, q)
    parts = [
        f"q = {_row(_as_row(head['Q'][q]), places)}",
        "keys " + "; ".join(_row(_as_row(head["K"][j]), places) for j in keys),
    ]
    if reading:
        parts.append("values " + "; ".join(_row(_as_row(head["V"][j]), places) for j in keys))
    parts += [
        f"scaled scores {_row([head['scaled'][q][j] for j in keys], places)}",
        f"weights {_row([head['weights'][q][j] for j in keys], places)}",
    ]
    if reading:
        parts.append(f"reading {_row(_as_row(head['output'][q]), places)}")
    seen = "" if len(keys) == len(head["visible"][q]) else f" (it sees keys {_and([j + 1 for j in keys])})"
    return f"Head {h + 1}{seen}: " + ", ".join(parts) + "."


# ---------------------------------------------------------------- solutions by path


def solution(path, rec, places, plain):
    """The worked solution's lines for one set of numbers: ``rec`` its Record, ``plain`` its
    numbers (the fixture's JSON form); KeyError for a path with no solution."""
    parts = str(path).split(".")
    data = rec.data
    match parts:
        case [("millions" | "billions" | "mib" | "gib") as unit, *rest]:
            return _unit_solution(unit, ".".join(rest), rec, places, plain)
        case ["embedding", "rows" | "positions" | "X" as field, i, c]:
            return worked_model.embedding_solution(plain, rec, field, int(i), int(c), places)
        case ["probs", i, t]:
            return worked_model.probability_solution(plain, rec, int(i), int(t), places)
        case ["d_logits", i, t]:
            return worked_model.logit_gradient_solution(plain, rec, int(i), int(t), places)
        case ["backward", "upstream", i, c] if "logits" in data:
            return worked_model.upstream_solution(plain, rec, int(i), int(c), places)
        case ["sampling", "probs" | "renormalised" as field, t]:
            return worked_model.sampling_solution(plain, rec, field, int(t), places)
        case ["layers", l, "heads", h, "weights", q, k]:
            return worked_model.stack_weights_solution(plain, rec, int(l), int(h), int(q), int(k), places)
        case ["batch", b, *rest]:
            return _batch_solution(int(b), rest, rec, places, plain)
        case ["latent", "c", q, c]:
            return _latent_solution(data, plain, int(q), int(c), places)
        case ["heads", h, "scores", q, k] if "latent" in data:
            return _latent_key_lines(data, plain, int(h), int(k), places) + _latent_score(
                data, int(h), int(q), int(k), places
            )
        case ["heads", h, "sink_weight", q]:
            return _sink_solution(data["heads"][int(h)], plain["sink"]["logits"][int(h)], int(q), places)
        case ["heads", h, "states", q, r, c]:
            return _state_solution(data["heads"][int(h)], int(q), int(r), int(c), places)
        case ["heads", h, "output" | "phi_Q" | "normalizers" as field, q, *rest] if "phi_Q" in data["heads"][int(h)]:
            return _linear_solution(data["heads"][int(h)], field, int(q), int(rest[0]) if rest else 0, places)
        case ["heads", h, "weights", q, k]:
            return _weights_solution(plain, rec, int(h), int(q), int(k), places)
        case ["heads", h, "output", q, c]:
            return _output_solution(plain, rec, int(h), int(q), int(c), places)
        case ["heads", h, "scores" | "scaled" as field, q, k]:
            return _score_lines(plain, rec, int(h), int(q), [int(k)], places, scaled=field == "scaled")
        case ["heads", h, "biased", q, k]:
            return _biased_solution(plain, rec, int(h), int(q), int(k), places)
        case ["heads", h, "Q", q, c] if data["heads"][int(h)].get("theta") is not None:
            return _rotated_solution(data["heads"][int(h)], int(q), int(c), places)
        case ["heads", h, "logsumexp", q]:
            return _logsumexp_solution(plain, rec, int(h), int(q), places)
        case ["unscaled", "heads", h, "weights", q, k]:
            return _unscaled_solution(plain, rec, int(h), int(q), int(k), places)
        case ["tempered", "heads", h, "weights", q, k]:
            return _tempered_solution(plain, rec, int(h), int(q), int(k), places)
        case ["wide", "weights" | "output" as field, q, k]:
            return _wide_solution(data["wide"], field, int(q), int(k), places)
        case ["fused", *rest]:
            return _fused_solution(data["fused"], plain, rest, places)
        case ["tiles", "skipped" | "computed" as field]:
            return _tiles_count_solution(data["tiles"], field)
        case ["tiles", "running_max" | "running_sum" as field, q, b]:
            return _tile_running_solution(rec, field, int(q), int(b), places)
        case ["kv_cache", field]:
            return _cache_solution(data["kv_cache"], field, places)
        case ["X_encoded", i, c]:
            return _encoding_solution(plain, rec, int(i), int(c), places)
        case ["window" | "streaming" as how, "weights", h, q, k]:
            return _masked_solution(data, how, int(h), int(q), int(k), places)
        case ["paged", "total_wasted", field]:
            return _paged_solution(data["paged"], field)
        case ["paged", "fork", "pages"]:
            return _paged_solution(data["paged"], "fork")
        case ["output", q, c]:
            return _layer_output_solution(plain, rec, int(q), int(c), places)
        case ["concat", q, c]:
            return _output_solution(plain, rec, int(c) // _width(data), int(q), int(c) % _width(data), places)
        case ["average", q, k]:
            return _average_solution(plain, rec, int(q), int(k), places)
        case ["swapped" | "swapped_with_blocks" as how, "output", q, c]:
            return _swapped_solution(plain, rec, how, int(q), int(c), places)
        case ["online", "heads", h, "blocks", b, field, q]:
            return _online_solution(data["online"]["heads"][int(h)], field, int(b), int(q), places)
        case ["block", field, q, c]:
            return _block_solution(data["block"], plain, field, int(q), int(c), places)
        case ["backward", "heads", h, "d_weights" | "d_V" | "d_scaled" | "d_scores" as field, i, j]:
            return _backward_solution(data, int(h), field, int(i), int(j), places)
        case ["decoding", "heads", h, "steps", t, "reading", c]:
            return _decoding_solution(plain, rec, int(h), int(t), int(c), places)
        case ["decode_cost", i, phase, field]:
            return _decode_cost_solution(data["decode_cost"][int(i)][phase], field)
        case ["groups", g, "readings", h, q, *c]:
            return _group_solution(plain, rec, int(g), int(h), int(q), int(c[0]) if c else 0, places)
        case ["cost", i, field]:
            return _cost_solution(data["cost"][int(i)], field)
        case ["window_cost", i, "macs"]:
            return _window_cost_solution(data["window_cost"][int(i)])
    raise KeyError(path)


def _width(data):
    return len(_as_row(data["heads"][0]["output"][0]))


def check_reaches(lines, value, q, places, path, number, file):
    """A PracticeError when a worked solution's last line does not show the value asked, as
    the page formats it (a count written whole, with thousands separators)."""
    from macros.errors import PracticeError

    shown = given(int(round(value))) if q.whole else _num(value, places)
    if not lines or shown not in lines[-1].replace("−", "−"):
        raise PracticeError(
            file,
            "practice.answer",
            f"a worked solution for {path} whose last line shows the value asked ({shown})",
            f"in set {number}: {lines[-1] if lines else 'no lines'!r}",
        )


# ---------------------------------------------------------------- kinds of question


def _batch_solution(b, rest, rec, places, plain):
    """A question about one sequence of a padded batch: its own layer, its padding said."""
    sequence = rec.data["batch"][b]
    inner = _Sub(sequence, rec)
    lengths = plain["key_length"] if isinstance(plain["key_length"], list) else [plain["key_length"]]
    n = len(sequence["heads"][0]["visible"][0])
    padding = f"key {n} is" if lengths[b] == n - 1 else f"keys {lengths[b] + 1} to {n} are"
    said = (
        f"Sequence {b + 1} holds {lengths[b]} real tokens; {padding} padding, hidden from every query."
        if lengths[b] < n
        else f"Sequence {b + 1} holds {n} real tokens, no padding."
    )
    return [said] + solution(".".join(rest), inner, places, {k: v for k, v in plain.items() if k != "key_length"})


class _Sub:
    """A record's part (one sequence of a batch) read as a record by the solutions."""

    def __init__(self, data, parent):
        self.data, self.parent = data, parent

    @property
    def params(self):
        return self.parent.params


def _biased_solution(plain, rec, h, q, k, places):
    head = rec.data["heads"][h]
    m = plain["alibi"][h]
    lines = _score_lines(plain, rec, h, q, [k], places)
    bias = head["bias"][q][k]
    lines.append(
        f"The bias, −m·(i − j) with this head's slope m = {_num(m, places)}, query {q + 1} and key {k + 1}: "
        + _result(
            f"−{_num(m, places)}·({q + 1} − {k + 1})", -float(as_shown(m, places)) * (q - k), bias, places, "numbers"
        )
    )
    lines.append(
        "The scaled score plus the bias: " + _sum([head["scaled"][q][k], bias], head["biased"][q][k], places, "numbers")
    )
    return lines


def _rotated_solution(head, q, c, places):
    """A coordinate of a turned query: its pair turned by (p − 1)·θ_i."""
    pair, first = c // 2, c % 2 == 0
    x, y = head["Q_projected"][q][2 * pair], head["Q_projected"][q][2 * pair + 1]
    angle = q * head["theta"][pair]
    cos, sin = float(np.cos(angle)), float(np.sin(angle))
    exact = head["Q"][q][c]
    if first:
        written, from_shown = (
            f"{_num(x, places)}·{_factor(_num(cos, places))} − {_factor(_num(y, places))}·{_factor(_num(sin, places))}",
            (
                float(as_shown(x, places)) * float(as_shown(cos, places))
                - float(as_shown(y, places)) * float(as_shown(sin, places))
            ),
        )
    else:
        written, from_shown = (
            f"{_num(x, places)}·{_factor(_num(sin, places))} + {_factor(_num(y, places))}·{_factor(_num(cos, places))}",
            (
                float(as_shown(x, places)) * float(as_shown(sin, places))
                + float(as_shown(y, places)) * float(as_shown(cos, places))
            ),
        )
    return [
        f"The query at position {q + 1}, projected (x W_Q): {_row(head['Q_projected'][q], places)}. Coordinate "
        f"{c + 1} belongs to pair {pair + 1}, coordinates {2 * pair + 1} and {2 * pair + 2}: "
        f"({_num(x, places)}, {_num(y, places)}).",
        f"Its frequency θ_{pair + 1} = {_num(head['theta'][pair], places)}; position {q + 1} turns it by "
        f"({q + 1} − 1)·θ = {_num(angle, places)} radians: cos = {_num(cos, places)}, sin = {_num(sin, places)}.",
        (
            "The first of the pair turns to x·cos − y·sin: "
            if first
            else "The second of the pair turns to x·sin + y·cos: "
        )
        + _result(written, from_shown, exact, places, "numbers"),
    ]


def _logsumexp_solution(plain, rec, h, q, places):
    head = rec.data["heads"][h]
    lines = _score_lines(plain, rec, h, q, _visible_keys(head, q), places) + _softmax_of_head(head, q, places, plain)
    shift, total = head["shift"][q], head["sums"][q]
    from_shown = float(as_shown(shift, places)) + float(np.log(as_shown(total, places)))
    lines.append(
        "The log-sum-exp is m + log l = "
        + _result(
            f"{_num(shift, places)} + log {_num(total, places)}", from_shown, head["logsumexp"][q], places, "numbers"
        )
    )
    return lines


def _unscaled_solution(plain, rec, h, q, k, places):
    head, parts = rec.data["heads"][h], rec.data["unscaled"]["heads"][h]
    keys = _visible_keys(head, q)
    lines = _score_lines(plain, rec, h, q, keys, places, scaled=False)
    lines.append("Without the division by √d_k, these raw scores go into the softmax as they are.")
    lines += _softmax_lines(
        head["scores"][q],
        head["visible"][q],
        parts["shift"][q],
        parts["exps"][q],
        parts["sums"][q],
        places,
        "raw scores",
    )
    lines.append(_weight_line(parts["exps"][q], parts["sums"][q], parts["weights"][q], k, places))
    return lines


def _tempered_solution(plain, rec, h, q, k, places):
    head, tempered = rec.data["heads"][h], rec.data["tempered"]
    parts, T = tempered["heads"][h], tempered["temperature"]
    keys = _visible_keys(head, q)
    lines = _score_lines(plain, rec, h, q, keys, places)
    divided = parts["divided"][q]
    from_shown = as_shown([head["scaled"][q][j] for j in keys], places) / T
    lines.append(
        f"Divided by the temperature T = {T:g}: {_row(divided, places, head['visible'][q])}."
        + _spaced(note(from_shown, [divided[j] for j in keys], places, "scaled scores"))
    )
    lines += _softmax_lines(
        divided, head["visible"][q], parts["shift"][q], parts["exps"][q], parts["sums"][q], places, "divided scores"
    )
    lines.append(_weight_line(parts["exps"][q], parts["sums"][q], parts["weights"][q], k, places))
    return lines


def _wide_solution(wide, field, q, k, places):
    keys = [j for j, v in enumerate(wide["visible"][q]) if v]
    d = len(wide["Q"][0])
    lines = [
        f"One head reads whole rows: the query {_row(wide['Q'][q], places)}; the keys "
        f"{'; '.join(_row(wide['K'][j], places) for j in keys)}."
    ]
    for j in keys:
        raw = float(np.dot(wide["Q"][q], wide["K"][j]))
        lines.append(f"q·k_{j + 1}: " + _dot(wide["Q"][q], wide["K"][j], raw, places))
    raws = {j: float(np.dot(wide["Q"][q], wide["K"][j])) for j in keys}
    divided = ", ".join(
        _result(
            f"{_num(raws[j], places)} / √{d}",
            float(as_shown(raws[j], places)) / np.sqrt(d),
            wide["scaled"][q][j],
            places,
            "raw scores",
        ).rstrip(".")
        for j in keys
    )
    lines.append(f"Each divided by √d_k = √{d}, the scaled scores: {divided}.")
    lines += _softmax_lines(
        wide["scaled"][q], wide["visible"][q], wide["shift"][q], wide["exps"][q], wide["sums"][q], places
    )
    if field == "weights":
        lines.append(_weight_line(wide["exps"][q], wide["sums"][q], wide["weights"][q], k, places))
    return lines


def _fused_solution(fused, plain, rest, places):
    d_k, heads = fused["d_k"], len(fused["W_Q"])
    owners = "; ".join(
        f"head {h + 1}: columns {h * d_k + 1} to {h * d_k + d_k}" if d_k > 1 else f"head {h + 1}: column {h + 1}"
        for h in range(heads)
    )
    lines = [f"W_Q side by side holds {heads} heads of d_k = {d_k} columns each: {owners}."]
    match rest:
        case ["Q", i, c]:
            i, c = int(i), int(c)
            h, j = fused["head"][c], fused["column"][c]
            column = _column(fused["W_Q"][h - 1], j - 1)
            lines += [
                f"Column {c + 1} is head {h}'s column {j}: {_row(column, places)}. Row {i + 1} of X: "
                f"{_row(plain['X'][i], places)}.",
                "Their dot product: " + _dot(plain["X"][i], column, fused["Q"][i][c], places),
            ]
        case ["head", c]:
            c = int(c)
            lines.append(f"Column {c + 1} lies in head {fused['head'][c]}'s columns: it is head {fused['head'][c]}.")
        case ["column", c]:
            c = int(c)
            h = fused["head"][c]
            lines.append(
                f"Column {c + 1} is in head {h}, whose columns start at {(h - 1) * d_k + 1}: it is that head's "
                f"column {c + 1} − {(h - 1) * d_k} = {fused['column'][c]}."
            )
        case _:
            raise KeyError(".".join(rest))
    return lines


def _tiles_count_solution(tiles, field):
    queries = "; ".join(f"{a + 1}–{b}" if b - a > 1 else f"{a + 1}" for a, b in tiles["query_blocks"])
    keys = "; ".join(f"{a + 1}–{b}" if b - a > 1 else f"{a + 1}" for a, b in tiles["key_blocks"])
    n_q, n_k = len(tiles["query_blocks"]), len(tiles["key_blocks"])
    skipped = tiles["skipped_tiles"]
    listed = "; ".join(
        f"queries {a + 1}–{b} with keys {c + 1}–{d}" if b - a > 1 or d - c > 1 else f"query {a + 1} with key {c + 1}"
        for (a, b), (c, d) in skipped
    )
    lines = [
        f"The queries fall into {n_q} blocks ({queries}), the keys into {n_k} ({keys}): {n_q} × {n_k} = "
        f"{n_q * n_k} tiles.",
        "Under the causal mask a tile is skipped when its first key comes after its last query: no query of it "
        "sees any key of it.",
        f"Skipped: {listed}; {len(skipped)} in all." if skipped else "No tile is skipped: 0 in all.",
    ]
    if field == "computed":
        lines.append(f"Run: {n_q * n_k} − {len(skipped)} = {tiles['computed']}.")
    return lines


def _running_lines(steps, places, label="block"):
    """A query's running maximum and sum, block by block: each block's scores, the new maximum,
    the old sum rescaled by exp(m_old − m_new), plus the block's exponentials."""
    lines, m_old, l_old = [], None, None
    for number, (keys, scaled, m_new, exps, total) in steps:
        if not keys:
            lines.append(f"{label.capitalize()} {number}: the query sees none of its keys; nothing changes.")
            continue
        where = f"key {keys[0] + 1}" if len(keys) == 1 else f"keys {keys[0] + 1} to {keys[-1] + 1}"
        head = f"{label.capitalize()} {number} ({where}): scaled scores {_row(scaled, places)}"
        if m_old is None:
            lines.append(
                f"{head}; the running maximum m = {_num(m_new, places)}; the exponentials exp(s − m): "
                f"{_row(exps, places)}."
            )
            lines.append(
                "The running sum l: "
                + (_sum(exps, total, places, "exponentials") if len(exps) > 1 else f"{_num(total, places)}.")
            )
        else:
            rescale = float(np.exp(m_old - m_new))
            lines.append(
                f"{head}; the maximum becomes the larger of {_num(m_old, places)} and {_num(max(scaled), places)}, "
                f"m = {_num(m_new, places)}; the block's exponentials exp(s − m): {_row(exps, places)}."
            )
            lines.append(
                "The old sum's rescale factor, exp(m_old − m_new): "
                + _result(
                    f"exp({_num(m_old, places)} − {_factor(_num(m_new, places))})",
                    float(np.exp(float(as_shown(m_old, places)) - float(as_shown(m_new, places)))),
                    rescale,
                    places,
                    "maxima",
                )
            )
            lines.append(
                "The running sum l, the old sum rescaled plus the block's exponentials: "
                + _result(
                    f"{_num(l_old, places)} × {_num(rescale, places)} + "
                    + " + ".join(_factor(t) if i else t for i, t in enumerate(format_values(exps, places))),
                    float(as_shown(l_old, places)) * float(as_shown(rescale, places)) + as_shown(exps, places).sum(),
                    total,
                    places,
                    "numbers",
                )
            )
        m_old, l_old = m_new, total
    return lines


def _online_solution(head, field, b, q, places):
    steps = []
    for number, block in enumerate(head["blocks"][: b + 1], start=1):
        keys = list(range(block["start"], block["stop"]))
        seen = [j for j, s in zip(keys, block["scaled"][q], strict=True) if s is not None]
        scaled = [s for s in block["scaled"][q] if s is not None]
        exps = [block["exps"][q][keys.index(j)] for j in seen]
        steps.append((number, (seen, scaled, block["m"][q], exps, block["l"][q])))
    lines = _running_lines(steps, places)
    block = head["blocks"][b]
    if field == "m":
        lines.append(f"The running maximum after block {b + 1}: {_num(block['m'][q], places)}.")
    elif field == "rescale":
        lines.append(f"The rescale factor at block {b + 1}: {_num(block['rescale'][q], places)}.")
    return lines


def _tile_running_solution(rec, field, q, b, places):
    head, tiles = rec.data["heads"][0], rec.data["tiles"]
    block = next(qb for qb in tiles["query_blocks"] if qb[0] <= q < qb[1])
    lines = [
        f"The query at position {q + 1} is in the query block of positions {block[0] + 1} to {block[1]}; its tiles "
        f"run against the key blocks in order."
    ]
    steps = []
    for number, (start, stop) in enumerate(tiles["key_blocks"][: b + 1], start=1):
        keys = [j for j in range(start, stop) if head["visible"][q][j]]
        scaled = [head["scaled"][q][j] for j in keys]
        m, total = tiles["running_max"][q][number - 1], tiles["running_sum"][q][number - 1]
        exps = [float(np.exp(s - m)) for s in scaled] if keys else []
        steps.append((number, (keys, scaled, m, exps, total)))
    lines += _running_lines(steps, places, "key block")
    if field == "running_max":
        lines.append(f"The running maximum after key block {b + 1}: {_num(tiles['running_max'][q][b], places)}.")
    return lines


def _cache_solution(cache, field, places):
    s = cache["sizes"]
    per = cache["bytes_per_token"]
    lines = [
        f"Each token leaves a key and a value in every head of every layer; in bytes, layers × heads × 2 × d_k × bytes "
        f"a number: {s['layers']} × {s['n_heads']} × 2 × {s['d_k']} × {s['bytes_per_number']} = {given(per)}."
    ]
    if field == "bytes_per_token":
        return lines
    if field == "gib":
        n, total = cache["length"], cache["bytes"]
        return lines + [
            f"After {given(n)} tokens, in bytes: {given(n)} × {given(per)} = {given(total)}.",
            "In GiB, divided by 2^30: "
            + _result(f"{given(total)} / {given(2**30)}", total / 2**30, cache["gib"], places, "numbers"),
        ]
    budget = cache["budget_gib"]
    budget_bytes = int(budget * 2**30)
    return lines + [
        f"{budget:g} GiB in bytes: {budget:g} × {given(2**30)} = {given(budget_bytes)}.",
        f"Divided by the bytes per token: {given(budget_bytes)} / {given(per)} ≈ "
        f"{_num(budget_bytes / per, places)}; whole tokens: {given(cache['tokens'])}.",
    ]


def _encoding_solution(plain, rec, i, c, places):
    """x + PE for one coordinate: the sinusoid of the position (counted from 0 in the formula)."""
    d = len(plain["X"][0])
    pair = c // 2
    p = i
    freq = 1 / 10000 ** (2 * pair / d)
    angle = p * freq
    fn = "sin" if c % 2 == 0 else "cos"
    pe = rec.data["PE"][i][c]
    x = plain["X"][i][c]
    return [
        f"The token at position {i + 1} has p = {p} in the formula, which counts positions from 0. Coordinate "
        f"{c + 1} is {'the first' if c % 2 == 0 else 'the second'} of pair {pair + 1}, i = {pair}: "
        f"PE = {fn}(p / 10000^(2i/d_model)) with d_model = {d}.",
        f"p / 10000^({2 * pair}/{d}) = {p} × {_num(freq, places)} = {_num(angle, places)}; "
        + _result(
            f"{fn}({_num(angle, places)})", getattr(np, fn)(float(as_shown(angle, places))), pe, places, "numbers"
        ),
        f"Its input coordinate is {_num(x, places)}; with the encoding added: "
        + _sum([x, pe], rec.data["X_encoded"][i][c], places),
    ]


def _layer_output_solution(plain, rec, q, c, places):
    """The layer's output: every head's reading, side by side, times a column of W_O."""
    data = rec.data
    lines = []
    for h in range(len(data["heads"])):
        lines.append(_head_compact(plain, rec, h, q, places))
    column = _column(data["W_O"], c)
    lines += [
        f"Side by side, the readings: {_row(data['concat'][q], places)}. Column {c + 1} of W_O: "
        f"{_row(column, places)}.",
        "Their dot product: " + _dot(data["concat"][q], column, data["output"][q][c], places, "readings"),
    ]
    return lines


def _average_solution(plain, rec, q, k, places):
    data = rec.data
    lines = [_head_compact(plain, rec, h, q, places, reading=False) for h in range(len(data["heads"]))]
    weights = [head["weights"][q][k] for head in data["heads"]]
    texts = format_values(weights, places)
    n = len(weights)
    from_shown = as_shown(weights, places).sum() / n
    lines.append(
        f"The weights of key {k + 1}, averaged over the {n} heads: "
        + _result(f"({' + '.join(texts)}) / {n}", from_shown, data["average"][q][k], places, "weights")
    )
    return lines


def _swapped_solution(plain, rec, how, q, c, places):
    data = rec.data
    concat = data[how]["concat"][q]
    W_O = np.asarray(data["W_O"], dtype=float)
    sizes = [len(_as_row(head["output"][0])) for head in data["heads"]]
    if how == "swapped_with_blocks":
        edges = np.cumsum([0, *sizes])
        blocks = [W_O[edges[i] : edges[i + 1]] for i in range(len(sizes))][::-1]
        W = np.vstack(blocks)
        said = "W_O with its row blocks moved with their heads (the second head's rows first)"
    else:
        W = W_O
        said = "W_O as it was"
    column = W[:, c].tolist()
    return [_head_compact(plain, rec, h, q, places) for h in range(len(data["heads"]))] + [
        f"In the other order, side by side: {_row(concat, places)}.",
        f"Column {c + 1} of {said}: {_row(column, places)}.",
        "Their dot product: " + _dot(concat, column, data[how]["output"][q][c], places, "readings"),
    ]


def _decoding_solution(plain, rec, h, t, c, places):
    step = rec.data["decoding"]["heads"][h]["steps"][t]
    head = rec.data["heads"][h]
    lines = [
        f"At step {t + 1} the cache holds the keys and values of positions 1 to {t}; the step computes only the new "
        f"token's q, k and v: q_{t + 1} = {_row(head['Q'][t], places)}, k_{t + 1} = {_row(head['K'][t], places)}, "
        f"v_{t + 1} = {_row(head['V'][t], places)}, and appends k and v."
    ]
    lines += [
        f"The scaled scores against the {len(step['scaled'])} cached keys: {_row(step['scaled'], places)}.",
        f"The weights: {_row(step['weights'], places)}.",
    ]
    return lines + _reading_lines(step["weights"], head["V"][: t + 1], c, step["reading"][c], places)[1:]


def _group_solution(plain, rec, g, h, q, c, places):
    """A query head's reading when key/value heads are shared: the pooled W_K and W_V of its group."""
    variant = rec.data["groups"][g]
    kv = variant["kv_head_of"][h]
    members = [i for i, j in enumerate(variant["kv_head_of"]) if j == kv]
    pooled = variant["pooled"][kv]
    X = np.asarray(plain["X"], dtype=float)
    K, V = X @ np.asarray(pooled["W_K"]), X @ np.asarray(pooled["W_V"])
    W_Q = np.asarray(plain["heads"][h]["W_Q"], dtype=float)
    q_row = X[q] @ W_Q
    keys = [j for j in range(q + 1)] if plain.get("causal") else list(range(len(X)))
    scale = 1 / np.sqrt(W_Q.shape[1])
    scaled = [float(q_row @ K[j]) * scale for j in keys]
    top = max(scaled)
    exps = [float(np.exp(s - top)) for s in scaled]
    total = sum(exps)
    weights = [e / total for e in exps]
    group = _and([i + 1 for i in members])
    return [
        f"With {variant['kv_heads']} key/value head{'s' if variant['kv_heads'] != 1 else ''}, query head {h + 1} reads "
        f"key/value head {kv + 1}, which query heads {group} share.",
        f"Its W_K and W_V are the means of those query heads' own: W_K = {_rows(pooled['W_K'], places)}; W_V = "
        f"{_rows(pooled['W_V'], places)}.",
        f"The keys x W_K: {_rows(K[keys], places)}; the values x W_V: {_rows(V[keys], places)}.",
        f"Query head {h + 1}'s own query, x W_Q: {_row(q_row, places)}; its scaled scores, q·k / √{W_Q.shape[1]}: "
        f"{_row(scaled, places)}.",
        f"Subtract the largest, {_num(top, places)}, and take exponentials: {_row(exps, places)}; their sum: "
        + _sum(exps, total, places, "exponentials"),
        f"The weights: {_row(weights, places)}.",
        "The reading: "
        + _dot(weights, V[keys][:, c].tolist(), _entry(variant["readings"][h][q], c), places, "weights"),
    ]


def _unit_solution(unit, inner, rec, places, plain):
    lines = solution(inner, rec, places, plain)
    value = rec.value(inner)
    divisor = UNITS[unit]
    name = {"millions": "In millions", "billions": "In billions", "mib": "In MiB", "gib": "In GiB"}[unit]
    return lines + [
        f"{name}, divided by {given(divisor)}: "
        + _result(f"{given(value)} / {given(divisor)}", value / divisor, value / divisor, places, "numbers")
    ]


def _decode_cost_solution(done, field):
    n = {name: given(value) for name, value in done.items() if isinstance(value, int | float)}
    if field.endswith("macs"):
        return [
            f"{n['tokens']} row{'s' if done['tokens'] > 1 else ''} through the projections; the last query meets "
            f"{n['keys']} keys.",
            f"Projections {n['projection_macs']}, scores {n['score_macs']}, weighting {n['weighting_macs']}, "
            f"W_O {n['output_macs']}; in all: {n['projection_macs']} + {n['score_macs']} + {n['weighting_macs']} + "
            f"{n['output_macs']} = {n['macs']}.",
        ]
    return [
        f"The layer's weight matrices: {n['weight_numbers']} numbers; the keys and values: {n['cache_numbers']} "
        f"numbers ({n['keys']} of each, in every head).",
        f"Numbers read: {n['weight_numbers']} + {n['cache_numbers']} = {n['numbers_read']}; in bytes, "
        f"{n['numbers_read']} × {given(done['bytes_per_number'])} = {n['bytes_read']}.",
    ]


def _cost_solution(row, field):
    n, h, d_k = row["n"], row["h"], row["d_k"]
    if field in ("score_macs", "weighting_macs"):
        return [
            f"Every query with every key, in every head: h × n × n × d_k = {h} × {given(n)} × {given(n)} × {d_k} = "
            f"{given(row[field])}."
        ]
    if field == "quadratic_macs":
        return [
            f"The scores: h × n × n × d_k = {h} × {given(n)} × {given(n)} × {d_k} = {given(row['score_macs'])}; the "
            "weighting of the values as many again.",
            f"Both: {given(row['score_macs'])} + {given(row['weighting_macs'])} = {given(row['quadratic_macs'])}.",
        ]
    raise KeyError(field)


def _window_cost_solution(row):
    n, w, h, d_k = row["n"], row["window"], row["h"], row["d_k"]
    filling = min(n, w)
    triangle = filling * (filling + 1) // 2
    rest = (n - filling) * w
    return [
        f"The first {given(filling)} queries see 1, 2, …, {given(filling)} keys; in pairs: {given(filling)} × "
        f"{given(filling + 1)} / 2 = {given(triangle)}.",
        f"Each of the other {given(n - filling)} queries sees {given(w)} keys; in pairs: {given(n - filling)} × "
        f"{given(w)} = {given(rest)}.",
        f"All the pairs: {given(triangle)} + {given(rest)} = {given(row['pairs'])}.",
        f"Each pair costs d_k multiply-adds for its score and d_k for weighting its value, in each of the h heads; "
        f"2 × h × pairs × d_k: 2 × {h} × {given(row['pairs'])} × {d_k} = {given(row['macs'])}.",
    ]


# ---------------------------------------------------------------- lessons with their own steps


def _latent_solution(data, fixture, q, c, places):
    """An entry of the latent rows: the token's row of X times a column of W_DKV."""
    x = fixture["X"][q]
    column = [row[c] for row in fixture["latent"]["W_DKV"]]
    return [
        f"Token {q + 1}'s row of X: {_row(x, places)}; column {c + 1} of W_DKV: {_row(column, places)}.",
        "Their dot product: " + _dot(x, column, data["latent"]["c"][q][c], places, "entries"),
    ]


def _latent_key_lines(data, fixture, h, k, places):
    """Where a latent head's key comes from: the token's latent row times the head's W_UK."""
    up = fixture["latent"]["heads"][h]["W_UK"]
    return [
        f"The latent row of key {k + 1}: {_row(data['latent']['c'][k], places)}; times W_UK "
        f"{'of head ' + str(h + 1) + ' ' if len(data['heads']) > 1 else ''}({_rows(up, places)}), "
        f"the key row: {_row(data['heads'][h]['K'][k], places)}."
    ]


def _latent_score(data, h, q, k, places):
    head = data["heads"][h]
    return [
        f"The query row q = x W_Q: {_row(head['Q'][q], places)}.",
        "The raw score q·k: " + _dot(head["Q"][q], head["K"][k], head["scores"][q][k], places),
    ]


def _sink_solution(head, sink, q, places):
    """A row's weight on the sink: its visible scaled scores and the sink logit, through the
    softmax that counts the sink."""
    visible = head["visible"][q]
    seen = [x for x, v in zip(head["scaled"][q], visible, strict=True) if v]
    exps = [e for e, v in zip(head["exps"][q], visible, strict=True) if v]
    sink_exp = head["sink_weight"][q] * head["sums"][q]
    return [
        f"The scaled scores of the keys it sees: {_row(seen, places)}; the sink logit: {_num(sink, places)}.",
        f"Subtract the largest of them all, {_num(head['shift'][q], places)}: the keys' exponentials are "
        f"{_row(exps, places)} and the sink's is {_num(sink_exp, places)}.",
        "Their sum: " + _sum([*exps, sink_exp], head["sums"][q], places, "exponentials"),
        "The sink's exponential divided by that sum: "
        + _ratio(sink_exp, head["sums"][q], head["sink_weight"][q], places, "exponentials"),
    ]


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
    at = seen.index(k)
    return [
        f"The keys the query {kept} are at positions {_and([j + 1 for j in seen])}; their scaled scores: "
        f"{_row(scaled, places)}.",
        f"Subtract the largest, {_num(top, places)}: the exponentials are {_row(exps, places)}.",
        "Their sum: " + _sum(exps, total, places, "exponentials"),
        f"The weight of key {k + 1}: its exponential over the sum, "
        + _ratio(exps[at], total, weights[k], places, "exponentials"),
    ]


def _linear_solution(head, field, q, rest, places):
    """Linear attention worked from the running state: φ(q), the column of the state M and the
    normaliser N after the token that the coordinate needs, the reading φ(q) M / (φ(q) · N)."""
    phi_q, M, N = head["phi_Q"][q], head["states"][q], head["normalizers"][q]
    column = [row[rest] for row in M]
    numerator, denominator = float(np.dot(phi_q, column)), float(np.dot(phi_q, N))
    reading = head["output"][q][rest]
    return [
        f"φ(q) = elu(q) + 1 of the query {_row(head['Q'][q], places)}: {_row(phi_q, places)}.",
        f"Column {rest + 1} of the state M = Σ φ(k)ᵀ v over the keys it sees: {_row(column, places)}; "
        f"the normaliser N = Σ φ(k): {_row(N, places)}.",
        "φ(q) times that column: " + _dot(phi_q, column, numerator, places, "entries"),
        "φ(q) · N: " + _dot(phi_q, N, denominator, places, "entries"),
        f"The reading's coordinate {rest + 1}: " + _ratio(numerator, denominator, reading, places, "numbers"),
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
        "M's entry is their products added: " + _dot(phis, values, head["states"][q][r][c], places, "entries"),
    ]


def _paged_solution(paged, field):
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
            f"The pages in either table: {_and(held)}; {fork['pages']} in all (each sequence with its own copy of "
            f"the prompt would need {fork['separate_pages']})."
        )
        return lines
    lines = []
    for i, (n, pages) in enumerate(zip(paged["lengths"], paged["pages"], strict=True)):
        if field == "paged":
            lines.append(
                f"Request {i + 1}: {n} token{'s' if n != 1 else ''} take{'s' if n == 1 else ''} ⌈{n}/{size}⌉ = "
                f"{pages} page{'s' if pages != 1 else ''}, {pages * size} slots, {pages * size - n} unused."
            )
        else:
            lines.append(
                f"Request {i + 1}: {paged['max_length']} slots reserved, {n} used, {paged['max_length'] - n} unused."
            )
    wasted = paged["wasted_slots"][field]
    lines.append(f"All together: {' + '.join(map(str, wasted))} = {paged['total_wasted'][field]}.")
    return lines


def _block_solution(block, plain, field, q, c, places):
    """A transformer block's step for one token, from the block's input row and the attention's
    output (given on the panel): the residual sums, the layer norms and the feed-forward layer."""
    order = block["order"]
    if field in ("norm_1", "norm_2"):
        return _norm_solution(block, field, q, places) + [
            f"Its coordinate {c + 1}: {_num(block[field][q][c], places)}."
        ]
    x = np.round(np.asarray(block["residual_1"][q]) - np.asarray(block["attention"][q]), 12)
    lines = [
        f"The block's input row x: {_row(x, places)}; the attention's output a for it: "
        f"{_row(block['attention'][q], places)}."
    ]
    if field == "residual_1":
        return lines + [
            f"The first residual sum x + a, coordinate {c + 1}: "
            + _sum([x[c], block["attention"][q][c]], block["residual_1"][q][c], places)
        ]
    into = "norm_2" if order == "pre" else "norm_1"
    lines.append(f"The first residual sum x + a: {_row(block['residual_1'][q], places)}.")
    lines += _norm_solution(block, into, q, places, read_said=False)
    one = field in ("ffn", "hidden", "pre_activation") or order == "pre"
    lines += _ffn_lines(block, plain, into, q, c if one else None, places)
    if field in ("ffn", "hidden", "pre_activation"):
        return lines
    if order == "pre":
        return lines + [
            f"The block's output is the first residual sum plus the feed-forward output; coordinate {c + 1}: "
            + _sum([block["residual_1"][q][c], block["ffn"][q][c]], block["output"][q][c], places)
        ]
    lines.append(
        "The second residual sum, the normalised row plus the feed-forward output: "
        f"{_row(block['residual_2'][q], places)}."
    )
    return (
        lines
        + _norm_solution(block, "norm_2", q, places, read_said=False)
        + [f"The block's output is that layer norm; its coordinate {c + 1}: {_num(block['output'][q][c], places)}."]
    )


def _ffn_lines(block, plain, into, q, c, places):
    """The feed-forward layer on the normalised row: times W_1 plus b_1, the activation, times W_2
    plus b_2. For one coordinate of its output, only the hidden units W_2's column uses are
    worked; for the whole row, the rows are shown."""
    net = plain["transformer"]
    W_1, b_1 = np.asarray(net["W_1"], dtype=float), np.asarray(net["b_1"], dtype=float)
    W_2, b_2 = np.asarray(net["W_2"], dtype=float), np.asarray(net["b_2"], dtype=float)
    act, row = ACTIVATION_NAMES[net["activation"]], block[into][q]
    if c is None:
        return [
            f"The feed-forward layer reads it: times W_1, plus b_1: {_row(block['pre_activation'][q], places)}; after "
            f"{act}: {_row(block['hidden'][q], places)}.",
            f"Times W_2, plus b_2, the feed-forward output: {_row(block['ffn'][q], places)}.",
        ]
    used = [i for i, w in enumerate(W_2[:, c]) if w != 0]
    lines = [
        f"Column {c + 1} of W_2 is nonzero at hidden units {_and([i + 1 for i in used])}: only those units reach "
        f"coordinate {c + 1}."
    ]
    for i in used:
        terms, weights = list(row) + ([1.0] if b_1[i] else []), list(W_1[:, i]) + ([b_1[i]] if b_1[i] else [])
        plus = f", plus b_1's {_num(b_1[i], places)}" if b_1[i] else ""
        lines.append(
            f"Hidden unit {i + 1}: the normalised row times column {i + 1} of W_1{plus}: "
            + _dot(terms, weights, block["pre_activation"][q][i], places)
            + f" After {act}: {_num(block['hidden'][q][i], places)}."
        )
    hidden, weights = [block["hidden"][q][i] for i in used], [W_2[i, c] for i in used]
    if b_2[c]:
        hidden, weights = hidden + [1.0], weights + [b_2[c]]
    lines.append(
        f"Coordinate {c + 1} of the feed-forward output: those hidden units times their entries of W_2"
        + (", plus b_2" if b_2[c] else "")
        + ": "
        + _dot(hidden, weights, block["ffn"][q][c], places)
    )
    return lines


def _norm_solution(block, field, q, places, read_said=True):
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
    lines = [f"{what}: {_row(read, places)}."] if read_said else []
    lines.append(
        f"The layer norm of {_row(read, places)}: its mean μ = "
        + _result(
            f"({' + '.join(_factor(t) if i else t for i, t in enumerate(format_values(read, places)))}) / {len(read)}",
            as_shown(read, places).sum() / len(read),
            read.mean(),
            places,
            "numbers",
        )
        + f" The deviations x − μ: {_row(deviations, places)}."
    )
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
    upstream = data["backward"].get("upstream")
    dz_said = (
        f"The gradient of the reading of query {i + 1}, dz: its upstream row"
        + (f" {_row(upstream[i], places)}" if upstream else "")
        + f" times W_Oᵀ, {_row(d_Z[i], places)}."
    )
    if field == "d_weights":
        return [
            dz_said,
            f"The value row of key {j + 1}: {_row(head['V'][j], places)}.",
            "Their dot product, dz · v: " + _dot(d_Z[i], head["V"][j], grads["d_weights"][i][j], places),
        ]
    if field == "d_V":
        column = [row[i] for row in head["weights"]]
        coordinate = [row[j] for row in d_Z]
        return [
            f"The weight each query gives key {i + 1} (column {i + 1} of the weights): {_row(column, places)}.",
            f"Coordinate {j + 1} of each reading's gradient dz: {_row(coordinate, places)}.",
            "Their dot product, a row of Aᵀ times a column of dZ: "
            + _dot(column, coordinate, grads["d_V"][i][j], places, "weights"),
        ]
    weights, d_a = head["weights"][i], grads["d_weights"][i]
    scaled = head["scaled"][i]
    seen = [k for k, v in enumerate(head["visible"][i]) if v]
    lines = [
        f"The scaled scores of query {i + 1}: {_row(scaled, places, head['visible'][i])}; their softmax, "
        f"the weights: {_row(weights, places)}.",
        dz_said,
        f"The gradient of each weight, da = dz · each value row: {_row(d_a, places)}.",
    ]
    if not head["visible"][i][j]:
        lines.append(f"Key {j + 1} is hidden from query {i + 1}: its weight is exactly 0, so its gradient is 0.")
    else:
        inner = float(sum(weights[k] * d_a[k] for k in seen))
        lines.append(
            "da · a, over the keys it sees: "
            + _dot([d_a[k] for k in seen], [weights[k] for k in seen], inner, places, "numbers")
        )
        a, d, s = as_shown(weights[j], places), as_shown(d_a[j], places), as_shown(inner, places)
        written = f"{_num(weights[j], places)} · ({_num(d_a[j], places)} − {_factor(_num(inner, places))})"
        lines.append(
            f"Entry {j + 1} of a ⊙ (da − da · a): "
            + _result(written, float(a) * (float(d) - float(s)), grads["d_scaled"][i][j], places, "numbers")
        )
    if field == "d_scores":
        lines.append(
            f"Times 1/√d_k = {_num(head['scale'], places)}: "
            + _times(grads["d_scaled"][i][j], head["scale"], grads["d_scores"][i][j], places)
        )
    return lines
