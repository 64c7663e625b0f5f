"""One convention for zeros on every page (macros/render/numbers.py): a value that is zero (up
to float noise) is written 0, without decimals; a value that only rounds to zero keeps its
decimals (0.000); nothing is written −0.000. Read from a record of what the formatter wrote
for every value each lesson publishes (the values tests/golden/ holds, the numbers of its page)."""

import re

import numpy as np
import pytest

from macros.render import numbers
from macros.tools import golden
from tests import computed

ROUNDED_TO_ZERO = re.compile(r"^[−-]?0\.0+$")


def written(slug, monkeypatch):
    """(value, text) for every number the lesson publishes, as the formatter wrote it."""
    pairs, real = [], numbers.format_values

    def recording(values, places, minus=numbers.MINUS):
        texts = real(values, places, minus)
        pairs.extend(zip(np.asarray(values, dtype=float).ravel().tolist(), texts, strict=True))
        return texts

    monkeypatch.setattr(numbers, "format_values", recording)
    monkeypatch.setattr(golden, "format_values", recording)
    golden.record(computed.lesson(slug))
    return pairs


def broken(pairs):
    """The pairs that break the convention."""
    return [
        (value, text)
        for value, text in pairs
        if (abs(value) <= numbers.WHOLE_TOLERANCE and text != "0")
        or (ROUNDED_TO_ZERO.match(text) and (abs(value) <= numbers.WHOLE_TOLERANCE or text.startswith(("−", "-"))))
    ]


@pytest.mark.parametrize("slug", computed.SLUGS)
def test_zero_is_0_and_a_number_that_rounds_to_zero_keeps_its_decimals(slug, monkeypatch):
    pairs = written(slug, monkeypatch)
    assert pairs and broken(pairs) == []


def test_a_single_number_keeps_the_rule_whatever_form_its_group_asks():
    # a stack of matrices in decimals (macros/render/tensors.py) writes each entry alone
    assert numbers.format_number(0.0, 3, whole=False) == "0"
    assert numbers.format_number(-1e-15, 3, whole=False) == "0"
    assert numbers.format_number(0.0004, 3, whole=False) == "0.000"
    assert numbers.format_number(-0.0004, 3, whole=False) == "0.000"


def test_the_rule_is_read_as_written():
    # negative control: zero written with decimals, and a minus on a rounded zero, are found
    assert broken([(0.0, "0.000"), (-0.0001, "−0.000"), (0.0001, "0.000"), (0.0, "0")]) == [
        (0.0, "0.000"),
        (-0.0001, "−0.000"),
    ]
