"""The worked solutions add up: every sum, product or total a practice set's worked solution
shows, redone from the numbers it shows, gives the result it shows at the lesson's decimals.

The same rule as the page's math (``macros.pages.shown_arithmetic``), over the plain text of
every set's solutions (``macros.redo.plain``); a worked solution has no rounding note to
explain a miss, so a miss stops the build at the lesson's fixture, naming the set, the line
and both numbers.

``NOT_YET`` lists the lessons whose worked solutions are known not to add up yet: for them
the check is off until their solutions are rewritten (each one's misses are counted, not
refused). The list only shrinks: a listed lesson whose solutions add up fails a test
(tests/test_worked_sums.py), so it leaves the list in the change that fixes it.
"""

from dataclasses import dataclass

from macros.errors import PracticeError
from macros.redo import chains, plain

# Lessons whose worked solutions show a sum that misses its shown result with no note. Empty:
# every lesson's solutions add up or carry the note (backward-pass's gradient entries and
# flash-attention-tiles' running sums now say where rounding shows). The check is off for a
# listed lesson until its solutions are rewritten; then it leaves this list (a test fails
# while it stays).
NOT_YET = frozenset()


@dataclass(frozen=True)
class Counted:
    """A lesson's worked solutions: sums read, those that hold, those a rounding note explains,
    and the misses."""

    read: int
    holding: int
    noted: int
    misses: tuple  # (set number, the line, the sum redone) for each sum that misses with no note

    @property
    def missing(self):
        return len(self.misses)


def counted(practice, places):
    """Every shown sum of every set's worked solutions, redone; a miss is explained by a
    rounding note later in its line or in the next line of the solution."""
    read, holding, noted, misses = 0, 0, 0, []
    readings = {}  # a line's reading, once per distinct line (sets repeat a dot product often)
    for variant in practice.variants:
        for lines in variant.solutions:
            for i, line in enumerate(lines):
                if line not in readings:
                    readings[line] = plain.read(line).redone
                for redone in readings[line]:
                    read += 1
                    if chains.agrees(redone.value, redone.shown, places):
                        holding += 1
                    elif chains.NOTE.search(line) or chains.NOTE.search(" ".join(lines[i + 1 : i + 2])):
                        noted += 1
                    else:
                        misses.append((variant.number, line, redone))
    return Counted(read, holding, noted, tuple(misses))


def check(practice, slug, fixture_path, places):
    """A PracticeError (at the fixture's ``practice.answer``) for the first shown sum that misses
    its shown result, unless the lesson is in NOT_YET."""
    if slug in NOT_YET:
        return
    found = counted(practice, places)
    if not found.misses:
        return
    number, line, redone = found.misses[0]
    redone_text = f"{float(redone.value):.{places}f}"
    raise PracticeError(
        fixture_path,
        "practice.answer",
        "worked solutions whose shown sums give their shown results",
        f"{len(found.misses)} of {found.read} that miss; the first, in set {number}: {redone.written} gives "
        f"{redone_text} from the numbers as shown, but the solution shows {redone.texts[0]} ({line!r})",
    )
