"""How the page's script reads what a reader gives it, under node: a typed answer graded
against a quantity's tolerance and range (docs/assets/js/typed-numbers.js), the set of numbers
an address asks for (docs/assets/js/practice.js), and the book-wide rule for worked solutions
(docs/assets/js/checks.js), held to the build's (macros/render/widgets.py).

Expected values are written by hand from the practice contract (macros/render/practice.py)
and the quantities' ranges (macros/practice/quantities.py). The browser tests
(tests/test_browser.py) drive the same code on built pages.
"""

import html

import pytest

from macros.practice import quantities
from macros.render import practice, widgets
from tests.nodejs import run_node

AMBIGUOUS = "With a comma this could be a thousands separator; write the decimal point as a point. Nothing was counted."
WEIGHT = {"low": 0, "high": 1, "whole": False, "why": quantities.WEIGHT["why"]}
COUNT = {"low": 0, "high": None, "whole": True, "why": quantities.COUNT["why"]}

GRADES = [
    # (typed, answer, tolerance, range, expected)
    ("0.25", 0.25, 0.01, {}, {"right": True}),
    ("0.26", 0.25, 0.01, {}, {"right": True}),  # on the boundary: it counts
    ("0.2601", 0.25, 0.01, {}, {"right": False}),
    ("\u22120.5", -0.5, 0.01, {}, {"right": True}),  # the typographic minus
    ("0,25", 0.25, 0.01, {}, {"right": True}),  # a decimal comma that cannot be a thousands separator
    ("\u22120.5", 0.25, 0.01, WEIGHT, {"notice": "Not counted: a weight lies between 0 and 1."}),
    ("1.001", 0.999, 0.01, WEIGHT, {"notice": "Not counted: a weight lies between 0 and 1."}),
    ("1", 0.995, 0.01, WEIGHT, {"right": True}),  # the range's own end is inside it
    ("0", 0.004, 0.01, WEIGHT, {"right": True}),
    ("21", 21.0, 0.0, COUNT, {"right": True}),
    ("22", 21.0, 0.0, COUNT, {"right": False}),
    ("21.5", 21.0, 0.0, COUNT, {"notice": "Not counted: a count is a whole number, 0 or more."}),
    ("-1", 21.0, 0.0, COUNT, {"notice": "Not counted: a count is a whole number, 0 or more."}),
    # a count's digits grouped by commas are read whole; elsewhere such a comma stays ambiguous
    ("12,288", 12288.0, 0.0, COUNT, {"right": True}),
    ("1,572,864", 1572864.0, 0.0, COUNT, {"right": True}),
    ("1,572,865", 1572864.0, 0.0, COUNT, {"right": False}),
    ("12,28", 12288.0, 0.0, COUNT, {"notice": "Not counted: a count is a whole number, 0 or more."}),
    ("12,288", 12288.0, 0.01, {}, {"notice": AMBIGUOUS}),
]

ADDRESSES = [
    # (search, count, expected number, notice or "")
    ("", 20, 0, ""),
    ("?variant=0", 20, 0, ""),
    ("?variant=7", 20, 7, ""),
    ("?variant=20", 20, 20, ""),
    ("?a=1&variant=3", 20, 3, ""),
    ("?variant=21", 20, 0, "There is no set 21 of numbers here: the sets go from 0 (the lesson's own) to 20. "),
    ("?variant=007", 20, 7, ""),
    ("?variant=-1", 20, 0, "The address does not name a set of numbers: the sets go from 0 (the lesson's own) to 20. "),
    ("?variant=1.5", 20, 0, "The address does not name a set of numbers"),
    ("?variant=%3Cb%3E", 20, 0, "The address does not name a set of numbers"),
    ("?variant=", 20, 0, "The address does not name a set of numbers"),
]
# A page built with set 1 shows it without an address, and falls back to it.
FROM_SET_1 = [("", 20, 1, ""), ("?variant=0", 20, 0, ""), ("?variant=21", 20, 1, "There is no set 21")]


@pytest.fixture(scope="module")
def ran():
    payload = {
        "grades": [{"typed": t, "answer": a, "tolerance": tol, "range": r} for t, a, tol, r, _ in GRADES],
        "addresses": [[search, count, 0] for search, count, _, _ in ADDRESSES]
        + [[search, count, 1] for search, count, _, _ in FROM_SET_1],
        "marks": MARKS,
    }
    return run_node("run_widgets.mjs", payload)


@pytest.mark.parametrize("case", range(len(GRADES)), ids=[f"{g[0]}~{g[1]}" for g in GRADES])
def test_a_typed_answer_is_graded_or_refused_with_the_reason(ran, case):
    assert ran["grades"][case] == GRADES[case][-1]


@pytest.mark.parametrize("case", range(len(ADDRESSES)), ids=[a[0] or "none" for a in ADDRESSES])
def test_an_address_names_a_set_within_the_range_or_gets_a_notice(ran, case):
    _, _, number, notice = ADDRESSES[case]
    got = ran["addresses"][case]
    assert got["number"] == number
    assert got["notice"].startswith(notice) and bool(got["notice"]) == bool(notice)
    if notice:
        assert got["notice"].endswith("These are the lesson's own numbers.")


@pytest.mark.parametrize("case", range(len(FROM_SET_1)), ids=[a[0] or "none" for a in FROM_SET_1])
def test_a_page_built_with_set_1_shows_it_by_default(ran, case):
    _, _, number, notice = FROM_SET_1[case]
    got = ran["addresses"][len(ADDRESSES) + case]
    assert got["number"] == number and got["notice"].startswith(notice) and bool(got["notice"]) == bool(notice)
    if notice:
        assert got["notice"].endswith("These are the numbers of set 1.")


# Texts a practice panel, label or solution holds, each with its subscripts as the page shows them.
MARKS = [
    "Column 2 of W_O: [1, 0].",
    "Each divided by √d_k = √2, the scaled scores: 2 / √2 ≈ 1.414.",
    "q_4·k_1: 1·0 = 0; θ_i and d_model, W_DKV, b_1, W_Oᵀ",
    "key_length and x_ are left as written",
]


@pytest.mark.parametrize("case", range(len(MARKS)))
def test_the_script_marks_subscripts_as_the_build_does(ran, case):
    """practice.js's subscriptParts and render/practice.py's marked cut a text alike."""
    js = "".join(f"<sub>{part}</sub>" if sub else html.escape(part) for part, sub in ran["marks"][case])
    assert js == practice.marked(MARKS[case])


def test_the_marks_are_where_a_reader_expects_them():
    assert practice.marked("W_O, d_k and q_4·k_1") == "W<sub>O</sub>, d<sub>k</sub> and q<sub>4</sub>·k<sub>1</sub>"
    assert practice.marked("key_length") == "key_length"


def test_one_rule_for_worked_solutions_in_the_build_and_the_page(ran):
    assert ran["solutionAfter"] == widgets.SOLUTION_AFTER == 3


def test_a_checks_worked_solution_opens_after_the_rule_whatever_its_hints():
    for hints in ([], ["one"], ["one", "two"]):
        html = widgets.check("c", "Q", 0.5, 0.01, hints=hints, solution="S")
        assert f'data-after="{widgets.SOLUTION_AFTER}" data-solution' in html
        assert html.count("data-solution") == 1
