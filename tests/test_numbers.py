"""The one number formatter: hand-written expectations for each rule it applies."""

import pytest

from macros.render.numbers import MINUS, format_masked, format_number, format_rows, format_values


@pytest.mark.parametrize(
    "values, places, expected",
    [
        ([2, 0, 2, -2], 4, ["2", "0", "2", f"{MINUS}2"]),  # a whole group stays whole (seed 001 scores)
        ([7.38905, 1.0, 0.13534], 4, ["7.3891", "1.0000", "0.1353"]),  # one decimal form for the row (seed 001)
        ([-0.0001, 0.5], 3, ["0.000", "0.500"]),  # never "-0.000"
        ([1 / 2**0.5], 3, ["0.707"]),
    ],
)
def test_groups(values, places, expected):
    assert format_values(values, places) == expected


def test_latex_minus_and_matrices():
    assert format_number(-1.5, 2, minus="-") == "-1.50"
    assert format_rows([[1, -1], [0, 2]], 2) == [["1", f"{MINUS}1"], ["0", "2"]]


def test_masked_entries():
    assert format_masked([[1.0, 9.9], [0.25, 0.75]], [[True, False], [True, True]], 2, masked="masked") == [
        ["1.00", "masked"],
        ["0.25", "0.75"],
    ]
    assert format_masked([1.0, 5.0], [True, False], 2) == ["1", None]  # a hidden value cannot make a group decimal
