"""LaTeX for matrices, vectors and the expansions a hand calculation writes out.

Everything here returns math-mode source without the $ delimiters; the lesson template
places it. Numbers come from ``numbers`` so LaTeX and prose always agree.
"""

import numpy as np

from macros.render.numbers import format_masked, format_number, format_rows, format_values


def matrix(M, places):
    """A bmatrix, one form (integers or fixed decimals) for the whole matrix."""
    rows = format_rows(M, places, minus="-")
    body = r" \\ ".join(" & ".join(row) for row in rows)
    return rf"\begin{{bmatrix}} {body} \end{{bmatrix}}"


def masked_matrix(M, visible, places, hidden):
    r"""A bmatrix with ``hidden`` wherever the mask hides an entry (``macros.vocabulary.display`` picks it: −∞
    for a score, 0 for a weight). Hidden entries take no part in choosing between whole
    numbers and decimals."""
    rows = format_masked(M, visible, places, masked=hidden, minus="-")
    return r"\begin{bmatrix} " + r" \\ ".join(" & ".join(row) for row in rows) + r" \end{bmatrix}"


def vector(v, places):
    """A row vector in square brackets, as the lessons write a single row: [a, b, c]."""
    return "[" + ", ".join(format_values(v, places, minus="-")) + "]"


def number(x, places):
    return format_number(x, places, minus="-")


def _factor(x, places):
    """A number as a factor in a product: negative numbers get parentheses."""
    text = number(x, places)
    return f"({text})" if text.startswith("-") else text


def dot_expansion(q, k, places):
    r"""q · k written out term by term: 1\cdot1+0\cdot0."""
    q_texts, k_texts = format_values(q, places, minus="-"), format_values(k, places, minus="-")
    wrap = lambda t: f"({t})" if t.startswith("-") else t  # noqa: E731
    return "+".join(f"{wrap(a)}\\cdot {wrap(b)}" for a, b in zip(q_texts, k_texts, strict=True))


def score_expansions(Q, K, places):
    """The score matrix with every entry written as its dot product."""
    rows = [[dot_expansion(q, k, places) for k in K] for q in Q]
    return r"\begin{bmatrix} " + r" \\ ".join(" & ".join(row) for row in rows) + r" \end{bmatrix}"


def weighted_sum(weights, rows, places):
    r"""A reading as weights times value rows: 0.248\,[1, 0] + 0.503\,[1, 1]."""
    weights = format_values(weights, places, minus="-")
    terms = [f"{w}\\,{vector(row, places)}" for w, row in zip(weights, np.atleast_2d(rows), strict=True)]
    return " + ".join(terms).replace("+ -", "- ")


def weighted_terms(weights, values, places):
    """A weighted sum of single numbers, each value in parentheses: 0.248(1) + 0.248(0)."""
    weights = format_values(weights, places, minus="-")
    values = format_values(values, places, minus="-")
    return " + ".join(f"{w}({v})" for w, v in zip(weights, values, strict=True))


def masked_vector(values, visible, places, hidden):
    r"""A row with ``hidden`` where the mask hides a key (see ``masked_matrix``)."""
    visible = np.asarray(visible, dtype=bool)
    texts = format_masked(values, visible, places, masked=hidden, minus="-")
    return "[" + ", ".join(texts) + "]"


def mask_added(visible):
    r"""What the mask adds to a row of scores: ``0`` where a key is visible, ``-\infty`` where hidden."""
    return "[" + ", ".join("0" if seen else r"-\infty" for seen in np.asarray(visible, dtype=bool)) + "]"
