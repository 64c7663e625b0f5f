"""Named facts about a lesson's numbers, so that a template states a fact instead of deriving it.

A claim reads ``{% call claim(is_identity(fixture.X)) %}`` rather than a loop or a line of
boolean algebra. Positions count from 0 here, as in the data (``heads[0]``, ``weights[2]``);
prose adds one when it names them. Column ranges follow Python's slices: ``a, b`` keeps
columns a to b − 1, so ``columns(M, 0, 2)`` is the first two columns.
"""

import numpy as np

from macros.engine.trace import STEPS, steps_present
from macros.errors import LessonError
from macros.vocabulary.claims import argmax, equal, roughly_equal


def _matrix(M):
    return np.atleast_2d(np.asarray(M, dtype=float))


def columns(M, a, b=None):
    """Columns a..b−1 of M (column a alone when b is omitted), as a matrix."""
    M = _matrix(M)
    return M[:, a : a + 1 if b is None else b]


def is_identity(M):
    """M is square with ones on its diagonal and zeros everywhere else."""
    M = _matrix(M)
    return M.shape[0] == M.shape[1] and equal(M, np.eye(M.shape[0]))


def selects_columns(part, whole, a, b=None):
    """``part`` is exactly columns a..b−1 of ``whole``: a head that keeps some coordinates."""
    return equal(part, columns(whole, a, b))


def keeps_columns(head, single, a, b=None):
    """A head's queries, keys and values are columns a..b−1 of a single head's: "head i keeps
    columns a..b of the single head"."""
    return all(selects_columns(getattr(head, m), getattr(single, m), a, b) for m in ("Q", "K", "V"))


def splits_columns(heads, single):
    """The heads cut the single head's columns into consecutive blocks, in head order, and
    together keep every column: head 1 the first d_k columns, head 2 the next, and so on."""
    start = 0
    for head in heads:
        if not keeps_columns(head, single, start, start + head.d_k):
            return False
        start += head.d_k
    return start == single.d_k and start == single.d_v


def same_projection(*matrices):
    """The matrices are one and the same: "the three projections are one matrix"."""
    return all(equal(matrices[0], M) for M in matrices[1:])


def all_differ(*pairs):
    """Every pair (a, b) given differs somewhere: "only the projections differ, and that alone
    changed the queries, the keys, ...". Each argument is a pair."""
    return all(not equal(a, b) for a, b in pairs)


def hidden_weights_are_zero(head):
    """Every weight the mask hides is exactly 0.0, not merely small."""
    return bool(np.all(head.weights[~head.visible] == 0.0))


def rows_sum_to_one(head, tolerance=1e-12):
    """Each query's weights add up to one over the keys it sees."""
    return bool(np.all(np.abs(head.weights.sum(axis=1) - 1.0) <= tolerance))


def sees_every_key(head, row):
    """No key is masked for this query row."""
    return bool(np.asarray(head.visible[row]).all())


def largest_difference(a, b):
    """The largest |a − b| over the entries: how far apart two readings are, coordinate by
    coordinate, as one number a sentence can state ("within 0.035 in each coordinate")."""
    return float(np.max(np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))))


def hidden_keys(head, row):
    """The keys (from 0) the mask hides from this query row."""
    return [int(k) for k in np.flatnonzero(~np.asarray(head.visible[row], dtype=bool))]


def mixes_coordinates(*matrices):
    """Some column of some matrix draws on more than one input coordinate."""
    return any(bool(((_matrix(M) != 0).sum(axis=0) > 1).any()) for M in matrices)


def is_sum_and_difference(W, d):
    """W is the block matrix [[I, I], [I, −I]] with d × d identity blocks: its first d output
    columns add two readings of width d, its last d subtract the second from the first."""
    W, eye = _matrix(W), np.eye(d)
    return equal(W, np.block([[eye, eye], [eye, -eye]]))


def equal_columns(A, B):
    """The columns (from 0) where A and B agree entry for entry."""
    A, B = _matrix(A), _matrix(B)
    return [c for c in range(A.shape[1]) if equal(A[:, c], B[:, c])]


def equal_rows(*pairs):
    """The rows (from 0) where every pair (A, B) agrees entry for entry: "positions 1 and 2 are
    identical in both heads" when the pairs are the heads' Q, K, V, weights and readings."""
    rows = _matrix(pairs[0][0]).shape[0]
    return [r for r in range(rows) if all(equal(_matrix(A)[r], _matrix(B)[r]) for A, B in pairs)]


def unequal_columns(A, B):
    """The columns (from 0) where A and B differ somewhere."""
    A, B = _matrix(A), _matrix(B)
    return [c for c in range(A.shape[1]) if not equal(A[:, c], B[:, c])]


def unequal_rows(A, B):
    """The rows (from 0) where A and B differ somewhere: the rows a change moved, counted as
    ``equal_rows`` counts the rows it left alone."""
    A, B = _matrix(A), _matrix(B)
    return [r for r in range(A.shape[0]) if not equal(A[r], B[r])]


def cache_holds_first_rows(head, steps, within=1e-12):
    """Whether every decoding step's cache is the first rows of the head's K and V, computed
    all at once: step t holds t + 1 keys and values (``K_cache``: (t + 1, d_k)), its query sees
    t + 1 keys under the causal mask, and it scores every cached key once. This is what makes
    the cache an exact shortcut rather than an approximation."""
    return all(
        roughly_equal(s.K_cache, head.K[: s.t + 1], within)  # (t + 1, d_k)
        and roughly_equal(s.V_cache, head.V[: s.t + 1], within)  # (t + 1, d_v)
        and head.visible[s.t].sum() == s.t + 1
        and len(s.scores) == len(s.K_cache)
        for s in steps
    )


