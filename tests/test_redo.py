"""The grammar that reads a shown calculation (macros/redo/): one case per construct, each with
its value worked by hand (the working is in the comment), then the sides it must not read
as numbers, the chains of = and ≈, the rule for agreeing, and the plain-text reader of the
practice's worked solutions."""

import math
import re

import numpy as np
import pytest

from macros.redo import chains, grammar, latex, plain
from macros.redo import tokens as t
from macros.redo.latex import UnreadableError


def side(tex, names=None):
    """The grammar.Side one side of TeX is."""
    return grammar.read(latex.tokens(tex), names)


def value(tex, names=None):
    found = side(tex, names)
    assert found.kind == grammar.CALCULATION, f"{tex!r} read as {found.kind}"
    return found.value


class TestConstructs:
    @pytest.mark.parametrize(
        ("tex", "expected"),
        [
            (r"0.5 + 0.25", 0.75),  # a sum
            (r"1 - 0.25 - 0.25", 0.5),  # subtraction is left to right: (1 − 0.25) − 0.25
            (r"-0.010 \times 17.743", -0.17743),  # backward-pass: −0.010 × 17.743 = −0.17743
            (r"2 \times 3 \times 3 \times 4 \times 2", 144),  # decoding-cost: 2·3 = 6, ·3 = 18, ·4 = 72, ·2 = 144
            (r"3000 \times 3001 / 2", 4501500),  # decoding-cost: 9,003,000 / 2
            (r"2\cdot 1+(-1)\cdot 0", 2),  # attention-by-hand's first score: 2 + 0
            (r"2\cdot (-1)+(-1)\cdot 1", -3),  # its last: −2 − 1
            (r"0.248(1) + 0.248(0) + 0.503(1)", 0.751),  # weighted terms, juxtaposed: 0.248 + 0.503
            (r"1(0.999) + 1(-0.762)", 0.237),  # why-attention's first additive score: 0.999 − 0.762
            (r"\frac{1}{4}", 0.25),
            (r"\tfrac{1}{ 2 } \cdot 3", 1.5),  # \tfrac is declared: ½ · 3
            (r"\dfrac{3}{4}", 0.75),  # \dfrac too
            (r"-\frac{1}{ 2 } \cdot 3", -1.5),  # a sign before a fraction
            (r"\sqrt{ 2 }", math.sqrt(2)),  # the scale's √d_k
            (r"\sqrt{ 4 }", 2),
            (r"10^{ -4 }", 1e-4),  # a power with a signed exponent
            (r"2^{3} + 1", 9),
            (r"e^{ 1.414 - 3.264 }", math.exp(-1.85)),  # flash-attention-tiles: e^(−1.85) ≈ 0.157
            (r"e^{-\infty}", 0),  # a masked score's exponential
            (r"\log 26.145", math.log(26.145)),  # flash-attention-tiles' log-sum-exp, ≈ 3.264
            (r"2.828 + \log 1.545", 2.828 + math.log(1.545)),  # a function takes the factor after it
            (r"0 \cos 1 - 2 \sin 1", -2 * math.sin(1)),  # rotary-by-hand: x' = −2 sin 1 ≈ −1.683
            (r"2 \cos 5 - 0 \sin 5", 2 * math.cos(5)),  # ≈ 0.567
            (r"1.243 \times 0.243 + 0.243 + 1", 1.545049),  # flash-attention-tiles' running sum: 0.302049 + 1.243
            (r"\left( 1 + 2 \right) \cdot 3", 9),  # \left( and \right) are brackets
            (r"(1 + 2)(3 - 1)", 6),  # two brackets side by side multiply
            (r"\underbrace{ 32 }_{\text{layers}} \times \underbrace{2}_{\text{bytes}}", 64),  # a labelled factor
        ],
    )
    def test_a_number_is_redone(self, tex, expected):
        assert float(value(tex)) == pytest.approx(expected, abs=1e-12)

    @pytest.mark.parametrize(
        ("tex", "expected"),
        [
            (r"0.5\,[2, 0] + 0.5\,[0, 4]", [1, 2]),  # a weighted sum of rows: [1, 0] + [0, 2]
            (r"0.333\,[2, 1] + 0.333\,[0, 4]", [0.666, 1.665]),  # masks' reading: [0.666, 0.333 + 1.332]
            (r"[0.000, 0.707] + [0, -\infty]", [0, -math.inf]),  # a mask added
            (r"[2.028, 2.028, 4.113] \,/\, 8.169", [2.028 / 8.169, 2.028 / 8.169, 4.113 / 8.169]),  # a quotient
            (r"\frac{ [2, -1] }{\sqrt{ 2 }}", [math.sqrt(2), -1 / math.sqrt(2)]),  # scores over √d_k
            (r"[1, 2] \begin{bmatrix} 1 & 0 \\ 1 & 1 \end{bmatrix}", [3, 2]),  # a row through a matrix: [1+2, 0+2]
            (r"[0.140, 0.284, 0.576] \odot [-1, 0, 1]", [-0.14, 0, 0.576]),  # entry by entry
            (r"[1, 2] \cdot [3, 4]", 11),  # two rows: their dot product, 3 + 8
            (r"\begin{bmatrix} 1\cdot 1+0\cdot 0 & 1\cdot 0+0\cdot 1 \end{bmatrix}", [1, 0]),  # cells; one row is a row
            (
                r"0.2 \cdot \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix} + 0.8 \cdot "
                r"\begin{bmatrix} 0 & 1 \\ 1 & 0 \end{bmatrix}",
                [[0.2, 0.8], [0.8, 0.2]],
            ),  # a weighted sum of matrices
            (
                r"\begin{bmatrix} 1 & -1 \\ 1 & 0 \end{bmatrix} - 0.010\, "
                r"\begin{bmatrix} 100 & 0 \\ 0 & 100 \end{bmatrix}",
                [[0, -1], [1, -1]],
            ),  # backward-pass's step W − η dW, with round numbers
            (r"\begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}^\top", [[1, 3], [2, 4]]),  # a transpose
        ],
    )
    def test_a_row_or_a_matrix_is_redone(self, tex, expected):
        assert np.allclose(np.asarray(value(tex), dtype=float), expected, atol=1e-12)

    def test_names_the_page_showed_are_read_with_their_numbers(self):
        """From-hand-to-code's A V and alibi's S + B, with small matrices: A V = [[1, 0], [0.5, 1.5]]
        (row 2: 0.5·[1, 0] + 0.5·[0, 3]); Q K^T puts each row's dot products in a row."""
        names = {"A": np.array([[1.0, 0.0], [0.5, 0.5]]), "V": np.array([[1.0, 0.0], [0.0, 3.0]])}
        assert np.allclose(value("A V", names), [[1, 0], [0.5, 1.5]])
        assert np.allclose(value(r"A^\top + A", names), [[2, 0.5], [0.5, 1]])
        scripted = {"Q_{}^{(1)}": np.array([[1.0, 2.0]]), "K_{}^{(1)}": np.array([[3.0, 4.0], [1.0, 0.0]])}
        assert np.allclose(value(r"Q^{(1)} K^{(1)\top}", scripted), [[11, 1]])  # [1·3 + 2·4, 1·1 + 2·0]
        blocks = {"W_{Q}^{(1)}": np.eye(2), "W_{Q}^{(2)}": np.ones((2, 1))}
        assert np.allclose(
            value(r"\begin{bmatrix} W_Q^{(1)} & W_Q^{(2)} \end{bmatrix}", blocks), [[1, 0, 1], [0, 1, 1]]
        )

    def test_a_stack_of_matrices_is_one_value_and_multiplies_head_by_head(self):
        stack = side(
            r"\left[\; \begin{matrix} \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}, \\ {} \\ "
            r"\begin{bmatrix} 2 & 0 \\ 0 & 2 \end{bmatrix} \end{matrix} \;\right]"
        )
        assert stack.kind == grammar.VALUE and stack.value.shape == (2, 2, 2)
        names = {"A": stack.value, "V": np.array([np.eye(2), np.eye(2)])}
        assert np.allclose(value("A V", names)[1], [[2, 0], [0, 2]])

    def test_a_value_keeps_its_numbers_as_written(self):
        shown = side(r"\begin{bmatrix} 1.000 & -\infty \\ 0.330 & -0.670 \end{bmatrix}")
        assert shown.kind == grammar.VALUE
        assert shown.texts == ("1.000", "-\\infty", "0.330", "-0.670")


