"""Predicates for claims, and the numbers "as shown" that prose reasons about."""

import numpy as np
import pytest

from macros.errors import ClaimError, WidgetError
from macros.render import widgets
from macros.render.numbers import as_shown, format_values
from macros.vocabulary import claims


class TestAsShown:
    def test_is_the_formatters_text_read_back(self):
        # 23.95 is stored just below 23.95, so the formatter writes 23.9; np.round gives 24.0.
        assert format_values([23.95], 1) == ["23.9"]
        assert as_shown([23.95], 1).tolist() == [23.9]
        assert np.round(23.95, 1) == 24.0  # the disagreement as_shown avoids

    def test_keeps_the_shape_and_whole_groups(self):
        assert as_shown([[1.0, 2.0], [3.0, -4.0]], 3).tolist() == [[1.0, 2.0], [3.0, -4.0]]
        assert as_shown([0.24825, 0.50349], 3).tolist() == [0.248, 0.503]


class TestArgmax:
    def test_a_clear_winner(self):
        assert claims.argmax([0.1, 0.7, 0.2]) == 1 and claims.argmin([0.1, 0.7, 0.2]) == 0

    def test_an_exact_tie_is_refused(self):
        with pytest.raises(ClaimError, match="is a tie, so no single position wins"):
            claims.argmax([0.4, 0.4, 0.2])

    def test_a_tie_only_visible_when_shown_is_refused_with_places(self):
        values = [0.46431, 0.46429, 0.07]
        assert claims.argmax(values) == 0  # exact floats differ
        with pytest.raises(ClaimError, match="as shown to 3 decimals"):
            claims.argmax(values, places=3)

    def test_a_one_row_matrix_is_not_a_row(self):
        # weights of a one-query head are a 1 × 4 matrix; its "winner" would be position 0 of
        # the flattened rows, so the caller is asked to pick the row.
        with pytest.raises(ClaimError, match=r"expected one row of numbers, got a 1×4 matrix"):
            claims.argmax(np.array([[0.1, 0.2, 0.6, 0.1]]))

    def test_positions_follow_what_is_shown(self):
        assert claims.positions_of_largest([0.46431, 0.46429, 0.07]) == [1]
        assert claims.positions_of_largest([0.46431, 0.46429, 0.07], places=3) == [1, 2]


class TestComparisons:
    def test_any_versus_each(self):
        assert claims.differ_by_more_than([0.2, 0.05], [0, 0], 0.1)
        assert not claims.each_differs_by_more_than([0.2, 0.05], [0, 0], 0.1)
        assert claims.each_differs_by_more_than([0.2, -0.15], [0, 0], 0.1)

    def test_roughly_equal_includes_the_tolerance(self):
        assert claims.roughly_equal(1.0, 1.5, 0.5) and not claims.roughly_equal(1.0, 1.5, 0.49)

    def test_equal_is_exact_and_checks_shape(self):
        assert claims.equal([[1, 0], [0, 1]], np.eye(2))
        assert not claims.equal([1, 0], [1, 0, 0]) and not claims.equal([1.0], [1.0 + 1e-15])

    def test_a_claim_renders_its_sentence_or_quotes_it(self):
        assert claims.claim("x.md", 4, True, caller=lambda: "Row 3 wins.") == "Row 3 wins."
        with pytest.raises(ClaimError, match="false for the fixture's numbers: Row 3 wins."):
            claims.claim("x.md", 4, False, caller=lambda: "Row 3\n wins.")

    def test_a_recorder_sees_every_claim_and_where_it_is_written(self):
        with claims.recorded(lenient=True) as found:
            claims.claim("x.md", 4, True, caller=lambda: "Row 3 wins.")
            claims.claim("x.md", 9, False, caller=lambda: "Row 2\n wins.")
        assert found == [
            claims.Claimed("x.md", 4, "Row 3 wins.", True),
            claims.Claimed("x.md", 9, "Row 2 wins.", False),
        ]

    def test_a_template_claim_knows_its_file_and_line(self):
        from macros.pages import environment

        env = environment.environment(".")
        template = env.from_string("a\n\n{% call claim(1 < 2) -%}\nok\n{%- endcall %}", template_class=None)
        with claims.recorded() as found:
            assert template.render(claim=claims.claim).endswith("ok")
        assert [(c.line, c.sentence, c.held) for c in found] == [(3, "ok", True)]


class TestWidgetArguments:
    def test_a_gate_cannot_need_more_than_it_asks(self):
        with pytest.raises(WidgetError, match="gate 'g': expected to need 1 to 2 answers, got 3"):
            widgets.gate("g", [("a", 1.0), ("b", 2.0)], 3, 0.1)
        assert 'data-need="2"' in widgets.gate("g", [("a", 1.0), ("b", 2.0)], 2, 0.1)

    def test_exactly_one_option_of_a_prediction_holds(self):
        with pytest.raises(WidgetError, match=r"predict 'c': expected exactly one option that holds .*, got 0$"):
            widgets.predict("c", "?", [("x", False, "Ex."), ("y", False, "Why.")])
        with pytest.raises(WidgetError, match=r"predict 'c': .*, got 2 \(options 1, 3\)$"):
            widgets.predict("c", "?", [("x", True, "Ex."), ("y", False, "Why."), ("z", True, "Zed.")])
        assert 'data-correct="2"' in widgets.predict("c", "?", [("x", False, "Ex."), ("y", True, "Why.")])

    def test_a_prediction_needs_two_options(self):
        with pytest.raises(WidgetError, match="predict 'c': expected at least two options, got 1"):
            widgets.predict("c", "?", [("x", True, "")])


