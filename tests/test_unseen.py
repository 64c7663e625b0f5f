"""The unseen-answer rule: a graded answer may not be on the page above its question.

Unit cases run on small Markdown strings; the build cases break a copy of the project's
lessons and assert the located line an author reads; the last test holds every lesson of
the book to the rule at 2, 3 and 4 decimals as well as at its own precision.
"""

import pytest

from macros.pages import unseen_answers
from macros.pages.book import PageError
from macros.render import widgets
from tests import computed
from tests.sitebuild import copy_project, edit


def gate(answer, recall=False):
    return widgets.gate("g", [("a question", answer)], 1, 0.01, recall=recall)


class TestVisibleText:
    def test_an_answer_shown_above_fails(self):
        page = "The weight is $0.752$.\n\n" + gate(0.7518)
        with pytest.raises(unseen_answers.UnseenAnswerError, match="'g-1', 0.752, is already on the page"):
            unseen_answers.enforce("lesson.md", page, 3)

    def test_the_message_quotes_where_the_answer_was_seen(self):
        """30 characters on each side of the first 0.741 a reader sees (counted by hand)."""
        page = "Its exponentials are $e^{-0.3} \\approx 0.741$ and $e^{0} = 1$, then more words.\n\n" + gate(0.7412)
        with pytest.raises(unseen_answers.UnseenAnswerError) as caught:
            unseen_answers.enforce("lesson.md", page, 3)
        seen = "entials are $e^{-0.3} \\approx 0.741$ and $e^{0} = 1$, then more w"
        assert f'already on the page above the question, in "…{seen}…"; ask for' in str(caught.value)

    def test_the_quote_is_cut_only_where_the_text_goes_on(self):
        page = "\u22120.25 is it.\n\n" + gate(-0.25)
        assert unseen_answers.first_sight(page, page.index("<li"), -0.25, 2) == "\u22120.25 is it."

    def test_the_same_number_at_more_places_is_not_the_answer_as_shown(self):
        assert unseen_answers.enforce("lesson.md", "It is 0.7518.\n\n" + gate(0.7518), 3)

    def test_recall_questions_may_ask_again(self):
        assert unseen_answers.enforce("lesson.md", "It is 0.752.\n\n" + gate(0.7518, recall=True), 3)

    def test_folded_work_and_hints_do_not_count_as_shown(self):
        folded = widgets.fold("g", lambda: "| weight | 0.752 |")
        hint = '<details class="abh-hint" data-after="2" markdown>\n0.752\n</details>'
        assert unseen_answers.enforce("lesson.md", f"{folded}\n\n{hint}\n\n{gate(0.7518)}", 3)

    def test_attributes_and_scripts_are_not_text(self):
        page = '<script type="application/json">{"x": 0.752}</script><span data-x="0.752">w</span>\n' + gate(0.7518)
        assert unseen_answers.enforce("lesson.md", page, 3)

    def test_a_typographic_minus_counts(self):
        with pytest.raises(unseen_answers.UnseenAnswerError):
            unseen_answers.enforce("lesson.md", "It is \u22120.25.\n" + gate(-0.25), 2)

    def test_whole_answers_are_not_searched(self):
        assert unseen_answers.enforce("lesson.md", "Row 2 of 3.\n" + gate(2.0), 2)


class TestBuild:
    SLUG = "two-heads-separate-projections"

    def test_a_shown_answer_fails_the_build_at_its_line(self, tmp_path):
        project = copy_project(tmp_path)
        src = project / "lessons" / self.SLUG / "lesson.md"
        # Make the check ask for head 1's reading at the last position, which the page shows.
        edit(src, "(r + 1), dot(w, v), tolerance,", "(r + 1), h1.output[r][0], tolerance,")
        line = 1 + src.read_text(encoding="utf-8").split('{{ check("values"')[0].count("\n")
        with pytest.raises(PageError) as caught:
            computed.book_over(project).render(f"lessons/{self.SLUG}/lesson.md", src)
        assert str(caught.value).startswith(
            f"lessons/{self.SLUG}/lesson.md:{line}: the answer to check 'values-1', 0.752, is already on the page"
        )


@pytest.mark.parametrize("slug", computed.SLUGS)
def test_every_lesson_grades_a_number_it_has_not_shown(slug):
    markdown, places = computed.page(slug), computed.lesson(slug).decimals

    def shown(answer, offset):
        return any(unseen_answers.first_sight(markdown, offset, answer, p) is not None for p in {places, 2, 3, 4})

    found = [
        a
        for offset, _, a, recall in unseen_answers.checks(markdown)
        if not recall and round(a) != a and not shown(a, offset)
    ]
    assert found, f"{slug}: no graded answer that the page has not shown before its question"
