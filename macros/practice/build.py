"""A lesson's practice: its own numbers and a fixed set of new ones, drawn, computed and checked
at build time, shipped to the page as data.

For a lesson whose fixture has ``practice:`` (macros/practice/spec.py), the build draws
``variants`` sets of new numbers (macros/practice/draw.py), each set asking the kind of
question its turn gives it, and computes each with the engine. Every graded value of every
set must be a number in its quantity's range, every path one a reader's words name
(macros/practice/quantities.py), every worked solution must end with the value it is asked
for (macros/practice/worked.py), and every sum a worked solution shows must give its shown
result (macros/practice/worked_sums.py); no set may repeat another. Otherwise the build stops
with a located message. A set ships its numbers (the fixture's JSON form), its questions in
words with their answers and the lines of their worked solutions, formatted as the page
formats numbers; not a whole trace.
"""

import math
from dataclasses import dataclass

import numpy as np

from macros.practice import draw, quantities, spec, worked, worked_sums
from macros.practice.record import computed
from macros.render import arithmetic
from macros.sources import practice_key


@dataclass(frozen=True)
class Question:
    """One graded value as one set asks it: its path, its words, its answer and worked solution."""

    path: str
    quantity: quantities.Quantity
    answer: float
    solution: tuple  # the lines of its worked solution

    def to_data(self):
        q = self.quantity
        return {
            "path": self.path,
            "label": q.label,
            "stated": q.stated,
            "answer": self.answer,
            "tolerance": q.tolerance,
            "low": q.low,
            "high": q.high,
            "whole": q.whole,
            "why": q.why,
            "solution": list(self.solution),
        }


@dataclass(frozen=True)
class Variant:
    number: int
    kind: int  # which of the block's kinds of question the set asks
    fixture: dict  # the numbers, in the fixture's JSON form
    questions: tuple  # of Question
    given: dict | None = None  # computed rows the panel gives with the numbers (a block's attention output)

    @property
    def answers(self):
        return tuple(q.answer for q in self.questions)

    @property
    def solutions(self):
        return tuple(q.solution for q in self.questions)


@dataclass(frozen=True)
class Practice:
    spec: spec.Spec
    variants: tuple  # of Variant: 0 (the lesson's own numbers), then 1..spec.variants
    refused: dict  # rule (as the block writes it) -> how many draws it refused
    tries: int  # draws in all, refused ones included

    @property
    def checks(self):
        """The questions of set 1, the set the page is built with."""
        return self.variants[min(1, len(self.variants) - 1)].questions

    def to_data(self):
        """What the page loads on first use: every set (the lesson's own, 0, among them) with its
        questions, answers and solutions."""
        return {
            "count": self.spec.variants,
            "variants": [
                {
                    "variant": v.number,
                    "kind": v.kind,
                    "fixture": v.fixture,
                    "questions": [q.to_data() for q in v.questions],
                }
                for v in self.variants
            ],
        }


def names_of(fixture):
    return quantities.Names(
        tuple(fixture.query_labels),
        tuple(fixture.key_labels),
        len(fixture.heads) or fixture.n_heads,
        tuple(getattr(fixture, "vocabulary", ())),
    )


def in_range(value, q):
    return (
        not isinstance(value, bool)
        and isinstance(value, int | float)
        and math.isfinite(value)
        and (q.low is None or value >= q.low - 1e-12)
        and (q.high is None or value <= q.high + 1e-12)
    )


def questions(rec, paths, names, number, file, places, plain):
    """The questions of one computed set; a PracticeError for a value out of range or a worked
    solution that does not reach the value asked."""
    asked = []
    for path in paths:
        value, q = rec.value(path), quantities.quantity(path, names, rec)
        if not in_range(value, q):
            found = f"{value!r} at {path} in variant {number}"
            raise spec.PracticeError(file, "practice.answer", f"a number in the range of {q.words}", found)
        lines = arithmetic.shortened_lines(tuple(worked.solution(path, rec, places, plain)))  # the reason once
        worked.check_reaches(lines, value, q, places, path, number, file)
        asked.append(Question(path, q, float(value), lines))
    return tuple(asked)