class TestWhatIsNotACalculation:
    @pytest.mark.parametrize(
        "tex",
        [
            r"QK^\top / \sqrt{ 4 }",  # names the page has not shown as numbers
            r"2^{-8i/h}",  # a name in the exponent
            r"1 + 2 + \dots + w",  # a name, though with elided terms
            r"h\,d_k",
            r"\operatorname{softmax}(S)",
            r"V",  # a name alone, shown or not: what it stands for, not a value shown here
        ],
    )
    def test_a_side_with_a_name_is_symbolic(self, tex):
        assert side(tex, {"V": np.eye(2)}).kind == grammar.SYMBOLIC

    def test_a_name_whose_numbers_do_not_fit_is_symbolic(self):
        """Transformer-block's x + attention: a row here, where the page showed a matrix by that name."""
        names = {"x": np.array([3.0, 1.0]), "\\text{attention}": np.ones((3, 2))}
        reading = chains.read(latex.tokens(r"x + \text{attention} = [4, 2]"), "", names)
        assert reading.redone == [] and reading.problems == []

    @pytest.mark.parametrize(
        ("tex", "reason"),
        [
            (r"1 + \dots + 3", "'…', which this grammar does not read"),  # terms left out
            (r"2 \star 3", "'\\star' where an operator or the end was expected"),  # an unknown macro
            (r"\star 3", "'\\star', which this grammar does not read"),
            (
                r"[1, 2] \cdot \begin{bmatrix} 1 & 2 & 3 \end{bmatrix}^\top\begin{bmatrix} 1 & 2 \end{bmatrix}",
                "a product",
            ),
            (r"\sqrt[3]{8}", "'\\sqrt[…]', which this grammar does not read"),
            (r"(1 + 2", "expected ')'"),
            (r"\infty - \infty", "it has no value"),
        ],
    )
    def test_a_side_of_numbers_that_cannot_be_read_says_why(self, tex, reason):
        with pytest.raises(UnreadableError, match=re.escape(reason)):
            side(tex)

    def test_a_formula_that_does_not_parse_is_unreadable(self):
        with pytest.raises(UnreadableError, match="does not parse"):
            latex.tokens(r"\frac{1}{2")


