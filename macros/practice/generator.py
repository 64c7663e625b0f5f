"""A lesson's practice generator: seeded variants of its fixture, twin of docs/assets/js/practice/generator.js.

A lesson declares its generator in its fixture, under ``practice:``::

    practice:
      seed: 7                          # optional; default: a hash of the lesson's folder name
      draw:                            # the fields drawn anew; every other field is the lesson's own
        X: {ints: [-2, 2]}             # whole numbers from -2 to 2, the lesson's shape
        heads[*].W_Q: {tenths: [-1, 1]}  # one-decimal values -1.0 … 1.0, for every head
        heads[1].W_V: {one_of: [0, 1], shape: [4, 2]}
      require: [no_tied_top_weight, scores_within: 8, no_fully_masked_row]
      answer: heads.0.weights.2.0      # the graded value: a trace path (or a list of them)
      tolerance: 0.01                  # optional; absent: the exercise's own

``draw`` keys are the fixture's matrix fields as its error messages write them (``X``,
``Q``, ``K``, ``V``, ``W_O``, ``heads[1].W_K``); ``[*]`` stands for every head. Each value
holds exactly one of ``ints: [lo, hi]`` (whole numbers), ``tenths: [lo, hi]`` (one-decimal
numbers, lo and hi themselves with at most one decimal) or ``one_of: [...]`` (a list of
numbers to pick from), and an optional ``shape: [rows, cols]`` (default: the lesson's own).
Bounds are within ±1000.

``require`` lists constraints, each a bare name or ``name: value``:

- ``no_tied_top_weight`` (value: a margin, default 1e-6): in every row of every head the
  largest weight exceeds the next largest by more than the margin.
- ``scores_within: B``: every raw score q·k of every head lies in [-B, B].
- ``no_fully_masked_row``: every query of every head sees at least one key.

Every variant must also have finite weights and outputs (no overflow). Thresholds are
compared with a slack of 1e-9, so that float rounding, which may differ in its last bit
between numpy and the browser, never decides a constraint.

Variant 0 is the lesson's own fixture. Variant N ≥ 1 draws from the stream of (seed, N)
(see prng.py): the drawn fields in the order written, each matrix row by row; when the
draw fails the validation or a constraint, the next numbers of the same stream are drawn,
up to MAX_TRIES draws, after which the build stops with a message naming the constraint
that failed most often.
"""

import math
import re
from dataclasses import dataclass

from macros.engine.trace import LAYER_FIELDS, JsonView, to_dict
from macros.errors import FixtureError
from macros.practice.prng import TWO_32, Stream, fnv1a
from macros.sources.fixture import closest_field, validate
from macros.sources.found import describe

MAX_TRIES = 200
SLACK = 1e-9
BOUND = 1000
MAX_SIDE = 16
FIELDS = ("seed", "draw", "require", "answer", "tolerance")
KINDS = ("ints", "tenths", "one_of")
# name -> (takes a value, default value or None when the value is required)
CONSTRAINTS = {
    "no_tied_top_weight": (True, 1e-6),
    "scores_within": (True, None),
    "no_fully_masked_row": (False, None),
}
FINITE = "finite weights and outputs (no overflow)"


class PracticeError(FixtureError):
    """A mistake in a fixture's practice block, or a generator that cannot satisfy its constraints."""


@dataclass(frozen=True)
class Draw:
    """One drawn matrix: whole numbers k in [lo, hi], each entry k / divide or values[k]."""

    field: str  # as written in errors: heads[0].W_Q
    path: tuple  # keys into the fixture's JSON form: ("heads", 0, "W_Q")
    shape: tuple  # (rows, cols)
    lo: int
    hi: int
    divide: int = 1
    values: tuple | None = None


@dataclass(frozen=True)
class Spec:
    """A parsed practice block: what to draw, what must hold, what is graded."""

    seed: int
    draws: tuple  # of Draw
    require: tuple  # of (name, value)
    answers: tuple  # of trace paths
    tolerance: float | None


# ---------------------------------------------------------------- reading the block


