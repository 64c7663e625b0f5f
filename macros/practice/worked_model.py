"""Worked solutions for the questions on the model around attention: a token's input row
(its embedding and position rows), the logits and the softmax over the vocabulary, the loss's
gradient and the upstream gradient it becomes, the draw at a temperature with top-k, and a
stack's weights. ``macros.practice.worked`` hands these paths here; the lines they share
with its solutions are ``worked_lines.py``'s.
"""

import numpy as np

from macros.practice.worked_lines import (
    _and,
    _dot,
    _num,
    _ratio,
    _result,
    _row,
    _softmax_lines,
    _sum,
    _visible_keys,
    _weight_line,
    _weights_line,
)
from macros.render.numbers import as_shown, given


def embedding_solution(plain, rec, field, i, c, places):
    """A coordinate of a position's row of E, of P, or of their sum X."""
    emb, words, made = plain["embedding"], plain["vocabulary"], rec.data["embedding"]
    t = emb["ids"][i]
    lines = [f"The token at position {i + 1} is “{words[t]}”, id {t}: its row of E is {_row(emb['E'][t], places)}."]
    if field == "rows":
        return lines + [f"Its coordinate {c + 1}: {_num(made['rows'][i][c], places)}."]
    lines.append(f"Position {i + 1}'s row of P is {_row(emb['P'][i], places)}.")
    if field == "positions":
        return lines + [f"Its coordinate {c + 1}: {_num(made['positions'][i][c], places)}."]
    return lines + [
        f"Coordinate {c + 1} of x_{i + 1} = E[id] + P: "
        + _sum([emb["E"][t][c], emb["P"][i][c]], made["X"][i][c], places)
    ]


def _unembedding_columns(plain, rec):
    """W_U's columns, one per token (tied: E's rows), and how the solution names them."""
    W_U = plain["unembedding"]["W_U"]
    if W_U == "tied":
        return [list(row) for row in plain["embedding"]["E"]], "its row of E (tied: W_U = Eᵀ)"
    return [list(col) for col in zip(*W_U, strict=True)], "its column of W_U"


def _logit_lines(plain, rec, i, places, said_y=True):
    """The output row, then each token's logit: the row times that token's column of W_U (the
    coordinates where the column is 0 left out)."""
    y = rec.data["output"][i]
    columns, named = _unembedding_columns(plain, rec)
    words = plain["vocabulary"]
    skipped = ", the coordinates where it is 0 left out" if any(0 in col for col in columns) else ""
    y_said = f"The output row of position {i + 1}, y = {_row(y, places)}. " if said_y else ""
    lines = [f"{y_said}Each token's logit is y times {named}{skipped}."]
    for t, column in enumerate(columns):
        used = [c for c, w in enumerate(column) if w != 0]
        logit = rec.data["logits"][i][t]
        if not used:
            lines.append(f"“{words[t]}”: its column is 0, so its logit is 0.")
            continue
        lines.append(f"“{words[t]}”: " + _dot([y[c] for c in used], [column[c] for c in used], logit, places))
    return lines


def _vocabulary_softmax(logits, probs, places, what="logits"):
    """The softmax over the vocabulary: the shift, the exponentials and their sum."""
    top = max(logits)
    exps = [float(np.exp(x - top)) for x in logits]
    total = float(sum(exps))
    return (
        [
            f"The {what}: {_row(logits, places)}. Subtract the largest, {_num(top, places)}, and take the exponential "
            f"of each: {_row(exps, places)}.",
            "Their sum: " + _sum(exps, total, places, "exponentials"),
        ],
        exps,
        total,
    )


def probability_solution(plain, rec, i, t, places):
    logits, probs = rec.data["logits"][i], rec.data["probs"][i]
    stack = "layers" in plain
    lines = _stack_output_lines(plain, rec, i, places) if stack else []
    lines += _logit_lines(plain, rec, i, places, said_y=not stack)
    softmax, exps, total = _vocabulary_softmax(logits, probs, places)
    word = plain["vocabulary"][t]
    return (
        lines
        + softmax
        + [f"The probability of “{word}”: its exponential over the sum, " + _ratio(exps[t], total, probs[t], places)]
    )


def _logit_gradients(plain, rec, i, places):
    """Row i's probabilities, then (p − 1 at the true next token) / n for every token."""
    logits, probs, grads = rec.data["logits"][i], rec.data["probs"][i], rec.data["d_logits"][i]
    target, n = plain["unembedding"]["targets"][i], len(rec.data["logits"])
    lines = _logit_lines(plain, rec, i, places)
    softmax, _, _ = _vocabulary_softmax(logits, probs, places)
    word = plain["vocabulary"][target]
    return (
        lines
        + softmax
        + [
            f"Each exponential over the sum, the probabilities: {_row(probs, places)}.",
            f"The true next token is “{word}”: take 1 off its probability, then divide every entry by n = {n}: "
            f"dℓ = {_row(grads, places)}.",
        ]
    )


def logit_gradient_solution(plain, rec, i, t, places):
    probs, grad = rec.data["probs"][i][t], rec.data["d_logits"][i][t]
    target, n = plain["unembedding"]["targets"][i], len(rec.data["logits"])
    lines = _logit_gradients(plain, rec, i, places)[:-1]
    off = float(as_shown(probs, places)) - (1.0 if t == target else 0.0)
    minus = " − 1" if t == target else ""
    written = f"({_num(probs, places)}{minus}) / {n}"
    said = "the true next token" if t == target else "not the true next token"
    return lines + [
        f"Entry {t + 1}, “{plain['vocabulary'][t]}”, {said}: "
        + _result(written, off / n, grad, places, "probabilities")
    ]


