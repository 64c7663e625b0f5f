"""A lesson's ``practice:`` block: how its exercise is drawn on new numbers, read with located errors.

    practice:
      seed: 7                          # optional; default: a hash of the lesson's folder name
      variants: 20                     # optional: how many sets of new numbers the page ships (1 to 50)
      draw:                            # the fields drawn anew; every other field is the lesson's own
        X: {ints: [-2, 2]}             # whole numbers from -2 to 2, the lesson's shape
        heads[*].W_Q: {tenths: [-1, 1]}  # one-decimal values -1.0 … 1.0, for every head
        heads[1].W_V: {one_of: [0, 1], shape: [4, 2]}
        params.n: {ints: [4, 12]}      # a number of the lesson's params (a list: shape [k])
        transformer.order: {one_of: [pre, post]}  # a setting written as a word
      require: [no_tied_top_weight, scores_within: 8, no_zero_row: V]
      answer: heads.0.weights.2.0      # the graded values: paths as `python -m macros trace` prints them
      # or, for questions of more than one kind, which the sets take in turn:
      kinds:
        - heads.0.weights.2.0          # sets 1, 3, 5, … (and 0, the lesson's own numbers)
        - [unscaled.heads.0.weights.2.0, heads.0.weights.2.0]   # sets 2, 4, 6, …

``draw`` keys are the fixture's matrix fields as its error messages write them (``X``,
``Q``, ``K``, ``V``, ``W_O``, ``source``, ``heads[1].W_K``; ``[*]`` stands for every head),
its params (``params.n``), its whole-number settings (``window``, ``block_size``,
``query_block_size``), the transformer block's ``transformer.order`` and the model's
``embedding.E``, ``embedding.P``, ``embedding.ids``, ``unembedding.W_U`` and
``sampling.temperature``. Each value holds
exactly one of ``ints: [lo, hi]`` (whole numbers), ``tenths: [lo, hi]`` (one-decimal numbers)
or ``one_of: [...]`` (a list to pick from: numbers, or words for a setting written as a word),
and an optional ``shape`` (default: the lesson's own). Bounds are within ±1000 (±1,000,000
for params, which hold sizes and lengths).

``require`` lists constraints, each a bare name or ``name: value`` (macros.practice.draw):
``no_tied_top_weight`` (a margin, default 1e-6), ``scores_within: B``, ``no_fully_masked_row``,
``no_uniform_weights``, ``no_zero_row: V`` (X, Q, K, V or source), ``answer_not: [0, 1]``,
``answers_differ``, ``no_tie_at_top_k`` (a margin, default 1e-6).
Besides them, every set must differ from the sets before it (macros.practice.draw), so the
block's draw space must hold more sets than ``variants``.

``answer`` (or each entry of ``kinds``) is one path or a list: into the layer
(``heads.0.weights.2.0``, ``output.1.0``, ``batch.1.heads.0.output.3.0``), the steps of
generation (``online.heads.0.blocks.1.m.4``, ``decoding.heads.0.steps.3.reading.0``,
``groups.1.readings.2.3.0``, ``decode_cost.0.step.macs``), a layer with its heads swapped
(``swapped.output.2.0``), or a quantity computed from them (``tiles.skipped``,
``unscaled.heads.0.weights.0.0``: macros.practice.record lists them). What each path is in a
reader's words, its tolerance and its range come from macros.practice.quantities.
"""

import math
import re
from dataclasses import dataclass

from macros.errors import PracticeError
from macros.sources.fixture import closest_field
from macros.sources.found import describe

