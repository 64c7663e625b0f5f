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


def tensor(T, places, stacked=False, visible=None):
    """LaTeX for a 3-axis array: its matrices T[0], T[1], ... in one bracket.

    One form for the whole array, as for a matrix: all whole numbers, or all with ``places``
    decimals, judged on the finite entries the mask lets through. ``stacked`` puts the
    matrices one under the other, as numpy prints them, for arrays too wide to sit side by
    side on a phone; an empty row keeps a gap between them whatever their height.
    ``visible`` (one mask for every matrix, or one per matrix) marks what a mask hides, so a
    hidden entry reads as what it is, as ``shown()`` writes it: a score the softmax is given
    (−∞ in the array) as −∞, a weight (exactly 0) as a whole 0, never as a rounded 0.000
    beside a real small weight.
    """
    T = np.asarray(T, dtype=float)
    if T.ndim != 3:
        raise ValueError(f"expected an array of 3 axes, got shape {T.shape}")
    hidden = _hidden(T, visible)
    whole = is_whole(T[np.isfinite(T) & ~hidden])
    parts = [_matrix(M, H, places, whole) for M, H in zip(T, hidden, strict=True)]
    if stacked:
        return r"\left[\; \begin{matrix} " + r", \\ {} \\ ".join(parts) + r" \end{matrix} \;\right]"
    return r"\left[\; " + r",\; ".join(parts) + r" \;\right]"


def _matrix(M, hidden, places, whole):
    """One matrix of the stack as a bmatrix."""
    rows = (
        " & ".join(_shown(x, gone, places, whole) for x, gone in zip(*pair, strict=True))
        for pair in zip(M, hidden, strict=True)
    )
    return r"\begin{bmatrix} " + r" \\ ".join(rows) + r" \end{bmatrix}"


def _hidden(T, visible):
    """Where the mask hides an entry of T (nowhere without a mask); a mask of another shape
    than the matrices is a mistake named here rather than a wrong display."""
    if visible is None:
        return np.zeros(T.shape, dtype=bool)
    visible = np.asarray(visible, dtype=bool)
    try:
        return ~np.broadcast_to(visible, T.shape)
    except ValueError:
        raise ValueError(f"tensor(): visible= has shape {visible.shape}, the array {T.shape}") from None


def _shown(x, hidden, places, whole):
    """One entry, a hidden one as its kind reads: −∞ for a masked score, 0 for anything else."""
    if hidden:
        return r"-\infty" if np.isneginf(x) else "0"
    return entry(x, places, whole)


def shape(T):
    """The shape as the code prints it, in LaTeX: (3, 2, 2)."""
    return "(" + ", ".join(str(size) for size in np.shape(T)) + ")"
