"""The worksheets' script under node (docs/assets/js/sheets.js): the key's answers written as
the build's formatter writes them (macros.render.numbers, with thousands grouped for a whole
count, as a question allows it typed), every digit of an exact value as Python writes it, and
the choice an address makes. The expected choices are written by hand from the contract in
sheets.js's docstring; tests/test_worksheets.py prints the pages in Chromium.
"""

import pytest

from macros.render.numbers import format_number
from tests.nodejs import run_node

DECIMAL_ANSWERS = [0.20333627803935772, -0.0655, 2.0, 18.7734375, -1e-9, 0.0005, 1234.5678]
WHOLE_ANSWERS = [(14563.0, "14,563"), (3.0, "3"), (1572864.0, "1,572,864")]
EXACTS = [0.20333627803935772, -0.5, 18.7734375, 1e-7, 3.0]
SLUGS = ["masks", "kv-cache", "why-scale"]
CHOICES = [
    # (search, single, expected {slugs, from, to, key})
    ("?set=7", True, {"slugs": ["masks"], "from": 7, "to": 7, "key": False}),
    ("?set=7&key=1", True, {"slugs": ["masks"], "from": 7, "to": 7, "key": True}),
    ("", True, {"slugs": ["masks"], "from": 1, "to": 1, "key": False}),
    ("?set=0", True, {"slugs": ["masks"], "from": 0, "to": 0, "key": False}),
    ("?set=21", True, {"slugs": ["masks"], "from": 1, "to": 1, "key": False}),  # no such set: set 1
    ("?set=%3Cb%3E", True, {"slugs": ["masks"], "from": 1, "to": 1, "key": False}),
    (
        "?lessons=masks,nothing,why-scale&from=1&to=5",
        False,
        {"slugs": ["masks", "why-scale"], "from": 1, "to": 5, "key": False},
    ),
    ("?lessons=kv-cache&from=4&to=2&key=1", False, {"slugs": ["kv-cache"], "from": 4, "to": 4, "key": True}),
    ("?lessons=&from=2", False, {"slugs": [], "from": 2, "to": 2, "key": False}),
    ("?key=yes", False, {"slugs": [], "from": 1, "to": 1, "key": False}),
]


@pytest.fixture(scope="module")
def ran():
    payload = {
        "answers": [[{"answer": a, "whole": False}, 3] for a in DECIMAL_ANSWERS]
        + [[{"answer": a, "whole": True}, 3] for a, _ in WHOLE_ANSWERS],
        "exacts": EXACTS,
        "choices": [[search, SLUGS, single] for search, single, _ in CHOICES],
    }
    return run_node("run_sheets.mjs", payload)


@pytest.mark.parametrize("i", range(len(DECIMAL_ANSWERS)))
def test_the_key_writes_an_answer_as_the_build_does(ran, i):
    assert ran["answers"][i] == format_number(DECIMAL_ANSWERS[i], 3)


@pytest.mark.parametrize("i", range(len(WHOLE_ANSWERS)))
def test_a_whole_answer_has_its_thousands_grouped(ran, i):
    assert ran["answers"][len(DECIMAL_ANSWERS) + i] == WHOLE_ANSWERS[i][1]


def test_the_exact_value_reads_back_as_the_same_number(ran):
    """Every digit the data holds: the text reads back as the same double (JavaScript writes
    1e-7 where Python writes 1e-07, the same number)."""
    assert [float(text.replace("\u2212", "-")) for text in ran["exacts"]] == EXACTS
    assert ran["exacts"][:3] == ["0.20333627803935772", "\u22120.5", "18.7734375"]


@pytest.mark.parametrize("i", range(len(CHOICES)), ids=[c[0] or "none" for c in CHOICES])
def test_an_address_makes_a_choice(ran, i):
    assert ran["choices"][i] == CHOICES[i][2]
