"""New numbers for a lesson's exercise: seeded variants of its fixture, drawn and checked.

Variant 0 is the lesson's own fixture. Variant N ≥ 1 draws from numpy's generator seeded with
(seed, N): the drawn fields in the order written, each row by row. A draw is refused, and the
generator's next numbers drawn, when it repeats an earlier set (``distinct``), fails the
fixture's validation, overflows, or breaks a rule of ``require``; after MAX_TRIES draws the
build stops naming the rule that refused most. Every refusal is counted by rule (``Drawn``),
so the build can say which rule refused how many draws.

The rules:

- ``no_tied_top_weight`` (value: a margin): in every row of every head the largest weight
  exceeds the next largest by more than the margin;
- ``scores_within: B``: every raw score of every head lies in [-B, B];
- ``no_fully_masked_row``: every query of every head sees at least one key;
- ``no_uniform_weights``: no row that sees two keys or more weighs them all alike;
- ``no_zero_row: V`` (X, Q, K, V or source): no row of that matrix (of any head) is all zeros;
- ``answer_not: [0, 1]``: no value the set grades lies within its tolerance of one of these:
  an answer that guessing 0 or 1 would pass, or working that comes to nothing (a gradient
  through a zero row, a rescale by 1, no tile skipped);
- ``answers_differ``: the values a set grades differ by more than their tolerance (two scores
  that the projections make differ, say);
- ``no_tie_at_top_k`` (value: a margin): the sampling's k-th and (k+1)-th largest
  probabilities differ by more than the margin, so which tokens top-k keeps needs no rule for
  ties (the lower id wins, which a reader would have to be told).

A set repeats another when its drawn numbers are the same, or when it asks the same kind of
question with the same answers and worked solutions (a count that does not depend on what
changed): ``distinct`` refuses it.
"""

import json
from dataclasses import dataclass, field

import numpy as np

from macros.errors import FixtureError, PracticeError
from macros.practice import record
from macros.practice.spec import WHOLE

MAX_TRIES = 200
FINITE = "finite weights and outputs (no overflow)"
DISTINCT = "distinct (a set that repeats an earlier one)"


def with_value(data, path, value):
    """A copy of data with the value at path replaced; the containers on the path are copied, the rest shared."""
    if not path:
        return value
    key, *rest = path
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[key] = with_value(data[key], rest, value)
    return copy


def drawn(draw, rng):
    """One field's new value: whole numbers k in [lo, hi], then k / divide or values[k]. Whole
    numbers stay whole (ints, a setting, a count in params), as the fixture reads them."""
    ks = rng.integers(draw.lo, draw.hi + 1, size=draw.shape)
    if draw.values is not None and isinstance(draw.values[0], str):
        return draw.values[int(ks)]
    if draw.values is None:
        whole = draw.path[0] == "params" or not draw.shape or tuple(draw.path) in WHOLE
        values = ks if draw.divide == 1 and whole else ks / draw.divide
    else:
        values = np.asarray(draw.values)[ks]
        if draw.path[0] == "params" and np.all(np.mod(values, 1) == 0):
            values = values.astype(int)  # a whole number picked from a list stays whole in params
    if not draw.shape:
        return int(values) if np.issubdtype(np.asarray(values).dtype, np.integer) else float(values)
    return values.tolist()


def draw_fixture(spec, base, rng):
    """The lesson's own fixture with the drawn fields replaced."""
    for draw in spec.draws:
        base = with_value(base, draw.path, drawn(draw, rng))
    return base


def drawn_key(spec, plain):
    """What a set's drawn fields are, as text: two sets with the same key have the same numbers."""
    values = []
    for draw in spec.draws:
        value = plain
        for key in draw.path:
            value = value[key]
        values.append(value)
    return json.dumps(values, sort_keys=True)


# ---------------------------------------------------------------- the rules


def no_tied_top_weight(rec, margin, _asked):
    for head in rec.trace.heads:
        ranked = np.sort(head.weights, axis=1)[:, ::-1]  # (n_q, n_k), largest first
        if ranked.shape[1] > 1 and np.any(ranked[:, 0] - ranked[:, 1] <= margin + 1e-9):
            return False
    return True


def scores_within(rec, bound, _asked):
    return all(np.all(np.abs(head.scores) <= bound + 1e-9) for head in rec.trace.heads)


def no_fully_masked_row(rec, _value, _asked):
    return all(np.all(head.visible.any(axis=1)) for head in rec.trace.heads)


def no_uniform_weights(rec, _value, _asked):
    for head in rec.trace.heads:
        seen = head.visible.sum(axis=1) >= 2  # (n_q,)
        spread = np.where(head.visible, head.weights, -np.inf).max(axis=1) - np.where(
            head.visible, head.weights, np.inf
        ).min(axis=1)  # (n_q,)
        if np.any(seen & (spread <= 1e-9)):
            return False
    return True