def matrix_fields(base):
    """The fixture's matrix fields, as errors name them, with their keys into the JSON form."""
    fields = {name: (name,) for name in ("X", "Q", "K", "V", "W_O") if name in base}
    for i in range(len(base.get("heads", []))):
        for name in ("W_Q", "W_K", "W_V"):
            fields[f"heads[{i}].{name}"] = ("heads", i, name)
    return fields


def at(data, path):
    for key in path:
        data = data[key]
    return data


def resolve_trace(trace, path):
    """The value at a dotted trace path (heads.0.weights.2.0), or None when there is none."""
    value = trace
    for part in str(path).split("."):
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict | JsonView) and part in value:
            value = value[part]
        else:
            return None
    return value


class Reader:
    """Reads one practice block; every error names the file and the field's path under practice."""

    def __init__(self, file):
        self.file = file

    def fail(self, path, expected, found):
        raise PracticeError(self.file, f"practice{path}", expected, found)

    def whole(self, value, path, lo, hi):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            self.fail(path, f"a whole number from {lo} to {hi}", describe(value))
        return value

    def number(self, value, path):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            self.fail(path, "a number", describe(value))
        return value

    def pair(self, value, path, what):
        if not isinstance(value, list) or len(value) != 2:
            self.fail(path, f"[lo, hi]: two {what}", describe(value))
        return value

    def block(self, practice, base, slug):
        if not isinstance(practice, dict):
            self.fail("", "a mapping with draw, require and answer", describe(practice))
        for key in practice:
            if key not in FIELDS:
                close = closest_field(str(key), FIELDS)
                hint = f" (did you mean {close}?)" if close else ""
                self.fail(f".{key}", f"one of the fields {', '.join(sorted(FIELDS))}", f"an unknown field{hint}")
        for key in ("draw", "answer"):
            if key not in practice:
                self.fail(f".{key}", "this field", "nothing: it is missing")
        seed = self.whole(practice["seed"], ".seed", 0, TWO_32 - 1) if "seed" in practice else fnv1a(slug)
        tolerance = practice.get("tolerance")
        if tolerance is not None and (self.number(tolerance, ".tolerance") <= 0):
            self.fail(".tolerance", "a positive number", describe(tolerance))
        return Spec(
            seed=seed,
            draws=self.draws(practice["draw"], base),
            require=self.require(practice.get("require", [])),
            answers=self.answers(practice["answer"], base),
            tolerance=None if tolerance is None else float(tolerance),
        )

    def draws(self, value, base):
        if not isinstance(value, dict) or not value:
            self.fail(".draw", "a mapping from fields to what they are drawn from", describe(value))
        fields = matrix_fields(base)
        draws, seen = [], set()
        for key, how in value.items():
            pattern = re.compile(re.escape(str(key)).replace(r"\[\*\]", r"\[\d+\]") + "$")
            matched = [name for name in fields if pattern.match(name)]
            if not matched:
                self.fail(f".draw.{key}", f"a matrix field of this fixture: {', '.join(fields)}", "an unknown field")
            for name in matched:
                if name in seen:
                    self.fail(f".draw.{key}", "each field drawn once", f"{name} drawn again")
                seen.add(name)
                draws.append(self.draw(how, f".draw.{key}", name, fields[name], base))
        return tuple(draws)

    def draw(self, how, path, name, keys, base):
        if not isinstance(how, dict):
            self.fail(path, "a mapping with one of ints, tenths or one_of", describe(how))
        for key in how:
            if key not in (*KINDS, "shape"):
                close = closest_field(str(key), (*KINDS, "shape"))
                hint = f" (did you mean {close}?)" if close else ""
                self.fail(f"{path}.{key}", "one of the fields ints, one_of, shape, tenths", f"an unknown field{hint}")
        kinds = [kind for kind in KINDS if kind in how]
        if len(kinds) != 1:
            self.fail(path, "exactly one of ints, tenths or one_of", ", ".join(kinds) or "none of them")
        own = at(base, keys)
        shape = (len(own), len(own[0]))
        if "shape" in how:
            given = self.pair(how["shape"], f"{path}.shape", "whole numbers (rows, columns)")
            shape = tuple(self.whole(x, f"{path}.shape", 1, MAX_SIDE) for x in given)
        kind = kinds[0]
        where = f"{path}.{kind}"
        if kind == "one_of":
            values = how["one_of"]
            if not isinstance(values, list) or not values or len(values) > BOUND:
                self.fail(where, f"a list of 1 to {BOUND} numbers", describe(values))
            for i, x in enumerate(values):
                if abs(self.number(x, f"{where}[{i}]")) > BOUND:
                    self.fail(f"{where}[{i}]", f"a number within ±{BOUND}", describe(x))
            return Draw(name, keys, shape, 0, len(values) - 1, 1, tuple(float(x) for x in values))
        lo, hi = self.pair(how[kind], where, "numbers")
        if kind == "ints":
            lo, hi = (self.whole(x, where, -BOUND, BOUND) for x in (lo, hi))
            divide = 1
        else:
            lo, hi = (self.tenth(x, where) for x in (lo, hi))
            divide = 10
        if lo > hi:
            self.fail(where, "[lo, hi] with lo no larger than hi", f"[{how[kind][0]}, {how[kind][1]}]")
        return Draw(name, keys, shape, lo, hi, divide)

    def tenth(self, value, path):
        """A bound of a one-decimal range, as a whole number of tenths."""
        self.number(value, path)
        k = round(value * 10)
        if abs(value) > BOUND or abs(value * 10 - k) > SLACK:
            self.fail(path, f"numbers with at most one decimal, within ±{BOUND}", describe(value))
        return k

    def require(self, value):
        if not isinstance(value, list):
            self.fail(".require", "a list of constraints", describe(value))
        return tuple(self.constraint(item, f".require[{i}]") for i, item in enumerate(value))

    def constraint(self, item, path):
        if isinstance(item, dict) and len(item) == 1:
            ((name, value),) = item.items()
        elif isinstance(item, str):
            name, value = item, None
        else:
            self.fail(path, "a constraint: a name, or name: value", describe(item))
        if name not in CONSTRAINTS:
            close = closest_field(str(name), CONSTRAINTS)
            hint = f" (did you mean {close}?)" if close else ""
            self.fail(path, f"one of the constraints {', '.join(CONSTRAINTS)}", f"{describe(name)}{hint}")
        takes, default = CONSTRAINTS[name]
        if not takes:
            if value is not None:
                self.fail(path, f"{name} alone, without a value", describe(value))
            return (name, None)
        if value is None:
            if default is None:
                self.fail(path, f"{name}: a number", "no number")
            return (name, default)
        if self.number(value, f"{path}.{name}") < 0:
            self.fail(f"{path}.{name}", "a number of at least 0", describe(value))
        return (name, float(value))

    def answers(self, value, base):
        paths = value if isinstance(value, list) else [value]
        if not paths:
            self.fail(".answer", "a trace path, or a list of them", "an empty list")
        own = trace_of(base, self.file)
        for i, path in enumerate(paths):
            where = ".answer" if not isinstance(value, list) else f".answer[{i}]"
            found = resolve_trace(own, path) if isinstance(path, str) else None
            if isinstance(found, bool) or not isinstance(found, int | float):
                got = (
                    f"{describe(path)}, which names nothing in the trace"
                    if found is None
                    else f"{describe(path)}, which is {describe(found)}"
                )
                got = got if isinstance(path, str) else describe(path)
                self.fail(where, "a trace path to one number, such as heads.0.weights.2.0", got)
        return tuple(paths)