def sinusoidal_frequencies(d_model, base=10000):
    """ω_i = 1 / base^(2i/d_model), one per pair of coordinates (2i, 2i + 1): how far each pair
    of a sinusoidal encoding turns per position, the first by one radian, each later one more
    slowly. With the default base these are the frequencies of ``sinusoidal(n, d_model)``."""
    if d_model < 1 or not base > 0:
        raise ValueError(f"sinusoidal_frequencies(): expected d_model ≥ 1 and base > 0, got {d_model} and {base}")
    return 1.0 / float(base) ** (np.arange(0, d_model, 2, dtype=float) / d_model)  # (ceil(d_model / 2),)


def per_head(heads, what):
    """A value per head: ``what`` is a dotted name (``"weights.2"``) or a function of a head."""
    if callable(what):
        return [what(head) for head in heads]
    values = []
    for head in heads:
        value = head
        for part in str(what).split("."):
            value = value[int(part)] if part.isdigit() else getattr(value, part)
        values.append(value)
    return values


def tops(M, places=None):
    """The position (from 0) of each row's largest entry; a tie, as shown, is refused."""
    return [argmax(row, places) for row in _matrix(M)]


def rows_favouring(M, offset, start=0, places=None):
    """Rows (from ``start`` on) whose largest entry sits ``offset`` positions from the row's
    own: offset −1 is "the position just before", 0 is "itself"."""
    rows = _matrix(M)[start:]
    return [start + i for i, top in enumerate(tops(rows, places)) if top == start + i + offset]


def favours_everywhere(M, offset, start=0, places=None):
    """Every row from ``start`` on has its largest entry ``offset`` positions from its own."""
    return len(rows_favouring(M, offset, start, places)) == _matrix(M).shape[0] - start


def disagree_everywhere(A, B, start=0, places=None):
    """From row ``start`` on, A and B put their largest entry at different positions in every row."""
    return all(a != b for a, b in zip(tops(_matrix(A)[start:], places), tops(_matrix(B)[start:], places), strict=True))


# The steps a shared partial refuses unless it says it models them: every declared step
# (macros.engine.trace.STEPS) but those that change nothing the partials show.
CASES = {s.key: s.words for s in STEPS if s.handled_by("partials")}


def layer_cases(fixture):
    """What a lesson's layer does beyond plain attention, as the shared explanations know
    the cases: the keys of ``CASES`` the fixture gives. A partial renders only the cases it
    models."""
    return {s.key for s in steps_present(fixture.to_plain())} & set(CASES)


WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def number_word(n):
    """A count as prose writes it: words up to nine, digits from ten."""
    return WORDS[n] if 0 <= n < len(WORDS) else str(n)


def counted(word, positions):
    """Positions (from 0) named in prose (from 1): "column 2", "columns 1 and 3"."""
    shown = [str(p + 1) for p in positions]
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    return f"{word}{'s' if len(shown) > 1 else ''} {listed}"


def head_label(head, heads):
    """ "head 2" for a head of the lesson's layer, numbered from 1 as prose numbers heads, so a
    claim's sentence names the head its condition checks instead of a number typed beside it."""
    for i, candidate in enumerate(heads):
        if candidate is head:
            return f"head {i + 1}"
    raise LessonError(
        "head_label(): not a head of this lesson's layer (a head of a layer computed another way?); "
        "name it with counted('head', [i])"
    )


def names(places):
    """The facts as a template sees them; those that judge a winner see the page's decimals."""
    return {
        "columns": columns,
        "is_identity": is_identity,
        "largest_difference": largest_difference,
        "selects_columns": selects_columns,
        "keeps_columns": keeps_columns,
        "splits_columns": splits_columns,
        "same_projection": same_projection,
        "all_differ": all_differ,
        "sees_every_key": sees_every_key,
        "hidden_weights_are_zero": hidden_weights_are_zero,
        "rows_sum_to_one": rows_sum_to_one,
        "hidden_keys": hidden_keys,
        "mixes_coordinates": mixes_coordinates,
        "is_sum_and_difference": is_sum_and_difference,
        "equal_columns": equal_columns,
        "unequal_columns": unequal_columns,
        "unequal_rows": unequal_rows,
        "sinusoidal_frequencies": sinusoidal_frequencies,
        "cache_holds_first_rows": cache_holds_first_rows,
        "equal_rows": equal_rows,
        "per_head": per_head,
        "first_true": first_true,
        "transpose": transpose,
        "number_word": number_word,
        "counted": counted,
        "tops": lambda M: tops(M, places),
        "rows_favouring": lambda M, offset, start=0: rows_favouring(M, offset, start, places),
        "favours_everywhere": lambda M, offset, start=0: favours_everywhere(M, offset, start, places),
        "disagree_everywhere": lambda A, B, start=0: disagree_everywhere(A, B, start, places),
    }


def first_true(*conditions):
    """The position (from 1) of the first condition that holds, or 0 when none does: which of
    several predictions the numbers bear out."""
    return next((i + 1 for i, held in enumerate(conditions) if held), 0)


def transpose(columns):
    """Lists given column by column, as rows: a table with one line per key."""
    return [list(row) for row in zip(*columns, strict=True)]
