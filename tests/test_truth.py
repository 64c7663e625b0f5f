"""Every sentence and display on a page is true, not only every number: scans of every
lesson's page as the build renders it (tests/computed.py)."""

import re

import numpy as np
import pytest

from macros.pages import shown_arithmetic
from tests import computed

MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
# A weight matrix or row, as the pages name them: A, a_3, A^{(2)}, \bar{A}, softmax(S) ...
WEIGHTS = re.compile(
    r"(?:\\bar\{A\}|\\operatorname\{softmax\}\\left\(S[^=]*?\\right\)|(?<![\\\w])[Aa])"
    r"(?:\^\{[^}]*\}|_\{[^}]*\}|_\w)*\s*(?:=|\\approx)\s*"
)
VALUE = re.compile(r"(\\begin\{bmatrix\}.*?\\end\{bmatrix\}|\[[^\]]*\])", re.S)


def maths(markdown):
    return [match.group(1) or match.group(2) for match in MATH.finditer(markdown)]


def weight_displays(markdown):
    """Every value a page's math shows for a weight matrix or row: (the TeX around it, value)."""
    for match in MATH.finditer(markdown):
        tex = match.group(1) or match.group(2)
        for name in WEIGHTS.finditer(tex):
            value = VALUE.match(tex, name.end())
            if value:
                yield tex[max(0, name.start() - 20) : value.end()], value.group(1)


def test_the_scan_finds_a_weight_shown_as_infinity():
    """The control: the display the compare-heads page had."""
    page = r"$$A^{(1)} \approx \begin{bmatrix} 1.000 & -\infty \\ 0.3 & 0.7 \end{bmatrix}$$"
    assert [value for _, value in weight_displays(page) if r"\infty" in value] != []


@pytest.mark.parametrize("slug", computed.SLUGS)
def test_no_weight_is_shown_as_infinity(slug):
    found = [where for where, value in weight_displays(computed.page(slug)) if r"\infty" in value]
    assert found == []


def test_the_scan_reads_the_pages_weights():
    """The scan is not vacuous: the masked pages show weight matrices, with exact zeros."""
    shown = [
        value
        for slug in ("masks", "kv-cache", "compare-heads-before-averaging")
        for _, value in weight_displays(computed.page(slug))
    ]
    assert len(shown) >= 3 and any(re.search(r"(?<![\d.])0(?![\d.])", value) for value in shown)


# ---------------------------------------------------------------- shown arithmetic (macros/pages/shown_arithmetic.py)

SILENT = r"""$$ z_1 = 0.333\,[2, 1] + 0.333\,[0, 4] + 0.333\,[1, 1] = [1, 2]. $$

In the first sequence the same position reads $[1.250, 2.500]$.
"""


def test_the_scan_finds_a_silent_rounding_miss():
    """The control: the masks page's reading before its note (from the shown weights, 0.999)."""
    (miss,) = shown_arithmetic.misses(SILENT, 3)
    assert (miss.redone, miss.shown) == ("[0.999, 1.998]", "1, 2")
    assert (
        shown_arithmetic.misses(SILENT.replace("In the first", "The weights shown are rounded. In the first"), 3) == []
    )


@pytest.mark.parametrize(
    ("tex", "value"),
    [
        (r"2\cdot 1+(-1)\cdot 0 = 2", 2.0),  # a dot product, term by term
        (r"0.248(1) + 0.248(0) + 0.503(1) = 0.751", 0.751),  # weighted terms
        (r"0.5\,[2, 0] + 0.5\,[0, 4] = [1, 2]", [1.0, 2.0]),  # a weighted sum of rows
        (r"[0.000, 0.707] + [0, -\infty] = [0.000, -\infty]", [0.0, -np.inf]),  # a mask added
        (r"[1, 2] \begin{bmatrix} 1 & 0 \\ 1 & 1 \end{bmatrix} = [3, 2]", [3.0, 2.0]),  # a row through a matrix
    ],
)
def test_each_form_of_calculation_is_redone(tex, value):
    ((_, redone_value, _),) = shown_arithmetic.calculations(tex)
    assert np.array_equal(np.asarray(redone_value, dtype=float), np.asarray(value, dtype=float))


@pytest.mark.parametrize("slug", computed.SLUGS)
def test_every_shown_calculation_checks_out_or_says_why_not(slug):
    assert shown_arithmetic.misses(computed.page(slug), computed.lesson(slug).decimals) == []


def test_the_scan_reads_the_pages_calculations():
    found = sum(
        len(shown_arithmetic.calculations(tex)) for slug in computed.SLUGS for tex in maths(computed.page(slug))
    )
    assert found >= 15


# A stack of matrices (tensor()), a product of names shown before, a quotient, a total in prose.

STACKS = r"""$$
A \approx \left[\; \begin{matrix} \begin{bmatrix} 1.000 & 0 \\ 0.333 & 0.667 \end{bmatrix}, \\ {} \\
\begin{bmatrix} 1.000 & 0 \\ 0.500 & 0.500 \end{bmatrix} \end{matrix} \;\right],
$$

$$
V = \left[\; \begin{bmatrix} 1 & 0 \\ 1 & 3 \end{bmatrix},\; \begin{bmatrix} 2 & 2 \\ 0 & 4 \end{bmatrix} \;\right].
$$

$$
A V \approx \left[\; \begin{bmatrix} 1.000 & 0.000 \\ 1.000 & 2.000 \end{bmatrix},\;
\begin{bmatrix} 2.000 & 2.000 \\ 1.000 & 3.000 \end{bmatrix} \;\right].
$$

The next section.
"""