def given_rows(rec):
    """Rows the panel gives beside the numbers, worked out for the reader: a transformer block's
    attention output (its practice is about the block around attention, not attention again);
    the output rows an unembedding reads (its practice is about the logits, not the layer); the
    stream a stack's last layer reads (its practice is about that layer)."""
    data = rec.trace_data
    if "block" in data:
        return {"attention": data["block"]["attention"]}
    if "layers" in data:
        before = np.asarray(data["output"], dtype=float) - np.asarray(data["layers"][-1]["output"], dtype=float)
        return {"stream": np.round(before, 12).tolist()}  # x + a − a: whole numbers print whole
    if "logits" in data:
        return {"output": data["output"]}
    return None


def words_of(parsed, names, own, fixture_path):
    """Every path of the block put in words once, on the lesson's own numbers: a path no words
    name is refused at its line before any set is drawn. Each path's tolerance, by path."""
    tolerances = {}
    for k, kind in enumerate(parsed.kinds):
        for i, path in enumerate(kind):
            try:
                tolerances[path] = quantities.quantity(path, names, own).tolerance
            except KeyError:
                where = "practice.answer" if len(parsed.kinds) == 1 else f"practice.kinds[{k}]"
                where += f"[{i}]" if len(kind) > 1 else ""
                raise spec.PracticeError(
                    fixture_path, where, "a value a practice question can ask in a reader's words", repr(path)
                ) from None
    return tolerances


class Sets:
    """The sets drawn so far, by kind, so that a set asking what an earlier one asked is refused."""

    def __init__(self, parsed, names, places, fixture_path):
        self.parsed, self.names, self.places, self.file = parsed, names, places, fixture_path
        self.asked = {}  # kind -> set of (answers, solutions) already asked
        self.last = None  # the questions of the last candidate, kept for the set it becomes

    def ask(self, rec, number, plain):
        kind = self.parsed.kind_of(number)
        self.last = questions(rec, self.parsed.kinds[kind], self.names, number, self.file, self.places, plain)
        return self.last

    def same_as(self, number):
        def repeated(plain, rec):
            asked = self.ask(rec, number, plain)
            key = tuple((q.answer, q.solution) for q in asked)
            return key in self.asked.get(self.parsed.kind_of(number), set())

        return repeated

    def keep(self, number):
        kind = self.parsed.kind_of(number)
        self.asked.setdefault(kind, set()).add(tuple((q.answer, q.solution) for q in self.last))


def load(fixture_path, merged, base, slug, places, fixture):
    """The lesson's Practice, or None without a practice block; a located PracticeError."""
    block = merged.get("practice")
    if block is None:
        return None
    try:
        own = computed(base, fixture_path)
        parsed = spec.parse(block, base, fixture_path, slug, own.value)
        names = names_of(fixture)
        tolerances = words_of(parsed, names, own, fixture_path)
        sets, drawn_so_far, variants = Sets(parsed, names, places, fixture_path), draw.Drawn(), []
        for number in range(parsed.variants + 1):
            plain, rec = draw.variant(
                parsed, base, number, fixture_path, drawn_so_far, sets.same_as(number), tolerances
            )
            if number == 0:
                sets.ask(rec, 0, plain)
            sets.keep(number)
            variants.append(Variant(number, parsed.kind_of(number), plain, sets.last, given_rows(rec)))
        refused = {draw.label(parsed, i): n for i, n in sorted(drawn_so_far.refused.items())}
        practice = Practice(parsed, tuple(variants), refused, drawn_so_far.tries)
        worked_sums.check(practice, slug, fixture_path, places)
    except spec.PracticeError as error:
        raise practice_key.located(error, fixture_path) from None
    return practice
