"""Every sentence and display on a page is true, not only every number: scans of every
lesson's page as the build renders it (tests/computed.py)."""

import re

import numpy as np
import pytest

from macros import redone
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


# ---------------------------------------------------------------- shown arithmetic (macros/redone.py)

SILENT = r"""$$ z_1 = 0.333\,[2, 1] + 0.333\,[0, 4] + 0.333\,[1, 1] = [1, 2]. $$

In the first sequence the same position reads $[1.250, 2.500]$.
"""


def test_the_scan_finds_a_silent_rounding_miss():
    """The control: the masks page's reading before its note (from the shown weights, 0.999)."""
    (miss,) = redone.misses(SILENT, 3)
    assert (miss.redone, miss.shown) == ("[0.999, 1.998]", "1, 2")
    assert redone.misses(SILENT.replace("In the first", "The weights shown are rounded. In the first"), 3) == []


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
    ((_, redone_value, _),) = redone.calculations(tex)
    assert np.array_equal(np.asarray(redone_value, dtype=float), np.asarray(value, dtype=float))


@pytest.mark.parametrize("slug", computed.SLUGS)
def test_every_shown_calculation_checks_out_or_says_why_not(slug):
    assert redone.misses(computed.page(slug), computed.lesson(slug).decimals) == []


def test_the_scan_reads_the_pages_calculations():
    found = sum(len(redone.calculations(tex)) for slug in computed.SLUGS for tex in maths(computed.page(slug)))
    assert found >= 15