class TestChains:
    def read(self, tex, names=None):
        return chains.read(latex.tokens(tex), tex, {} if names is None else names)

    def test_each_calculation_meets_the_next_value_after_it(self):
        """One-head-with-projections' q_1: the row through the matrix and the cells both give [2, 1]."""
        tex = (
            r"q_1 = x_1 W_Q = [1, 0, 1] \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix} = "
            r"\begin{bmatrix} 1\cdot 1+0\cdot 0+1\cdot 1 & 1\cdot 0+0\cdot 1+1\cdot 1 \end{bmatrix} = [2, 1]"
        )
        reading = self.read(tex)
        assert reading.calculations == 2 and [r.texts for r in reading.redone] == [("2", "1"), ("2", "1")]
        assert reading.redone[0].written == r"[1, 0, 1] \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}"

    def test_a_value_before_serves_when_none_follows(self):
        (redone,) = self.read(r"0.75 = 0.5 + 0.25").redone
        assert float(redone.value) == 0.75 and redone.texts == ("0.75",)

    def test_statements_and_rows_are_read_apart(self):
        """\\qquad, a top-level comma and an aligned block's rows end a statement."""
        reading = self.read(r"a = 1 + 1 = 2, \qquad b = 2 \times 2 = 4")
        assert [float(r.value) for r in reading.redone] == [2, 4]
        aligned = self.read(r"\begin{aligned} x &= 1 + 2 = 3, \\ y &= 2 + 2 = 4. \end{aligned}")
        assert [float(r.value) for r in aligned.redone] == [3, 4]

    def test_another_relation_starts_a_new_chain(self):
        """→ joins no calculation: 1 + 1 is not compared with 3."""
        assert self.read(r"1 + 1 \longrightarrow 3").redone == []

    def test_a_calculation_with_no_result_beside_it_is_read_but_meets_nothing(self):
        """A shape, n × d_k = 3 × 2, writes no result."""
        reading = self.read(r"n \times d_k = 3 \times 2")
        assert reading.calculations == 1 and reading.redone == []

    def test_a_result_of_another_shape_is_a_problem(self):
        (problem,) = self.read(r"[1, 2] + [3, 4] = 4").problems
        assert problem == "$[1, 2] + [3, 4]$ gives a row of 2, but the result beside it, $4$, is a number"

    def test_an_unreadable_side_with_numbers_is_a_problem_only_beside_a_relation(self):
        assert self.read(r"1 + \dots + 3 = 6").problems == [
            "$1 + \\dots + 3$ cannot be read: '…', which this grammar does not read"
        ]
        assert self.read(r"1 + \dots + 3").problems == []

    def test_names_are_remembered_and_forgotten(self):
        names = {}
        self.read(r"V = \begin{bmatrix} 1 & 0 \\ 0 & 2 \end{bmatrix}, \qquad h = 2", names)
        assert set(names) == {"V"}  # a single number is not remembered
        (redone,) = self.read(r"V V = \begin{bmatrix} 1 & 0 \\ 0 & 4 \end{bmatrix}", names).redone
        assert np.allclose(redone.value, [[1, 0], [0, 4]])
        self.read(r"V = \operatorname{softmax}(S)", names)
        assert names == {}