def parse(practice, base, file, slug):
    """The Spec of a practice block, for the lesson whose fixture's JSON form is ``base``."""
    return Reader(file).block(practice, base, slug)


def to_plain(spec):
    """The Spec's JSON form: what the browser's generator.js reads (fields already expanded)."""
    return {
        "seed": spec.seed,
        "draws": [
            {
                "field": d.field,
                "path": list(d.path),
                "shape": list(d.shape),
                "lo": d.lo,
                "hi": d.hi,
                "divide": d.divide,
                "values": None if d.values is None else list(d.values),
            }
            for d in spec.draws
        ],
        "require": [{"name": name, "value": value} for name, value in spec.require],
        "answers": list(spec.answers),
        "tolerance": spec.tolerance,
        "max_tries": MAX_TRIES,
    }


# ---------------------------------------------------------------- drawing and checking


def trace_of(fixture, file):
    """The trace's JSON form of a fixture's JSON form, through validation and the numpy engine."""
    return to_dict(computed(fixture, file))


def computed(fixture, file):
    """The numpy trace of a fixture's JSON form (validated first)."""
    return validate(file, fixture).run()


def with_value(data, path, value):
    """A copy of data with the value at path replaced; the containers on the path are copied, the rest shared."""
    if not path:
        return value
    key, *rest = path
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[key] = with_value(data[key], rest, value)
    return copy


