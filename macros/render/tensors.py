"""Arrays of three axes in LaTeX: a stack of matrices along the first axis, and shapes.

A (h, n, d) array prints as h matrices of n × d side by side in one bracket, the way
numpy prints it, so a reader sees which numbers a reshape or a transpose moved where.
"""

import numpy as np

from macros.render.numbers import format_number, is_whole


def entry(x, places, whole):
    """One entry: −∞ (a hidden key's score) as TeX's own symbol, the rest as every number."""
    if np.isneginf(x):
        return r"-\infty"
    return format_number(x, places, minus="-", whole=whole)


def tensor(T, places, stacked=False):
    """LaTeX for a 3-axis array: its matrices T[0], T[1], ... in one bracket.

    One form for the whole array, as for a matrix: all whole numbers, or all with ``places``
    decimals, judged on the finite entries. ``stacked`` puts the matrices one under the
    other, as numpy prints them, for arrays too wide to sit side by side on a phone; an empty row
    keeps a gap between them whatever their height.
    """
    T = np.asarray(T, dtype=float)
    if T.ndim != 3:
        raise ValueError(f"expected an array of 3 axes, got shape {T.shape}")
    whole = is_whole(T[np.isfinite(T)])
    parts = [
        r"\begin{bmatrix} "
        + r" \\ ".join(" & ".join(entry(x, places, whole) for x in row) for row in M)
        + r" \end{bmatrix}"
        for M in T
    ]
    if stacked:
        return r"\left[\; \begin{matrix} " + r", \\ {} \\ ".join(parts) + r" \end{matrix} \;\right]"
    return r"\left[\; " + r",\; ".join(parts) + r" \;\right]"


def shape(T):
    """The shape as the code prints it, in LaTeX: (3, 2, 2)."""
    return "(" + ", ".join(str(size) for size in np.shape(T)) + ")"
