"""A lesson's practice: its own numbers and a fixed set of new ones, drawn, computed and checked
at build time, shipped to the page as data.

For a lesson whose fixture has ``practice:`` (macros/practice/spec.py), the build draws
``variants`` sets of new numbers (macros/practice/draw.py) and computes each with the engine.
Every graded value of every set must be a number in its quantity's range, and every path must
be one a reader's words name (macros/practice/quantities.py), and every sum a worked solution
shows must give its shown result (macros/practice/worked_sums.py); otherwise the build stops
with a located message. A set ships its numbers (the fixture's JSON form), its graded values and the
lines of its worked solutions, formatted as the page formats numbers; not a whole trace.
"""

import math
from dataclasses import dataclass

from macros.practice import draw, quantities, spec, worked_sums
from macros.practice.record import computed
from macros.sources import practice_key


@dataclass(frozen=True)
class Check:
    """One graded value: its path, how it is asked, and per set of numbers its value and solution."""

    path: str
    quantity: quantities.Quantity


@dataclass(frozen=True)
class Variant:
    number: int
    fixture: dict  # the numbers, in the fixture's JSON form
    answers: tuple  # one float per check
    solutions: tuple  # per check: the lines of its worked solution


@dataclass(frozen=True)
class Practice:
    spec: spec.Spec
    checks: tuple  # of Check
    variants: tuple  # of Variant: 0 (the lesson's own numbers), then 1..spec.variants

    def to_data(self):
        """What the page loads on first use: every set (the lesson's own, 0, among them) with its
        answers and solutions."""
        return {
            "count": self.spec.variants,
            "variants": [
                {"variant": v.number, "fixture": v.fixture, "answers": list(v.answers), "solutions": list(v.solutions)}
                for v in self.variants
            ],
        }


def names_of(fixture):
    return quantities.Names(
        tuple(fixture.query_labels), tuple(fixture.key_labels), len(fixture.heads) or fixture.n_heads
    )


def graded(rec, checks, number, file, places, plain=None):
    """The answers and solutions of one computed set (``plain``: its numbers, the fixture's JSON
    form, which a solution may start from); a PracticeError for a value out of range."""
    answers, solutions = [], []
    for check in checks:
        value = rec.value(check.path)
        q = check.quantity
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or (q.low is not None and value < q.low - 1e-12)
            or (q.high is not None and value > q.high + 1e-12)
        ):
            found = f"{value!r} at {check.path} in variant {number}"
            raise spec.PracticeError(file, "practice.answer", f"a number in the range of {q.words}", found)
        answers.append(float(value))
        solutions.append(tuple(quantities.solution(check.path, rec.data, places, plain)))
    return tuple(answers), tuple(solutions)


def load(fixture_path, merged, base, slug, places, fixture):
    """The lesson's Practice, or None without a practice block; a located PracticeError."""
    block = merged.get("practice")
    if block is None:
        return None
    try:
        own = computed(base, fixture_path)
        parsed = spec.parse(block, base, fixture_path, slug, own.value)
        names = names_of(fixture)
        checks = []
        for i, path in enumerate(parsed.answers):
            try:
                checks.append(Check(path, quantities.quantity(path, names)))
            except KeyError:
                where = "practice.answer" if len(parsed.answers) == 1 else f"practice.answer[{i}]"
                raise spec.PracticeError(
                    fixture_path, where, "a value a practice question can ask in a reader's words", repr(path)
                ) from None
        variants = []
        for number in range(parsed.variants + 1):
            plain, rec = (base, own) if number == 0 else draw.variant(parsed, base, number, fixture_path)
            variants.append(Variant(number, plain, *graded(rec, checks, number, fixture_path, places, plain)))
        practice = Practice(parsed, tuple(checks), tuple(variants))
        worked_sums.check(practice, slug, fixture_path, places)
    except spec.PracticeError as error:
        raise practice_key.located(error, fixture_path) from None
    return practice
