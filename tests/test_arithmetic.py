"""Shown arithmetic: notes appear exactly when the shown operands give another result, and
relations in prose are judged on the numbers as shown. Values are from the issue's list of
mismatches (worked by hand from the numbers each page showed)."""

import numpy as np
import pytest

from macros.errors import ClaimError
from macros.pages.book import PageError
from macros.redo import chains
from macros.render import arithmetic
from macros.render.numbers import a_an
from tests import computed
from tests.sitebuild import copy_project, edit


class TestNote:
    def test_rounded_weights_that_give_another_reading_get_a_note(self):
        # Two heads with separate projections: 0.248·1 + 0.248·0 + 0.503·1 = 0.751 by hand,
        # against the unrounded 0.2483 + 0.5035 = 0.7518 (seed 000: weights 0.24825, 0.50350).
        w, v = [0.24825, 0.24825, 0.5035], [1, 0, 1]
        text = arithmetic.product_note(w, v, 0.75175, 3, "weights")
        assert text == (
            "The weights shown are rounded, so a result worked from them can come out slightly different: "
            "here it comes to 0.751; unrounded, it is 0.752."
        )

    def test_no_note_when_rounding_changes_nothing_shown(self):
        assert arithmetic.product_note([0.5, 0.5], [1, 3], 2.0, 2) == ""

    def test_vectors_are_written_as_rows(self):
        # Attention by hand: 0.6090·[1,0] + 0.0730·[0,2] + 0.3003·[2,2] + 0.0177·[−2,1]: 1.1742
        # from the shown weights, 1.1740 unrounded (the lesson's weights, to 8 places).
        w = [0.60898182, 0.07300063, 0.30026987, 0.01774767]
        V = [[1, 0], [0, 2], [2, 2], [-2, 1]]
        exact = np.asarray(w) @ np.asarray(V)
        text = arithmetic.product_note(w, V, exact, 4)
        assert "it comes to [1.1742, 0.7643]; unrounded, it is [1.1740, 0.7643]" in text

    def test_a_matrix_note_names_the_entries_that_differ(self):
        # Two heads with separate projections, head 1's readings Z = A V: only row 3 moves.
        A = [[1, 0, 0], [0.33, 0.67, 0], [0.24825, 0.24825, 0.5035]]
        V = [[1, 0], [0, 1], [1, 1]]
        exact = [[1, 0], [0.33, 0.67], [0.75175, 0.75175]]
        text = arithmetic.product_note(A, V, exact, 3, "weights")
        assert text == (
            "The weights shown are rounded, so a result worked from them can come out slightly different: "
            "here row 3, column 1 comes to 0.751 (unrounded, 0.752) and row 3, column 2 to 0.751 (unrounded, 0.752)."
        )

    def test_a_page_gives_the_reason_once_and_then_the_figures(self):
        # the same note three times on a page: the first in full, the others short; each still
        # reads as a rounding note to the check of shown arithmetic
        note = arithmetic.product_note([0.24825, 0.24825, 0.5035], [1, 0, 1], 0.75175, 3, "weights")
        page = arithmetic.shortened_repeats(f"{note}\n\nText.\n\n{note} More. {note}")
        assert page.count("shown are rounded, so") == 1 and page.startswith(note)
        short = "From the rounded weights, it comes to 0.751; unrounded, it is 0.752."
        notes = [part for part in page.split("\n\n") if part != "Text."]
        assert page.count(short) == 2 and all(chains.NOTE.search(part) for part in notes)
        assert arithmetic.shortened_lines((note, "x", note)) == (note, "x", short)

    def test_rows_that_add_up_to_one_only_unrounded_are_named(self):
        # Three weights of 1/3 shown to 2 decimals add up to 0.99.
        text = arithmetic.total_note([[1 / 3] * 3, [0.5, 0.5, 0]], 2)
        assert "row 1 adds up to 0.99" in text and "row 2" not in text


class TestRelations:
    def test_a_sum_that_does_not_hold_as_shown_is_refused_with_its_numbers(self):
        # Tracing two heads: 0.25 + 0.50 is 0.75 as shown, and the page showed 0.74.
        with pytest.raises(ClaimError, match=r"shown numbers give 0\.75, the page shows 0\.74"):
            arithmetic.is_sum(0.744, 0.248, 0.496, 2)

    def test_a_sum_that_holds_passes(self):
        assert arithmetic.is_sum(0.75, 0.25, 0.5, 2)

    def test_changed_by_uses_the_shown_numbers_and_notes_the_unrounded_change(self):
        # Output projection: 0.50 against −0.50 is a change of 1 as shown (a whole number is
        # written as one, the book's number rule); unrounded 1.01.
        text = arithmetic.changed_by(0.504, -0.504, 2)
        assert text == "by 1 (the two values shown are rounded; unrounded the change is 1.01)"

    def test_add_up_to_one(self):
        with pytest.raises(ClaimError, match="'add up to'"):
            arithmetic.adds_up_to([0.34, 0.34, 0.33], 1, 2)
        assert arithmetic.adds_up_to([0.25, 0.25, 0.5], 1, 2)


@pytest.mark.parametrize(
    ("text", "article"),
    [("3", "a"), ("8", "an"), ("11", "an"), ("18 × 2", "an"), ("80", "an"), ("100", "a"), ("input", "an")],
)
def test_article_agrees_with_the_number_read_aloud(text, article):
    assert a_an(text) == article


def test_a_hand_written_relation_that_fails_as_shown_stops_the_build_at_its_line(tmp_path):
    # Tracing two heads: 0.248 − 0.497 is −0.249 as shown, while the layer's output shows −0.248.
    project = copy_project(tmp_path)
    src = project / "lessons" / "tracing-two-heads" / "lesson.md"
    edit(
        src,
        "{{ rounding_note(sum_and_difference(",
        "{% call claim(is_difference(y[2:], h1.output[mouse], h2.output[mouse])) %}x{% endcall %}"
        "{{ rounding_note(sum_and_difference(",
    )
    line = 1 + src.read_text(encoding="utf-8").split("is_difference(")[0].count("\n")
    with pytest.raises(PageError) as caught:
        computed.book_over(project).render("lessons/tracing-two-heads/lesson.md", src)
    assert str(caught.value) == (
        f"lessons/tracing-two-heads/lesson.md:{line}: 'the difference of' (or 'changed by') does not hold as "
        "shown to 3 decimals: the shown numbers give [−0.504, −0.249], the page shows [−0.503, −0.248]; "
        "write the relation with a helper that adds the rounding note, or show more decimals"
    )
