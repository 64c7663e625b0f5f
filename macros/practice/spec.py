"""A lesson's ``practice:`` block: how its exercise is drawn on new numbers, read with located errors.

    practice:
      seed: 7                          # optional; default: a hash of the lesson's folder name
      variants: 20                     # optional: how many sets of new numbers the page ships (1 to 50)
      draw:                            # the fields drawn anew; every other field is the lesson's own
        X: {ints: [-2, 2]}             # whole numbers from -2 to 2, the lesson's shape
        heads[*].W_Q: {tenths: [-1, 1]}  # one-decimal values -1.0 … 1.0, for every head
        heads[1].W_V: {one_of: [0, 1], shape: [4, 2]}
        params.n: {ints: [4, 12]}      # a number of the lesson's params (a list: shape [k])
      require: [no_tied_top_weight, scores_within: 8, no_fully_masked_row]
      answer: heads.0.weights.2.0      # the graded values: paths as `python -m macros trace` prints them

``draw`` keys are the fixture's matrix fields as its error messages write them (``X``,
``Q``, ``K``, ``V``, ``W_O``, ``source``, ``heads[1].W_K``; ``[*]`` stands for every head),
its params (``params.n``) and its whole-number settings (``window``, ``block_size``). Each
value holds exactly one of ``ints: [lo, hi]`` (whole numbers), ``tenths: [lo, hi]``
(one-decimal numbers) or ``one_of: [...]`` (a list of numbers to pick from), and an optional
``shape`` (default: the lesson's own). Bounds are within ±1000.

``require`` lists constraints, each a bare name or ``name: value`` (macros.practice.draw):
``no_tied_top_weight`` (a margin, default 1e-6), ``scores_within: B``, ``no_fully_masked_row``.

``answer`` is one path or a list: into the layer (``heads.0.weights.2.0``, ``output.1.0``,
``batch.1.heads.0.output.3.0``), the steps of generation (``online.heads.0.blocks.1.m.4``,
``decoding.heads.0.steps.3.reading.0``, ``groups.1.readings.2.3.0``, ``decode_cost.0.step.macs``), or a layer with its
heads swapped (``swapped.output.2.0``, ``swapped_with_blocks.output.2.0``). What each path
is in a reader's words, its tolerance and its range come from macros.practice.quantities.
"""

import math
import re
from dataclasses import dataclass

from macros.errors import PracticeError
from macros.sources.fixture import closest_field
from macros.sources.found import describe

BOUND = 1000
MAX_SIDE = 16
DEFAULT_VARIANTS = 20
MOST_VARIANTS = 50
FIELDS = ("seed", "variants", "draw", "require", "answer")
KINDS = ("ints", "tenths", "one_of")
MATRICES = ("X", "Q", "K", "V", "W_O", "source")
SETTINGS = ("window", "block_size")  # whole numbers a count question may draw anew
# name -> (takes a value, default value or None when the value is required)
CONSTRAINTS = {
    "no_tied_top_weight": (True, 1e-6),
    "scores_within": (True, None),
    "no_fully_masked_row": (False, None),
}


@dataclass(frozen=True)
class Draw:
    """One drawn field: whole numbers k in [lo, hi], each entry k / divide or values[k]."""

    field: str  # as written in errors: heads[0].W_Q, params.n
    path: tuple  # keys into the fixture's JSON form: ("heads", 0, "W_Q")
    shape: tuple  # (rows, cols) of a matrix, (k,) of a list, () of one number
    lo: int
    hi: int
    divide: int = 1
    values: tuple | None = None


@dataclass(frozen=True)
class Spec:
    """A parsed practice block: what to draw, what must hold, what is graded, how many sets."""

    seed: int
    variants: int
    draws: tuple  # of Draw
    require: tuple  # of (name, value)
    answers: tuple  # of record paths


def fnv1a(text):
    """FNV-1a (32 bits) of the text's UTF-8 bytes: a lesson's default seed from its folder name."""
    value = 0x811C9DC5
    for byte in str(text).encode("utf-8"):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value


def drawable_fields(base):
    """The fields a block may draw, as errors name them, with their keys into the JSON form."""
    fields = {name: (name,) for name in MATRICES if name in base}
    for i in range(len(base.get("heads", []))):
        for name in ("W_Q", "W_K", "W_V"):
            fields[f"heads[{i}].{name}"] = ("heads", i, name)
    for name in SETTINGS:
        if isinstance(base.get(name), int):
            fields[name] = (name,)
    for name in base.get("params", {}):
        fields[f"params.{name}"] = ("params", name)
    return fields