class TestPredictionReasons:
    """Each option's reason is its own, and a wrong one does not name the right option
    (macros/render/reasons.py). Messages are whole; each refusal has a control that passes."""

    # Attention by hand's prediction, key 1 right: the reasons the issue found, and fixed ones.
    SHARED = "The weights follow the scores alone."
    FIXED = [
        ("Key 1: [1, 0]", True, "Its score, q · k, is 2, the largest of the four."),
        ("Key 2: [0, 1]", False, "Its score, q · k, is −1: it points a little away from the query."),
        ("Key 3: [1, 1]", False, "Its score, q · k, is 1: it is long, but length is not what counts."),
    ]

    def with_reason(self, i, reason):
        return [(text, holds, reason if j == i else r) for j, (text, holds, r) in enumerate(self.FIXED)]

    def test_reasons_of_their_own_pass(self):
        html = widgets.predict("favourite", "Which key?", self.FIXED)
        assert html.count('class="abh-reason"') == 3 and 'data-correct="1"' in html
        assert '<p class="abh-option-text">Key 2: [0, 1]</p>' in html

    def test_a_reason_shared_by_two_options_is_refused(self):
        options = self.with_reason(1, "It is below key 1's 2. " + self.SHARED)
        options = [(t, h, r + " " + self.SHARED) if i == 2 else (t, h, r) for i, (t, h, r) in enumerate(options)]
        with pytest.raises(WidgetError) as caught:
            widgets.predict("favourite", "Which key?", options)
        assert str(caught.value) == (
            "predict 'favourite': options 2 and 3 share the sentence “The weights follow the scores alone.”;"
            " give each option a reason of its own, why that option holds or fails"
        )

    def test_one_paragraph_under_every_option_is_refused_at_the_first_two(self):
        same = "It favours key 2."  # why-attention's, before: the same paragraph four times
        options = [("Key 1", False, same), ("Key 2", True, same), ("Key 3", False, same)]
        with pytest.raises(WidgetError, match=r"^predict 'f': options 1 and 2 share the sentence “It favours key 2\.”"):
            widgets.predict("f", "?", options)

    def test_sentences_are_compared_without_case_or_spacing(self):
        options = self.with_reason(2, "the weights  follow the\nscores alone.")
        options = [(t, h, r + " " + self.SHARED) if i == 1 else (t, h, r) for i, (t, h, r) in enumerate(options)]
        with pytest.raises(WidgetError, match=r"^predict 'k': options 2 and 3 share the sentence “the weights follow"):
            widgets.predict("k", "?", options)

    def test_a_shared_phrase_inside_different_sentences_passes(self):
        # The control: "Its score, q · k, is" starts every reason above, each sentence its own.
        assert all(r.startswith("Its score, q · k, is") for _, _, r in self.FIXED)
        widgets.predict("favourite", "Which key?", self.FIXED)

    def test_a_wrong_reason_naming_the_right_option_is_refused(self):
        options = self.with_reason(1, "Its score, q · k, is −1, below key 1's 2.")
        with pytest.raises(WidgetError) as caught:
            widgets.predict("favourite", "Which key?", options)
        assert str(caught.value) == (
            "predict 'favourite': the reason of option 2 names the right option, “Key 1”; a wrong option's"
            " reason says why that option fails (it may say what to look at), not which one holds"
        )

    def test_the_label_is_found_in_any_case_and_without_its_quotes(self):
        options = [("“cat”", True, "Its score is 2."), ("“mouse”", False, "The largest weight goes to CAT.")]
        with pytest.raises(WidgetError, match=r"^predict 'p': the reason of option 2 names the right option, “cat”"):
            widgets.predict("p", "?", options)

    @pytest.mark.parametrize(
        "reason",
        [
            "Its score is below key 11's.",  # "Key 1" inside "key 11": not at a word boundary
            "The monkey 1 scored less.",  # nor inside "monkey 1"
            "Its score, q · k, is −1.",  # no label at all
        ],
    )
    def test_the_label_only_counts_at_word_boundaries(self, reason):
        widgets.predict("favourite", "Which key?", self.with_reason(1, reason))

    def test_the_right_options_own_reason_may_name_it(self):
        widgets.predict("favourite", "Which key?", self.with_reason(0, "Key 1 scores 2, the most."))

    def test_the_label_is_the_text_up_to_the_first_colon(self):
        from macros.render import reasons

        assert reasons.label("Key 2: [0, 1]") == "Key 2"
        assert reasons.label("“cat”") == "cat"
        assert reasons.label("They differ clearly, by more than 0.1.") == "They differ clearly, by more than 0.1"
        assert reasons.label("Itself: the input has not changed") == "Itself"

    def test_an_option_without_a_reason_is_refused(self):
        with pytest.raises(WidgetError) as caught:
            widgets.predict("favourite", "Which key?", self.with_reason(2, "  "))
        assert str(caught.value) == (
            "predict 'favourite': option 3 has no reason; every option needs one, the sentence a reader reads"
            " after locking it in"
        )


class TestFold:
    def test_a_fold_may_wait_for_some_of_its_gates_questions(self):
        html = widgets.fold("six", lambda: "numbers", checks=[1, 2, 3])
        assert 'data-fold-until="six" data-fold-checks="1 2 3"' in html
        assert "data-fold-checks" not in widgets.fold("six", lambda: "numbers")  # the control: first attempt

    def test_positions_count_from_one(self):
        with pytest.raises(
            WidgetError, match=r"^fold 'six': expected checks as positions in the gate from 1, got \[0, 1\]$"
        ):
            widgets.fold("six", lambda: "numbers", checks=[0, 1])
