"""Heat maps read the same way in the light and the dark scheme: the stronger a cell's colour,
the more weight, and a hidden cell has no colour at all, so it cannot pass for a weight (in
the dark scheme a grey fill looked lighter than a near-zero weight, which reads as more)."""

import pytest

from tests import sitebuild

pytestmark = pytest.mark.browser
PAGE = sitebuild.lesson_page("compare-heads-before-averaging")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_hidden_cell_has_no_fill_and_the_words_do_not_depend_on_the_scheme(tabs, served_site, scheme):
    with tabs.lend(color_scheme=scheme) as page:
        page.goto(served_site + PAGE)
        page.wait_for_load_state("load")
        fills = page.eval_on_selector_all(".abh-masked", "cells => cells.map(c => getComputedStyle(c).fill)")
        assert fills and set(fills) == {"none"}
        heat = page.eval_on_selector_all(".abh-heat", "cells => cells.map(c => getComputedStyle(c).fill)")
        assert heat and all(fill != "none" for fill in heat)
        text = page.inner_text("article")
        assert "darker" not in text and "lighter" not in text