def at(data, path):
    for key in path:
        data = data[key]
    return data


def shape_of(value):
    if isinstance(value, list) and value and isinstance(value[0], list):
        return (len(value), len(value[0]))
    return (len(value),) if isinstance(value, list) else ()


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

    def known(self, key, path, allowed):
        if key not in allowed:
            close = closest_field(str(key), allowed)
            hint = f" (did you mean {close}?)" if close else ""
            self.fail(path, f"one of the fields {', '.join(sorted(allowed))}", f"an unknown field{hint}")

    def block(self, practice, base, slug, known_paths):
        """The Spec; ``known_paths(path)`` is the value at a path of the lesson's own record."""
        if not isinstance(practice, dict):
            self.fail("", "a mapping with draw, require and answer", describe(practice))
        for key in practice:
            self.known(key, f".{key}", FIELDS)
        for key in ("draw", "answer"):
            if key not in practice:
                self.fail(f".{key}", "this field", "nothing: it is missing")
        seed = self.whole(practice["seed"], ".seed", 0, 2**32 - 1) if "seed" in practice else fnv1a(slug)
        variants = self.whole(practice.get("variants", DEFAULT_VARIANTS), ".variants", 1, MOST_VARIANTS)
        return Spec(
            seed=seed,
            variants=variants,
            draws=self.draws(practice["draw"], base),
            require=self.require(practice.get("require", [])),
            answers=self.answers(practice["answer"], known_paths),
        )

    def draws(self, value, base):
        if not isinstance(value, dict) or not value:
            self.fail(".draw", "a mapping from fields to what they are drawn from", describe(value))
        fields = drawable_fields(base)
        draws, seen = [], set()
        for key, how in value.items():
            pattern = re.compile(re.escape(str(key)).replace(r"\[\*\]", r"\[\d+\]") + "$")
            matched = [name for name in fields if pattern.match(name)]
            if not matched:
                self.fail(f".draw.{key}", f"a field of this fixture: {', '.join(fields)}", "an unknown field")
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
            self.known(key, f"{path}.{key}", (*KINDS, "shape"))
        kinds = [kind for kind in KINDS if kind in how]
        if len(kinds) != 1:
            self.fail(path, "exactly one of ints, tenths or one_of", ", ".join(kinds) or "none of them")
        shape = shape_of(at(base, keys))
        if "shape" in how:
            given = how["shape"]
            if not isinstance(given, list) or len(given) != len(shape):
                self.fail(f"{path}.shape", f"{len(shape)} whole numbers, the field's own dimensions", describe(given))
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
            lo, hi, divide = *(self.whole(x, where, -BOUND, BOUND) for x in (lo, hi)), 1
        else:
            lo, hi, divide = *(self.tenth(x, where) for x in (lo, hi)), 10
        if lo > hi:
            self.fail(where, "[lo, hi] with lo no larger than hi", f"[{how[kind][0]}, {how[kind][1]}]")
        return Draw(name, keys, shape, lo, hi, divide)

    def tenth(self, value, path):
        """A bound of a one-decimal range, as a whole number of tenths."""
        self.number(value, path)
        k = round(value * 10)
        if abs(value) > BOUND or abs(value * 10 - k) > 1e-9:
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

    def answers(self, value, known_paths):
        paths = value if isinstance(value, list) else [value]
        if not paths:
            self.fail(".answer", "a path, or a list of them", "an empty list")
        for i, path in enumerate(paths):
            where = ".answer" if not isinstance(value, list) else f".answer[{i}]"
            found = known_paths(path) if isinstance(path, str) else None
            if isinstance(found, bool) or not isinstance(found, int | float):
                got = describe(path)
                if isinstance(path, str):
                    got += ", which names nothing computed" if found is None else f", which is {describe(found)}"
                self.fail(
                    where, "a path to one number, as `python -m macros trace` prints it (heads.0.weights.2.0)", got
                )
        return tuple(paths)


def parse(practice, base, file, slug, known_paths):
    """The Spec of a practice block, for the lesson whose fixture's JSON form is ``base``."""
    return Reader(file).block(practice, base, slug, known_paths)
