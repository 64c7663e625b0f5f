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
            widgets.predict("c", "?", [("x", False, ""), ("y", False, "")])
        with pytest.raises(WidgetError, match=r"predict 'c': .*, got 2 \(options 1, 3\)$"):
            widgets.predict("c", "?", [("x", True, ""), ("y", False, ""), ("z", True, "")])
        assert 'data-correct="2"' in widgets.predict("c", "?", [("x", False, ""), ("y", True, "")])

    def test_a_prediction_needs_two_options(self):
        with pytest.raises(WidgetError, match="predict 'c': expected at least two options, got 1"):
            widgets.predict("c", "?", [("x", True, "")])
