"""Every sum a practice set's worked solution shows adds up (macros/practice/worked_sums.py):
a miss with no rounding note stops the build at the lesson's fixture, except for the lessons
listed in NOT_YET, a list that only shrinks."""

from types import SimpleNamespace

import pytest

from macros import lessons
from macros.errors import PracticeError
from macros.practice import worked, worked_lines, worked_sums
from tests import computed

# Two-heads-separate-projections' reading as served before: 0.004 + 1.336 + 0.329 = 1.669, shown 1.671.
MISSING = "The reading: 0.002·2 + 0.668·2 + 0.329·1 ≈ 1.671."
NOTE = (
    "The weights shown are rounded, so a result worked from them can come out slightly different: "
    "here it comes to 1.669; unrounded, it is 1.671."
)


def practice(*solutions):
    """A stand-in Practice: one set, numbered 1, with these solutions (each a tuple of lines)."""
    return SimpleNamespace(variants=[SimpleNamespace(number=1, solutions=list(solutions))])


class TestCounting:
    def test_a_miss_is_counted_with_its_set_and_line(self):
        found = worked_sums.counted(practice((MISSING,)), 3)
        assert (found.read, found.holding, found.noted, found.missing) == (1, 0, 0, 1)
        assert found.misses[0][:2] == (1, MISSING)

    def test_a_rounding_note_in_the_line_or_the_next_explains_a_miss(self):
        assert worked_sums.counted(practice((f"{MISSING} {NOTE}",)), 3).noted == 1
        assert worked_sums.counted(practice((MISSING, NOTE)), 3).noted == 1
        assert worked_sums.counted(practice((MISSING, "Then something else.", NOTE)), 3).missing == 1

    def test_a_sum_that_holds_holds(self):
        found = worked_sums.counted(practice(("The reading: 0.002·2 + 0.668·2 + 0.329·1 ≈ 1.669.",)), 3)
        assert (found.read, found.holding) == (1, 1)


class TestTheCheck:
    def test_a_miss_stops_the_build_at_the_fixture(self):
        with pytest.raises(PracticeError) as caught:
            worked_sums.check(practice((MISSING,)), "a-lesson", "lessons/a-lesson/fixture.yaml", 3)
        assert str(caught.value) == (
            "lessons/a-lesson/fixture.yaml: practice.answer: expected worked solutions whose shown sums give their "
            "shown results, got 1 of 1 that miss; the first, in set 1: 0.002·2 + 0.668·2 + 0.329·1 gives 1.669 "
            f"from the numbers as shown, but the solution shows 1.671 ({MISSING!r})"
        )

    def test_a_listed_lesson_is_not_stopped(self, monkeypatch):
        monkeypatch.setattr(worked_sums, "NOT_YET", frozenset({"a-lesson"}))
        assert worked_sums.check(practice((MISSING,)), "a-lesson", "x", 3) is None

    def test_a_lesson_off_the_list_stops_at_its_fixture_line(self, monkeypatch):
        """The control on a real lesson: with the rounding notes taken away, backward-pass's
        gradient entries miss silently (0.446 · (2 − 1.783), hand product 0.0968, shown 0.097,
        holds; its da · a, 2·0.446 + 2·0.446 = 1.784, shown 1.783, does not)."""
        for module in (worked, worked_lines):  # every module that writes rounding notes
            monkeypatch.setattr(module, "note", lambda *args, **kwargs: "")
        with pytest.raises(PracticeError) as caught:
            lessons.load(lessons.LESSONS / "backward-pass")
        message = str(caught.value)
        assert message.startswith("lessons/backward-pass/fixture.yaml:") and ": practice.answer: expected" in message
        monkeypatch.setattr(worked_sums, "NOT_YET", frozenset({"backward-pass"}))
        assert lessons.load(lessons.LESSONS / "backward-pass").practice is not None


def test_each_listed_lesson_still_misses():
    """The list only shrinks: a lesson whose solutions add up leaves it (and its check is on).
    It is empty now: every lesson's solutions add up or carry the note."""
    for slug in sorted(worked_sums.NOT_YET):
        loaded = computed.lesson(slug)
        assert worked_sums.counted(loaded.practice, loaded.decimals).missing > 0, f"{slug} adds up: take it off NOT_YET"


@pytest.mark.parametrize("slug", [slug for slug in computed.WITH_PRACTICE if slug not in worked_sums.NOT_YET])
def test_every_other_lessons_solutions_add_up_or_say_why(slug):
    loaded = computed.lesson(slug)
    assert worked_sums.counted(loaded.practice, loaded.decimals).misses == ()


def test_a_weight_question_notes_its_rounded_sum():
    """The exponentials' sum and the reading carry the book's rounding note where their rounded
    terms give another result: masks has 6 such sums among the 168 its 21 sets show (counted
    when written, for the sets its seed draws)."""
    loaded = computed.lesson("masks")
    found = worked_sums.counted(loaded.practice, loaded.decimals)
    assert found.noted == 6 and found.missing == 0 and found.read == 168
    lines = [line for variant in loaded.practice.variants for lines in variant.solutions for line in lines]
    assert any("The weights shown are rounded, so a result worked from them can come out" in line for line in lines)