class TestAgreeing:
    @pytest.mark.parametrize(
        ("redone", "shown", "places", "agrees"),
        [
            (0.7514, 0.751, 3, True),
            (0.7516, 0.751, 3, False),
            (0.0325, 0.033, 3, True),  # exactly halfway: a reader rounding a final 5 may go either way
            (0.0325, 0.032, 3, True),
            (0.999, 1.0, 3, False),  # a whole number printed without decimals is exact
            (1.2518, 1.2517, 4, False),  # two-heads-of-dimension-one's reading at 4 decimals
            (-math.inf, -math.inf, 3, True),
            (0.0, -math.inf, 3, False),
        ],
    )
    def test_the_rule(self, redone, shown, places, agrees):
        assert chains.agrees(redone, np.array(shown), places) is agrees

    def test_a_note_is_the_helpers_sentence_not_the_word_unrounded(self):
        assert chains.NOTE.search("The weights shown are rounded: from them the result is 0.751")
        assert chains.NOTE.search("by 1.00 (the two values shown are rounded; unrounded the change is 1.01)")
        assert not chains.NOTE.search("Carrying every number unrounded gives the same −0.177.")


class TestPlain:
    """The practice's worked solutions, as macros/practice/quantities.py writes them."""

    def test_a_reading_is_redone(self):
        """Two-heads-separate-projections' served solution: 0.004 + 1.336 + 0.329 = 1.669, shown 1.671."""
        (redone,) = plain.read("The reading: 0.002·2 + 0.668·2 + 0.329·1 ≈ 1.671.").redone
        assert float(redone.value) == pytest.approx(1.669) and redone.texts == ("1.671",)
        assert not chains.agrees(redone.value, redone.shown, 3)

    @pytest.mark.parametrize(
        ("line", "expected"),
        [
            ("The reading: 0.025·(−1) + 0.870·1 + 0.104·1 + 0.000·0 ≈ 0.949.", 0.949),  # −0.025 + 0.974
            ("The log-sum-exp is m + log l = 3.536 + log 2.035 ≈ 4.246.", 3.536 + math.log(2.035)),
            ("Entry 2 of a ⊙ (da − da · a): 0.284 · (2 − 2.436) ≈ −0.124.", 0.284 * -0.436),  # −0.123824
            ("Entry 1 of a ⊙ (da − da · a): 0.248 · (0 − (−0.752)) ≈ 0.187.", 0.248 * 0.752),  # 0.186496
            (
                "Subtract the largest, 2.121: the exponentials are [1.000, 0.120, 0.243, 0.000], adding up to 1.363.",
                1.363,
            ),
            ("The scaled score 2 and the bias −1.500 add up to 0.500.", 0.5),  # alibi: 2 − 1.5
        ],
    )
    def test_each_form_is_redone(self, line, expected):
        (redone,) = plain.read(line).redone
        assert float(redone.value) == pytest.approx(expected, abs=1e-12)

    @pytest.mark.parametrize(
        "line",
        [
            "da · a = 2.436.",  # names
            "Times 1/√d_k = 0.707: 1.582.",
            "Numbers read: 69,550,080, times 1 byte: 69,550,080 bytes.",  # no relation
            "The scaled scores: [1.4142, −0.7071, 0.7071, −2.1213].",
        ],
    )
    def test_words_and_lists_are_not_sums(self, line):
        assert plain.read(line).redone == []

    def test_thousands_and_a_minus_are_read(self):
        kinds = [(token.kind, token.text) for token in plain.tokens("67,108,864 − 1")]
        assert kinds == [(t.NUMBER, "67,108,864"), (t.OPERATOR, "-"), (t.NUMBER, "1")]
