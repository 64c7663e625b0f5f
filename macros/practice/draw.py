"""New numbers for a lesson's exercise: seeded variants of its fixture, drawn and checked.

Variant 0 is the lesson's own fixture. Variant N ≥ 1 draws from numpy's generator seeded with
(seed, N): the drawn fields in the order written, each row by row; a draw that fails the
fixture's validation or a constraint is followed by the generator's next numbers, up to
MAX_TRIES draws, after which the build stops naming the constraint that failed most often.
Every variant must also be finite where a reader computes (weights, readings, output).

The constraints:

- ``no_tied_top_weight`` (value: a margin): in every row of every head the largest weight
  exceeds the next largest by more than the margin;
- ``scores_within: B``: every raw score of every head lies in [-B, B];
- ``no_fully_masked_row``: every query of every head sees at least one key.
"""

import numpy as np

from macros.errors import FixtureError, PracticeError
from macros.practice import record

MAX_TRIES = 200
FINITE = "finite weights and outputs (no overflow)"


def with_value(data, path, value):
    """A copy of data with the value at path replaced; the containers on the path are copied, the rest shared."""
    if not path:
        return value
    key, *rest = path
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[key] = with_value(data[key], rest, value)
    return copy


def drawn(draw, rng):
    """One field's new value: whole numbers k in [lo, hi], then k / divide or values[k]."""
    ks = rng.integers(draw.lo, draw.hi + 1, size=draw.shape)
    values = np.asarray(draw.values)[ks] if draw.values is not None else ks / draw.divide
    if draw.path[0] == "params" and draw.divide == 1 and draw.values is None:
        values = ks  # a list of whole numbers in params stays whole, as params.py reads it (lengths, counts)
    return (
        values.tolist() if draw.shape else (int(values) if draw.divide == 1 and draw.values is None else float(values))
    )


def draw_fixture(spec, base, rng):
    """The lesson's own fixture with the drawn fields replaced."""
    for draw in spec.draws:
        base = with_value(base, draw.path, drawn(draw, rng))
    return base


def no_tied_top_weight(trace, margin):
    for head in trace.heads:
        for row in head.weights:
            ranked = np.sort(row)[::-1]
            if len(ranked) > 1 and ranked[0] - ranked[1] <= margin + 1e-9:
                return False
    return True


def scores_within(trace, bound):
    return all(np.all(np.abs(head.scores) <= bound + 1e-9) for head in trace.heads)


def no_fully_masked_row(trace, _):
    return all(np.all(head.visible.any(axis=1)) for head in trace.heads)


def finite(trace):
    parts = [trace.output, *(head.weights for head in trace.heads), *(head.output for head in trace.heads)]
    return all(np.all(np.isfinite(part)) for part in parts)


CHECKS = {
    "no_tied_top_weight": no_tied_top_weight,
    "scores_within": scores_within,
    "no_fully_masked_row": no_fully_masked_row,
}


def first_failure(spec, trace):
    """The index into spec.require of the first constraint the trace fails; -1 for overflow; None if all hold."""
    if not finite(trace):
        return -1
    for i, (name, value) in enumerate(spec.require):
        if not CHECKS[name](trace, value):
            return i
    return None


def label(spec, index):
    if index == -1:
        return FINITE
    name, value = spec.require[index]
    return name if value is None else f"{name}: {value:g}"


def variant(spec, base, number, file):
    """Variant ``number``: (its fixture's JSON form, its Record). Variant 0 is the lesson's own."""
    if number == 0:
        return base, record.computed(base, file)
    rng = np.random.default_rng([spec.seed, number])
    failures = {}
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(MAX_TRIES):
            plain = draw_fixture(spec, base, rng)
            try:
                found = record.computed(plain, file)
            except FixtureError as error:
                raise PracticeError(
                    file,
                    "practice.draw",
                    "drawn fields that fit the rest of the fixture",
                    f"variant {number} with {error.path}: expected {error.expected}, got {error.found}",
                ) from None
            failed = first_failure(spec, found.trace)
            if failed is None:
                return plain, found
            failures[failed] = failures.get(failed, 0) + 1
    worst = max(failures, key=lambda i: (failures[i], -i))
    where = "practice.draw" if worst == -1 else f"practice.require[{worst}]"
    raise PracticeError(
        file,
        where,
        f"numbers satisfying {label(spec, worst)} within {MAX_TRIES} draws (variant {number})",
        f"{failures[worst]} of {MAX_TRIES} draws failing it",
    )