def test_a_product_of_shown_stacks_is_redone_head_by_head():
    """From-hand-to-code's A V: from the shown weights, head 1's second row gives 0.333 + 0.667 = 1.000
    and 0.667 · 3 = 2.001, where the page shows 2.000."""
    (miss,) = shown_arithmetic.misses(STACKS, 3)
    assert str(miss) == (
        "the calculation $A V$ gives 2.001 in matrix 1, row 2, column 2 from the numbers as shown, but the "
        "page shows 2.000 in matrix 1, row 2, column 2 with no note: write it with a helper that adds the rounding note"
    )
    assert shown_arithmetic.misses(STACKS.replace("The next", "The weights shown are rounded. The next"), 3) == []
    assert shown_arithmetic.misses(STACKS.replace("1.000 & 2.000", "1.000 & 2.001"), 3) == []


def test_a_name_defined_again_without_numbers_is_not_read_from_before():
    page = STACKS.replace("$$\nA V", "$A = \\operatorname{softmax}(S)$\n\n$$\nA V")
    assert shown_arithmetic.misses(page, 3) == []


def test_the_from_hand_to_code_product_needs_its_note():
    page = computed.page("from-hand-to-code")
    note = re.search(r"The weights of head 2 shown are rounded[^\n]*\n", page).group()
    (miss,) = shown_arithmetic.misses(page.replace(note, ""), computed.lesson("from-hand-to-code").decimals)
    assert miss.written == "A V" and "1.794 in matrix 2, row 3, column 1" in miss.redone


@pytest.mark.parametrize(
    ("tex", "misses"),
    [
        (r"[2.028, 2.028, 4.113] \,/\, 8.169 \approx [0.248, 0.248, 0.503]", 0),
        (r"[2.028, 2.028, 4.113] \,/\, 8.169 \approx [0.248, 0.248, 0.504]", 1),
        (r"\frac{ [2, -1, 1, -3] }{\sqrt{ 2 }} \approx [1.414, -0.707, 0.707, -2.121]", 0),
        (r"\frac{ [2, -1, 1, -3] }{\sqrt{ 2 }} \approx [1.414, -0.707, 0.707, -2.122]", 1),
    ],
)
def test_a_quotient_is_redone(tex, misses):
    """Tracing-two-heads' row of weights as exponentials over their sum, and the scores over √d_k."""
    assert len(shown_arithmetic.misses(f"$$\n{tex}.\n$$\n\nThe next section.\n", 3)) == misses


def test_a_quotients_miss_reads_as_the_page_wrote_it():
    (miss,) = shown_arithmetic.misses(
        r"$$ a \approx [2.028, 2.028, 4.113] \,/\, 8.169 \approx [0.248, 0.248, 0.504]. $$", 3
    )
    assert str(miss).startswith(
        r"the calculation $[2.028, 2.028, 4.113] \,/\, 8.169$ gives [0.248, 0.248, 0.503] from the numbers as "
        "shown, but the page shows 0.248, 0.248, 0.504 with no note"
    )


TOTAL = "Their exponentials are\n$[7.3891, 0.3679, 2.7183, 0.0498]$, which add up to $10.5250$.\nDividing by it.\n"


def test_a_total_stated_in_prose_is_redone():
    """Attention-by-hand's no-scaling solution: the four shown exponentials add up to 10.5251."""
    (miss,) = shown_arithmetic.misses(TOTAL, 4)
    assert str(miss) == (
        "the total of $[7.3891, 0.3679, 2.7183, 0.0498]$ gives 10.5251 from the numbers as shown, but the page "
        "shows 10.5250 with no note: write it with a helper that adds the rounding note"
    )
    assert shown_arithmetic.misses(TOTAL.replace("Dividing", "The exponentials shown are rounded. Dividing"), 4) == []
    assert shown_arithmetic.misses(TOTAL.replace("10.5250", "10.5251"), 4) == []


def test_rows_said_to_add_up_to_one_are_redone_row_by_row():
    rows = "$$\nA = \\begin{bmatrix} 1.000 & 0 \\\\ 0.334 & 0.667 \\end{bmatrix}.\n$$\n\nEvery row adds up to one.\n"
    (miss,) = shown_arithmetic.misses(rows, 3)
    assert (miss.what, miss.redone, miss.shown) == ("the total of", "[1.000, 1.001]", "one, one")
    assert shown_arithmetic.misses(rows.replace("0.334", "0.333"), 3) == []


def test_a_total_far_from_the_numbers_is_not_read_as_theirs():
    """Numbers two paragraphs up, or a sentence that goes on to a display (':'), are not what it adds."""
    assert shown_arithmetic.misses("$[1.5, 2.5]$ here.\n\nAnother paragraph.\n\nThey add up to $9$.\n", 3) == []
    assert shown_arithmetic.misses("$[1.5, 2.5]$ here. The weights add up to one:\n\n$$ [0.5, 0.5] $$\n", 3) == []


def test_the_attention_by_hand_total_needs_its_note():
    page = computed.page("attention-by-hand")
    note = "From the rounded exponentials, it comes to 10.5251; unrounded, it is 10.5250. "  # the page's second note
    assert note in page
    (miss,) = shown_arithmetic.misses(page.replace(note, ""), computed.lesson("attention-by-hand").decimals)
    assert (miss.what, miss.redone, miss.shown) == ("the total of", "10.5251", "10.5250")
