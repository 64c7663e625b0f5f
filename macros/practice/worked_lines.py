"""The lines every worked solution shares: a number at the set's decimals, a dot product, a
product or a ratio with its result, a softmax row, a weight over a sum, the input rows of an
embedding. ``worked.py`` (the layer's questions) and ``worked_model.py`` (the model's around
it) both write their steps with these, so that a step reads the same wherever it appears.
"""

import numpy as np

from macros.render.arithmetic import note
from macros.render.numbers import as_shown, format_number, format_values


def _num(x, places):
    return format_number(x, places)


def _row(values, places, visible=None):
    values = [0.0 if v is None else v for v in values]
    texts = format_values(values, places)
    if visible is not None:
        texts = [t if seen else "−∞" for t, seen in zip(texts, visible, strict=True)]
    return "[" + ", ".join(texts) + "]"


def _factor(text):
    """A number as a factor of a product or a later term of a sum: a negative one in parentheses."""
    return f"({text})" if text.startswith("−") else text


def _and(items):
    items = [str(x) for x in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _spaced(text):
    return f" {text}" if text else ""


def _relation(from_shown, exact, places):
    """'=' when the numbers as shown give the result exactly and it is shown exactly, else '≈'."""
    shown = float(as_shown(exact, places))
    return "=" if abs(float(from_shown) - float(exact)) < 1e-12 and abs(shown - float(exact)) < 1e-12 else "≈"


def _result(written, from_shown, exact, places, operands):
    """'written ≈ x.' with the book's rounding note when the shown numbers give another result."""
    sign = _relation(from_shown, exact, places)
    return f"{written} {sign} {_num(exact, places)}." + _spaced(note(from_shown, exact, places, operands))


def _sum(terms, exact, places, operands="numbers"):
    texts = format_values(terms, places)
    written = " + ".join(_factor(t) if i else t for i, t in enumerate(texts))
    return _result(written, as_shown(terms, places).sum(), exact, places, operands)


def _dot(a, b, exact, places, operands="numbers"):
    pairs = zip(format_values(a, places), format_values(b, places), strict=True)
    written = " + ".join(f"{_factor(x) if i else x}·{_factor(y)}" for i, (x, y) in enumerate(pairs))
    from_shown = float(np.dot(as_shown(a, places), as_shown(b, places)))
    return _result(written, from_shown, exact, places, operands)


def _ratio(top, bottom, exact, places, operands="numbers"):
    t, b = _num(top, places), _num(bottom, places)
    return _result(
        f"{t} / {b}", float(as_shown(top, places)) / float(as_shown(bottom, places)), exact, places, operands
    )


def _visible_keys(head, q):
    return [j for j, seen in enumerate(head["visible"][q]) if seen]


def _softmax_lines(scaled, visible, shift, exps, total, places, what="scaled scores"):
    """Subtract the largest, exponentiate, add up: the softmax's steps up to its sum."""
    seen = [j for j, v in enumerate(visible) if v]
    shown = [exps[j] for j in seen]
    hidden = "" if len(seen) == len(visible) else " (a hidden key gets exponential 0)"
    return [
        f"The {what} the query sees: {_row(scaled, places, visible)}. Subtract the largest, "
        f"{_num(shift, places)}, and take the exponential of each: {_row(exps, places)}{hidden}.",
        "Their sum: " + _sum(shown, total, places, "exponentials")
        if len(shown) > 1
        else f"Their sum: {_num(total, places)}.",
    ]


def _weight_line(exps, total, weights, k, places):
    return f"The weight of key {k + 1}: its exponential over the sum, " + _ratio(
        exps[k], total, weights[k], places, "exponentials"
    )


def _weights_line(weights, places):
    return f"Each exponential over the sum, the weights: {_row(weights, places)}."


def _embedded_lines(plain, rec, positions, places):
    """Where the rows come from when the lesson looks them up: each position's row of E (by its
    token's id) plus its row of P. Nothing when X is given."""
    if "embedding" not in plain:
        return []
    emb, words, made = plain["embedding"], plain["vocabulary"], rec.data["embedding"]
    lines = []
    for i in positions:
        t = emb["ids"][i]
        said = f"Position {i + 1}, “{words[t]}” (id {t}): its row of E {_row(emb['E'][t], places)}"
        if "P" in emb:
            sums = ", ".join(
                " + ".join(
                    _factor(x) if k else x
                    for k, x in enumerate(format_values([emb["E"][t][c], emb["P"][i][c]], places))
                )
                for c in range(len(made["X"][i]))
            )
            said += (
                f" plus its row of P {_row(emb['P'][i], places)}: x_{i + 1} = [{sums}] = {_row(made['X'][i], places)}"
            )
        lines.append(said + ".")
    return lines
