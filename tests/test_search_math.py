"""The search index's plain math is worked out while pages are built (``compat.learn_formulas``),
for the formulas search will hold: those outside what is marked ``data-search-exclude``."""

from macros.site import compat

PAGE = (
    r'<p>Scores <span class="arithmatex">\(q \cdot k &lt; 2\)</span></p>'
    r'<div class="check" data-search-exclude><div>\(c_1\)</div>\(c_2\)</div>'
    r"<table data-search-exclude><tr><td>\(t\)</td></tr></table>"
    r'<div class="arithmatex">\[\sqrt{d_k}\]</div>'
)


def test_what_search_skips_is_left_out_to_its_own_closing_tag():
    kept = compat.searched(PAGE)
    assert r"\(c_1\)" not in kept and r"\(c_2\)" not in kept and r"\(t\)" not in kept
    assert r"\(q \cdot k &lt; 2\)" in kept and r"\[\sqrt{d_k}\]" in kept


def test_formulas_learned_while_building_are_found_when_the_index_is_rewritten():
    compat.readable.cache_clear()
    compat.learn_formulas(PAGE)
    learned = compat.readable.cache_info().misses
    assert learned == 2  # the two formulas outside the skipped elements
    # the index as the search plugin writes it: the TeX unescaped, then escaped again
    compat.with_plain_math(r"Scores \(q \cdot k &lt; 2\) and \[\sqrt{d_k}\]")
    assert compat.readable.cache_info().misses == learned and compat.readable.cache_info().hits == 2
