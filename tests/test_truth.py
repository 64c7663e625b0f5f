"""Every sentence and display on a page is true, not only every number: scans of every
lesson's page as the build renders it (tests/computed.py)."""

import re

import pytest

from tests import computed

MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
# A weight matrix or row, as the pages name them: A, a_3, A^{(2)}, \bar{A}, softmax(S) ...
WEIGHTS = re.compile(
    r"(?:\\bar\{A\}|\\operatorname\{softmax\}\\left\(S[^=]*?\\right\)|(?<![\\\w])[Aa])"
    r"(?:\^\{[^}]*\}|_\{[^}]*\}|_\w)*\s*(?:=|\\approx)\s*"
)
VALUE = re.compile(r"(\\begin\{bmatrix\}.*?\\end\{bmatrix\}|\[[^\]]*\])", re.S)


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