def no_zero_row(rec, name, _asked):
    if name in ("X", "source"):
        rows = [getattr(rec.fixture, name, None)]
    else:
        rows = [getattr(head, name) for head in rec.trace.heads]
    return all(M is None or np.all(np.any(np.asarray(M) != 0, axis=1)) for M in rows)


def answer_not(rec, values, asked):
    for path, tolerance in asked.items():
        found = rec.value(path)
        if isinstance(found, int | float) and any(abs(found - v) <= max(tolerance, 1e-9) for v in values):
            return False
    return True


def answers_differ(rec, _value, asked):
    values = [(rec.value(path), tolerance) for path, tolerance in asked.items()]
    for i, (a, tol_a) in enumerate(values):
        for b, tol_b in values[i + 1 :]:
            if isinstance(a, int | float) and isinstance(b, int | float) and abs(a - b) <= max(tol_a, tol_b, 1e-9):
                return False
    return True


def no_tie_at_top_k(rec, margin, _asked):
    sampling = rec.trace.sampling  # (the spec refuses the rule in a lesson without sampling)
    ranked = np.sort(sampling.probs)[::-1]  # (V,), largest first
    k = len(sampling.kept)
    return k >= len(ranked) or ranked[k - 1] - ranked[k] > margin + 1e-9


CHECKS = {
    "no_tied_top_weight": no_tied_top_weight,
    "scores_within": scores_within,
    "no_fully_masked_row": no_fully_masked_row,
    "no_uniform_weights": no_uniform_weights,
    "no_zero_row": no_zero_row,
    "answer_not": answer_not,
    "no_tie_at_top_k": no_tie_at_top_k,
    "answers_differ": answers_differ,
}


def finite(trace):
    parts = [trace.output, *(head.weights for head in trace.heads), *(head.output for head in trace.heads)]
    return all(np.isfinite(part).all() for part in parts)


def first_failure(spec, rec, asked=None):
    """The index into spec.require of the first rule the set breaks; -1 for overflow; None if all
    hold. ``asked``: the paths the set grades, each with its tolerance (what answer_not reads)."""
    asked = asked or {}
    if not finite(rec.trace):
        return -1
    for i, (name, value) in enumerate(spec.require):
        if not CHECKS[name](rec, value, asked):
            return i
    return None


def label(spec, index):
    """A rule as the block writes it: ``scores_within: 8``, ``no_zero_row: V``."""
    if index == -1:
        return FINITE
    if index == -2:
        return DISTINCT
    name, value = spec.require[index]
    if value is None:
        return name
    if isinstance(value, tuple):
        return f"{name}: [{', '.join(f'{v:g}' for v in value)}]"
    return f"{name}: {value:g}" if isinstance(value, float) else f"{name}: {value}"


@dataclass
class Drawn:
    """Every set drawn so far, and how many draws each rule refused (by index into
    spec.require; -1 overflow, -2 a repeat)."""

    keys: set = field(default_factory=set)
    refused: dict = field(default_factory=dict)
    tries: int = 0

    def refuse(self, index):
        self.refused[index] = self.refused.get(index, 0) + 1


def variant(spec, base, number, file, drawn_so_far=None, same_as=None, tolerances=None):
    """Variant ``number``: (its fixture's JSON form, its Record). Variant 0 is the lesson's own.

    ``drawn_so_far`` (a Drawn) holds the sets before it, so a repeat is refused and counted;
    ``same_as(plain, rec)`` says whether a set that passes every rule asks what an earlier set
    of its kind asked (the same answers and worked solutions); ``tolerances`` gives each graded
    path's tolerance (0 when not given)."""
    seen = drawn_so_far if drawn_so_far is not None else Drawn()
    if number == 0:
        seen.keys.add(drawn_key(spec, base))
        return base, record.computed(base, file)
    rng = np.random.default_rng([spec.seed, number])
    failures = {}
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for _ in range(MAX_TRIES):
            seen.tries += 1
            plain = draw_fixture(spec, base, rng)
            key = drawn_key(spec, plain)
            if key in seen.keys:
                failed = -2
            else:
                try:
                    found = record.computed(plain, file)
                except FixtureError as error:
                    raise PracticeError(
                        file,
                        "practice.draw",
                        "drawn fields that fit the rest of the fixture",
                        f"variant {number} with {error.path}: expected {error.expected}, got {error.found}",
                    ) from None
                asked = {path: (tolerances or {}).get(path, 0.0) for path in spec.kinds[spec.kind_of(number)]}
                failed = first_failure(spec, found, asked)
                if failed is None and same_as is not None and same_as(plain, found):
                    failed = -2
                if failed is None:
                    seen.keys.add(key)
                    return plain, found
            failures[failed] = failures.get(failed, 0) + 1
            seen.refuse(failed)
    worst = max(failures, key=lambda i: (failures[i], -i))
    where = "practice.draw" if worst < 0 else f"practice.require[{worst}]"
    raise PracticeError(
        file,
        where,
        f"numbers satisfying {label(spec, worst)} within {MAX_TRIES} draws (variant {number})",
        f"{failures[worst]} of {MAX_TRIES} draws failing it",
    )
