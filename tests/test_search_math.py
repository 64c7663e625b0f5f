"""The search index's plain math: the formulas search will hold (those outside what is marked
``data-search-exclude``) are noted while pages are built (``compat.note_formulas``), handed to
another process once every page is built (``compat.learn_elsewhere``; in ``mkdocs build``, a
worker done with the lessons), and taken from it when the index is rewritten."""

import pytest

from macros.site import compat

PAGE = (
    r'<p>Scores <span class="arithmatex">\(q \cdot k &lt; 2\)</span></p>'
    r'<div class="check" data-search-exclude><div>\(c_1\)</div>\(c_2\)</div>'
    r"<table data-search-exclude><tr><td>\(t\)</td></tr></table>"
    r'<div class="arithmatex">\[\sqrt{d_k}\]</div>'
)
# the index as the search plugin writes it: the TeX unescaped, then escaped again
INDEXED = r"Scores \(q \cdot k &lt; 2\) and \[\sqrt{d_k}\]"


class Result:
    """What ``multiprocessing``'s ``apply_async`` gives: ``get`` the function's value, or raise."""

    def __init__(self, value=None, error=None):
        self.value, self.error = value, error

    def get(self, timeout=None):
        if self.error:
            raise self.error
        return self.value


@pytest.fixture(autouse=True)
def fresh():
    compat._known.clear(), compat._noted.clear(), compat._coming.clear()
    yield
    compat._known.clear(), compat._noted.clear(), compat._coming.clear()


def test_what_search_skips_is_left_out_to_its_own_closing_tag():
    kept = compat.searched(PAGE)
    assert r"\(c_1\)" not in kept and r"\(c_2\)" not in kept and r"\(t\)" not in kept
    assert r"\(q \cdot k &lt; 2\)" in kept and r"\[\sqrt{d_k}\]" in kept


def test_the_formulas_noted_go_to_another_process_and_its_plain_texts_are_the_ones_indexed():
    compat.note_formulas(PAGE)
    handed = []
    compat.learn_elsewhere(lambda function, args: handed.append((function, args)) or Result(["A", "B"]))
    [(function, (formulas,))] = handed
    assert function is compat.plain_texts and formulas == [r"\sqrt{d_k}", r"q \cdot k &lt; 2"]  # sorted
    compat._learned()
    assert compat.with_plain_math(INDEXED) == "Scores B and A"  # taken, not worked out again


def test_formulas_a_failed_process_leaves_are_worked_out_here():
    compat.note_formulas(PAGE)
    compat.learn_elsewhere(lambda function, args: Result(error=OSError("the worker is gone")))
    compat._learned()
    assert compat.with_plain_math(INDEXED) == "Scores q ·k &lt; 2 and √(d_k)"  # pylatexenc's plain text


def test_without_another_process_every_formula_is_worked_out_here():
    compat.note_formulas(PAGE)
    compat.learn_elsewhere(lambda function, args: None)
    assert compat.with_plain_math(INDEXED) == "Scores q ·k &lt; 2 and √(d_k)"  # pylatexenc's plain text