BOUND = 1000
PARAMS_BOUND = 10**6  # a size or length in params (tokens of a text, a window) may be drawn larger
MAX_SIDE = 16
DEFAULT_VARIANTS = 20
MOST_VARIANTS = 50
MOST_KINDS = 6
FIELDS = ("seed", "variants", "draw", "require", "answer", "kinds")
KINDS = ("ints", "tenths", "one_of")
MATRICES = ("X", "Q", "K", "V", "W_O", "source")
SETTINGS = ("window", "block_size", "query_block_size")  # whole numbers a question may draw anew
WORDS = {"transformer.order": ("transformer", "order")}  # settings written as a word
ROWS = ("X", "Q", "K", "V", "source")  # the matrices no_zero_row may name
# name -> (what its value is: None (no value), "number", "matrix" or "numbers"; default or None when required)
CONSTRAINTS = {
    "no_tied_top_weight": ("number", 1e-6),
    "scores_within": ("number", None),
    "no_fully_masked_row": (None, None),
    "no_uniform_weights": (None, None),
    "no_zero_row": ("matrix", None),
    "answer_not": ("numbers", None),
    "answers_differ": (None, None),
    "no_tie_at_top_k": ("number", 1e-6),
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

    @property
    def choices(self):
        """How many different values the field can take: every entry's choices multiplied."""
        return (self.hi - self.lo + 1) ** math.prod(self.shape)


@dataclass(frozen=True)
class Spec:
    """A parsed practice block: what to draw, what must hold, what is graded, how many sets."""

    seed: int
    variants: int
    draws: tuple  # of Draw
    require: tuple  # of (name, value)
    kinds: tuple  # of tuples of record paths: the questions of each kind, which the sets take in turn

    @property
    def answers(self):
        """Every path some set grades, each once, in the order written."""
        return tuple(dict.fromkeys(path for kind in self.kinds for path in kind))

    def kind_of(self, number):
        """The kind of question set ``number`` asks: sets 1, 2, 3, … take the kinds in turn; set 0,
        the lesson's own numbers, asks the first."""
        return max(number - 1, 0) % len(self.kinds)

    @property
    def space(self):
        """How many different sets of numbers the draws can give."""
        return math.prod(draw.choices for draw in self.draws)


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
            if name in base["heads"][i]:
                fields[f"heads[{i}].{name}"] = ("heads", i, name)
    for name in SETTINGS:
        if isinstance(base.get(name), int):
            fields[name] = (name,)
    for name, keys in WORDS.items():
        if isinstance(at(base, keys, None), str):
            fields[name] = keys
    for name in base.get("params", {}):
        fields[f"params.{name}"] = ("params", name)
    return fields | model_fields(base)


# The model around attention's fields a block may draw: the embedding's matrices and ids, a
# separate unembedding, the draw's temperature (macros/sources/model_keys.py).
MODEL_FIELDS = {
    "embedding.E": ("embedding", "E"),
    "embedding.P": ("embedding", "P"),
    "embedding.ids": ("embedding", "ids"),
    "unembedding.W_U": ("unembedding", "W_U"),
    "sampling.temperature": ("sampling", "temperature"),
}
WHOLE = {("embedding", "ids")}  # drawn whole numbers that stay whole (ids), as params' do


def model_fields(base):
    """The model's fields the lesson has (a tied W_U, the word, is not a matrix to draw)."""
    return {name: keys for name, keys in MODEL_FIELDS.items() if isinstance(at(base, keys, None), list | int | float)}


def at(data, path, missing=KeyError):
    for key in path:
        if not isinstance(data, dict | list) or (isinstance(data, dict) and key not in data):
            if missing is KeyError:
                raise KeyError(key)
            return missing
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
        if "draw" not in practice:
            self.fail(".draw", "this field", "nothing: it is missing")
        if ("answer" in practice) == ("kinds" in practice):
            both = "both" if "answer" in practice else "nothing: it is missing"
            self.fail(".answer", "this field, or kinds (questions of more than one kind) instead", both)
        seed = self.whole(practice["seed"], ".seed", 0, 2**32 - 1) if "seed" in practice else fnv1a(slug)
        variants = self.whole(practice.get("variants", DEFAULT_VARIANTS), ".variants", 1, MOST_VARIANTS)
        spec = Spec(
            seed=seed,
            variants=variants,
            draws=self.draws(practice["draw"], base),
            require=self.require(practice.get("require", []), base),
            kinds=self.kinds(practice, known_paths),
        )
        if spec.space <= variants:
            sizes = ", ".join(f"{draw.field}: {draw.choices}" for draw in spec.draws)
            self.fail(
                ".draw",
                f"a draw space of more than {variants} sets of numbers, so that the {variants} sets differ "
                "from each other and from the lesson's own",
                f"{spec.space} ({sizes})",
            )
        return spec

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
        bound = PARAMS_BOUND if keys[0] == "params" else BOUND
        if name in WORDS:
            if kind != "one_of" or not all(isinstance(x, str) for x in how.get("one_of") or [None]):
                self.fail(where, "one_of: a list of the words this setting may take", describe(how[kind]))
            return Draw(name, keys, (), 0, len(how["one_of"]) - 1, 1, tuple(how["one_of"]))
        if kind == "one_of":
            values = how["one_of"]
            if not isinstance(values, list) or not values or len(values) > BOUND:
                self.fail(where, f"a list of 1 to {BOUND} numbers", describe(values))
            for i, x in enumerate(values):
                if abs(self.number(x, f"{where}[{i}]")) > bound:
                    self.fail(f"{where}[{i}]", f"a number within ±{bound:,}", describe(x))
            if len(set(values)) != len(values):
                self.fail(where, "a list of different numbers", describe(values))
            return Draw(name, keys, shape, 0, len(values) - 1, 1, tuple(float(x) for x in values))
        lo, hi = self.pair(how[kind], where, "numbers")
        if kind == "ints":
            lo, hi, divide = *(self.whole(x, where, -bound, bound) for x in (lo, hi)), 1
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

    def require(self, value, base):
        if not isinstance(value, list):
            self.fail(".require", "a list of constraints", describe(value))
        found = tuple(self.constraint(item, f".require[{i}]") for i, item in enumerate(value))
        for i, (name, _) in enumerate(found):
            if name == "no_tie_at_top_k" and "sampling" not in base:
                self.fail(f".require[{i}]", "no_tie_at_top_k only in a lesson with a sampling block", "no sampling")
        return found

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
        if takes is None:
            if value is not None:
                self.fail(path, f"{name} alone, without a value", describe(value))
            return (name, None)
        if value is None:
            if default is None:
                self.fail(path, f"{name}: {self.what(takes)}", f"no {'number' if takes == 'number' else 'value'}")
            return (name, default)
        where = f"{path}.{name}"
        if takes == "matrix":
            if value not in ROWS:
                self.fail(where, f"one of the matrices {', '.join(ROWS)}", describe(value))
            return (name, value)
        if takes == "numbers":
            if not isinstance(value, list) or not value:
                self.fail(where, "a list of numbers", describe(value))
            return (name, tuple(float(self.number(x, f"{where}[{i}]")) for i, x in enumerate(value)))
        if self.number(value, where) < 0:
            self.fail(where, "a number of at least 0", describe(value))
        return (name, float(value))

    @staticmethod
    def what(takes):
        return {"number": "a number", "matrix": "a matrix name", "numbers": "a list of numbers"}[takes]

    def kinds(self, practice, known_paths):
        if "answer" in practice:
            return (self.answers(practice["answer"], known_paths, ".answer"),)
        value = practice["kinds"]
        if not isinstance(value, list) or not 2 <= len(value) <= MOST_KINDS:
            self.fail(
                ".kinds", f"a list of 2 to {MOST_KINDS} kinds of question, each a path or a list", describe(value)
            )
        kinds = tuple(self.answers(kind, known_paths, f".kinds[{i}]") for i, kind in enumerate(value))
        for i, kind in enumerate(kinds):
            if kind in kinds[:i]:
                self.fail(f".kinds[{i}]", "kinds that differ", f"the same questions as kinds[{kinds.index(kind)}]")
        return kinds

    def answers(self, value, known_paths, where):
        paths = value if isinstance(value, list) else [value]
        if not paths:
            self.fail(where, "a path, or a list of them", "an empty list")
        for i, path in enumerate(paths):
            at_path = where if not isinstance(value, list) else f"{where}[{i}]"
            found = known_paths(path) if isinstance(path, str) else None
            if isinstance(found, bool) or not isinstance(found, int | float):
                got = describe(path)
                if isinstance(path, str):
                    got += ", which names nothing computed" if found is None else f", which is {describe(found)}"
                self.fail(
                    at_path, "a path to one number, as `python -m macros trace` prints it (heads.0.weights.2.0)", got
                )
        return tuple(paths)


def parse(practice, base, file, slug, known_paths):
    """The Spec of a practice block, for the lesson whose fixture's JSON form is ``base``."""
    return Reader(file).block(practice, base, slug, known_paths)
