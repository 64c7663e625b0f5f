"""The search index's plain math (``macros.site.plain_math``): the formulas search will hold
(those outside what is marked ``data-search-exclude``, ``compat.searched``) are noted as pages
are built, handed to a worker once every page is built (in ``mkdocs build``, one done with the
lessons), and taken from it when the index is rewritten; what no worker works out is worked
out when the index asks for it."""

import pytest

from macros.site import compat, plain_math

PAGE = (
    r'<p>Scores <span class="arithmatex">\(q \cdot k &lt; 2\)</span></p>'
    r'<div class="check" data-search-exclude><div>\(c_1\)</div>\(c_2\)</div>'
    r"<table data-search-exclude><tr><td>\(t\)</td></tr></table>"
    r'<div class="arithmatex">\[\sqrt{d_k}\]</div>'
)
# the index as the search plugin writes it: the TeX unescaped, then escaped again
INDEXED = r"Scores \(q \cdot k &lt; 2\) and \[\sqrt{d_k}\]"
PLAIN = "Scores q ·k &lt; 2 and √(d_k)"  # pylatexenc's plain text


class Result:
    """What ``multiprocessing``'s ``apply_async`` gives: ``get`` the function's value, or raise."""

    def __init__(self, value=None, error=None):
        self.value, self.error = value, error

    def get(self, timeout=None):
        if self.error:
            raise self.error
        return self.value


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    monkeypatch.setattr(plain_math, "_known", {})
    monkeypatch.setattr(plain_math, "_noted", set())
    monkeypatch.setattr(plain_math, "_coming", [])


def test_what_search_skips_is_left_out_to_its_own_closing_tag():
    kept = compat.searched(PAGE)
    assert r"\(c_1\)" not in kept and r"\(c_2\)" not in kept and r"\(t\)" not in kept
    assert r"\(q \cdot k &lt; 2\)" in kept and r"\[\sqrt{d_k}\]" in kept


def test_the_formulas_noted_go_to_a_worker_and_its_plain_texts_are_the_ones_indexed():
    plain_math.note(compat.searched(PAGE))
    handed = []
    plain_math.hand_over(lambda function, args: handed.append((function, args)) or Result(["A", "B"]))
    [(function, (formulas,))] = handed
    assert function is plain_math.plain_texts and formulas == [r"\sqrt{d_k}", r"q \cdot k &lt; 2"]  # sorted
    plain_math.learned()
    assert plain_math.with_plain_math(INDEXED) == "Scores B and A"  # taken, not worked out again


def test_formulas_a_failed_worker_leaves_are_worked_out_here():
    plain_math.note(compat.searched(PAGE))
    plain_math.hand_over(lambda function, args: Result(error=OSError("the worker is gone")))
    plain_math.learned()
    assert plain_math.with_plain_math(INDEXED) == PLAIN


def test_without_a_worker_a_formula_is_worked_out_when_the_index_asks_for_it():
    plain_math.note(compat.searched(PAGE))
    plain_math.hand_over(lambda function, args: None)
    plain_math.learned()
    assert plain_math._known == {}  # nothing worked out yet: the index may not hold them all
    assert plain_math.with_plain_math(INDEXED) == PLAIN