def upstream_solution(plain, rec, i, c, places):
    """dY = dℓ W_Uᵀ, one entry: row i of dℓ times row c of W_U."""
    lines = _logit_gradients(plain, rec, i, places)
    W_U = plain["unembedding"]["W_U"]
    row = list(plain["embedding"]["E"][t][c] for t in range(len(plain["vocabulary"]))) if W_U == "tied" else W_U[c]
    grads = rec.data["d_logits"][i]
    value = rec.data["backward"]["upstream"][i][c]
    return lines + [
        f"dY = dℓ W_Uᵀ: entry {c + 1} is dℓ times row {c + 1} of W_U, {_row(row, places)}: "
        + _dot(grads, row, value, places, "entries of dℓ")
    ]


def sampling_solution(plain, rec, field, t, places):
    """The last row's logits over the temperature, their softmax, top-k and the renormalised draw."""
    drawn, spec = rec.data["sampling"], plain["sampling"]
    n, word = len(rec.data["logits"]), plain["vocabulary"][t]
    lines = _logit_lines(plain, rec, n - 1, places)
    T = spec["temperature"]
    scaled = drawn["scaled"]
    lines.append(f"Divided by the temperature T = {given(T)}: {_row(scaled, places)}.")
    softmax, exps, total = _vocabulary_softmax(scaled, drawn["probs"], places, "logits over T")
    lines += softmax
    if field == "probs":
        return lines + [
            f"The probability of “{word}”: its exponential over the sum, "
            + _ratio(exps[t], total, drawn["probs"][t], places)
        ]
    lines.append(f"Each exponential over the sum: {_row(drawn['probs'], places)}.")
    kept = drawn["kept"]
    names = _and([f"“{plain['vocabulary'][k]}”" for k in kept])
    kept_total = float(sum(drawn["probs"][k] for k in kept))
    lines.append(
        f"Top-{len(kept)} keeps {names}; their probabilities add up to: "
        + _sum([drawn["probs"][k] for k in kept], kept_total, places, "probabilities")
    )
    if t not in kept:
        return lines + [f"“{word}” is not kept: its probability in the draw is 0."]
    return lines + [
        f"“{word}”, renormalised: its probability over that sum, "
        + _ratio(drawn["probs"][t], kept_total, drawn["renormalised"][t], places, "probabilities")
    ]


def stack_weights_solution(plain, rec, l, h, q, k, places):  # noqa: E741
    """A weight of a stack's layer: the stream it reads (the panel gives the last layer's), its
    query and keys, their scores, the scale and the softmax."""
    head = rec.data["layers"][l]["heads"][h]
    mats = plain["layers"][l]["heads"][h]
    keys = _visible_keys(head, q)
    stream = np.asarray(rec.data["output"], dtype=float) - np.asarray(rec.data["layers"][-1]["output"], dtype=float)
    stream = np.round(stream, 12)
    lines = [
        f"Row {q + 1} of the stream layer {l + 1} reads: {_row(stream[q], places)}; times its W_Q, the query "
        f"q = {_row(head['Q'][q], places)}.",
        "The keys, each row of the stream it sees times W_K: "
        + "; ".join(f"k_{j + 1} = {_row(head['K'][j], places)}" for j in keys)
        + ".",
    ]
    del mats
    for j in keys:
        lines.append(f"q·k_{j + 1}: " + _dot(head["Q"][q], head["K"][j], head["scores"][q][j], places))
    d_k = len(head["Q"][q])
    for j in keys:
        score = head["scores"][q][j]
        written = f"{_num(score, places)} / √{d_k}"
        from_shown = float(as_shown(score, places)) / np.sqrt(d_k)
        said = _result(written, from_shown, head["scaled"][q][j], places, "raw scores")
        lines.append(f"Key {j + 1}'s score divided by √d_k: {said}")
    lines += _softmax_lines(
        head["scaled"][q], head["visible"][q], head["shift"][q], head["exps"][q], head["sums"][q], places
    )
    lines.append(_weight_line(head["exps"][q], head["sums"][q], head["weights"][q], k, places))
    return lines


def _stack_output_lines(plain, rec, i, places):
    """A stack's last layer at one position, from the stream it reads (the panel gives it): its
    weights, its reading, its output through W_O, added to the stream."""
    l = len(plain["layers"]) - 1  # noqa: E741
    layer = rec.data["layers"][l]
    lines = []
    for h, head in enumerate(layer["heads"]):
        keys = _visible_keys(head, i)
        lines += stack_weights_solution(plain, rec, l, h, i, keys[0], places)[:-1]
        lines.append(_weights_line(head["weights"][i], places))
        lines.append(
            "The values, each row of the stream times W_V: "
            + "; ".join(f"v_{j + 1} = {_row(head['V'][j], places)}" for j in keys)
            + "."
        )
        weights = [head["weights"][i][j] for j in keys]
        for c in range(len(head["V"][0])):
            column = [head["V"][j][c] for j in keys]
            lines.append(
                f"Coordinate {c + 1} of the reading, the weights times coordinate {c + 1} of the values: "
                + _dot(weights, column, head["output"][i][c], places, "weights")
            )
    stream = np.round(np.asarray(rec.data["output"], dtype=float) - np.asarray(layer["output"], dtype=float), 12)
    lines.append(f"Times W_O of layer {l + 1}, the layer's output row: {_row(layer['output'][i], places)}.")
    y = _row(rec.data["output"][i], places)
    lines.append(f"Added to the stream's row {_row(stream[i], places)}, the output row y = {y}.")
    return lines
