"""Markdown tables: readable as plain text in the built Markdown, rendered by the theme."""

from macros.render import arithmetic
from macros.render.numbers import as_shown, format_masked, format_values


def markdown_table(header, rows):
    """A pipe table; cells are already text."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def joined(values, places):
    """A row of numbers for a table cell or a sentence: '2, 0, 2, −2'."""
    return ", ".join(format_values(values, places))


# How a masked entry is written, everywhere (tables, LaTeX, maps): a score once the mask is
# added is minus infinity; its exponential and its weight are exactly zero.
MASKED_SCORE = "\u2212∞"
MASKED_WEIGHT = "0"


def cells(values, visible, places, masked=MASKED_WEIGHT):
    """A row of numbers as table cells, one form for the row; a masked entry reads ``masked``."""
    return format_masked(values, visible, places, masked=masked)


def step_table(head, row, places, plain=False):
    """One query's softmax, step by step, as the lessons' "step | value" table.

    ``plain`` shows the exponentials as a hand calculation writes them, without the
    stable shift; the weights are the same either way, which is the shift's point.
    """
    visible = head.visible[row]
    exps, sums = (head.plain_exps, head.plain_sums) if plain else (head.exps, head.sums)
    d_k = format_values([head.d_k], places)[0]
    steps = [
        ("scores: query · key", joined(head.scores[row], places)),
        (
            f"scaled by 1/√{d_k}" + ("" if visible.all() else ", masked: −∞ added"),
            ", ".join(cells(head.scaled[row], visible, places, MASKED_SCORE)),
        ),
    ]
    if head.bias is not None:  # ALiBi: the softmax starts from the scaled scores plus the bias
        steps.append(("plus the bias −m(i − j)", ", ".join(cells(head.biased[row], visible, places, MASKED_SCORE))))
    if not plain:
        shift = format_values([head.shift[row]], places)[0]
        shifted = cells(head.shifted[row], visible, places, MASKED_SCORE)
        steps.append((f"shifted: minus the largest, {shift}", ", ".join(shifted)))
    steps += [
        ("exponentials", ", ".join(cells(exps[row], visible, places))),
        ("their sum", format_values([sums[row]], places)[0]),
        ("weights: exponential / sum", ", ".join(cells(head.weights[row], visible, places))),
        ("output: weights · values", joined(head.output[row], places)),
    ]
    notes = [
        arithmetic.note(as_shown(exps[row], places).sum(), sums[row], places, "exponentials"),
        arithmetic.product_note(head.weights[row], head.V, head.output[row], places, "weights"),
    ]
    return "\n\n".join([markdown_table(["step", "value"], steps), *filter(None, notes)])


def key_table(head, row, places, labels=()):
    """Per key: the key, its value, the query's score for it and the weight it gets."""
    visible = head.visible[row]
    scores = cells(head.scores[row], visible, places, MASKED_SCORE)
    weights = cells(head.weights[row], visible, places)
    names = labels or [str(j + 1) for j in range(head.K.shape[0])]
    rows = [
        [names[j], joined(head.K[j], places), joined(head.V[j], places), scores[j], weights[j]]
        for j in range(head.K.shape[0])
    ]
    return markdown_table(["key", "key vector", "value", "score", "weight"], rows)