def draw_fixture(spec, base, stream):
    """One draw: the lesson's own fixture with the drawn fields replaced, from the stream's next numbers."""
    fixture = base
    for d in spec.draws:
        rows, cols = d.shape
        ks = [[stream.integer(d.lo, d.hi) for _ in range(cols)] for _ in range(rows)]
        matrix = [[d.values[k] if d.values is not None else k / d.divide for k in row] for row in ks]
        fixture = with_value(fixture, d.path, matrix)
    return fixture


def heads_rows(trace, field):
    return [row for head in trace["heads"] for row in head[field]]


def finite(trace, _):
    rows = heads_rows(trace, "weights") + heads_rows(trace, "output") + trace["output"]
    return all(x is not None for row in rows for x in row)


def no_tied_top_weight(trace, margin):
    for row in heads_rows(trace, "weights"):
        ranked = sorted(row, reverse=True)
        if len(ranked) > 1 and ranked[0] - ranked[1] <= margin + SLACK:
            return False
    return True


def scores_within(trace, bound):
    return all(x is not None and abs(x) <= bound + SLACK for row in heads_rows(trace, "scores") for x in row)


def no_fully_masked_row(trace, _):
    return all(any(x is not None for x in row) for row in heads_rows(trace, "scaled"))


CHECKS = {
    "no_tied_top_weight": no_tied_top_weight,
    "scores_within": scores_within,
    "no_fully_masked_row": no_fully_masked_row,
}


def first_failure(spec, trace):
    """The index into spec.require of the first constraint the trace fails; -1 for overflow; None if all hold."""
    if not finite(trace, None):
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
    """Variant ``number``'s fixture (JSON form) and trace (JSON form); variant 0 is the lesson's own."""
    fixture, view = variant_computed(spec, base, number, file)
    return fixture, to_dict(view.record)


def variant_view(spec, base, number, file):
    """Variant ``number``'s trace read through its JSON form field by field (the build's check
    reads only the graded values)."""
    return variant_computed(spec, base, number, file)[1]


def variant_computed(spec, base, number, file):
    """Variant ``number``'s fixture (JSON form) and numpy trace, read through the JsonView the
    constraints read (what they converted is not converted again): the first draw of its
    stream that passes validation and every constraint."""
    if number == 0:
        return base, JsonView(computed(base, file), LAYER_FIELDS)
    stream = Stream(spec.seed, number)
    failures = {}
    for _ in range(MAX_TRIES):
        fixture = draw_fixture(spec, base, stream)
        try:
            trace = computed(fixture, file)
        except FixtureError as error:
            raise PracticeError(
                file,
                "practice.draw",
                "drawn fields that fit the rest of the fixture",
                f"variant {number} with {error.path}: expected {error.expected}, got {error.found}",
            ) from None
        view = JsonView(trace, LAYER_FIELDS)
        failed = first_failure(spec, view)  # reads only the fields it checks
        if failed is None:
            return fixture, view
        failures[failed] = failures.get(failed, 0) + 1
    worst = max(failures, key=lambda i: (failures[i], -i))
    where = "practice.draw" if worst == -1 else f"practice.require[{worst}]"
    raise PracticeError(
        file,
        where,
        f"numbers satisfying {label(spec, worst)} within {MAX_TRIES} draws (variant {number})",
        f"{failures[worst]} of {MAX_TRIES} draws failing it",
    )


def answers(spec, trace):
    """The graded values of a variant, read from its trace at the spec's paths."""
    return [resolve_trace(trace, path) for path in spec.answers]
