"""docs/assets/js/format.js against macros/render/numbers.format_values, text for text.

A live widget writes the numbers it recomputes with format.js; the build writes them with
format_values. Both must give the same characters for the same group of values, or an
edit that changes nothing would still change what the reader sees. Every group here goes
to node in one call (tests/js/run_format.mjs, in the session's node process: tests/nodejs.py),
values as Python repr strings so that -0.0, inf and nan survive JSON. Node is required:
without it this fails, it does not skip.
"""

import math

import numpy as np
import pytest

from macros.render.numbers import format_values
from tests.nodejs import run_node

SEED = 20261201

# (values, places): each case names what it guards.
HAND_PICKED = [
    ([0.0, 1.0, -1.0], 4),  # whole: integers
    ([-0.0], 4),  # never "-0"
    ([-0.0, 0.5], 3),  # zero is 0: never "-0.000" nor "0.000"
    ([1e-13, -1e-13, 0.0004, 0.5], 3),  # zero up to float noise is 0; a number that rounds to it is 0.000
    ([-0.00001, 0.5], 3),  # rounds to zero: no minus
    ([-0.0004999, 0.25], 3),
    ([0.5, 1.5, 2.5, -2.5], 0),  # ties at 0 places: Python rounds to even
    ([0.03125, 0.09375, -0.03125, 1.53125, -1.53125], 4),  # exact ties at the 4th decimal
    ([0.125, 0.375, 0.625, -0.875], 2),
    ([0.0625, 0.1875], 3),
    ([0.00005, 0.00015, 0.00025, 1.00005], 4),  # look like ties, are not in binary
    ([2.675, 1.005, 0.045], 2),  # classic binary rounding surprises
    ([1.0000000000001, 2.0], 4),  # whole up to float noise
    ([1.000000001, 2.0], 4),  # not whole
    ([1e-13, -1e-13, 3.0], 2),
    ([1e21, 0.5], 4),  # toFixed switches to exponents from 1e21
    ([1e21, -2e22], 2),
    ([1e300, 0.1], 4),
    ([-1.7976931348623157e308, 0.5], 1),
    ([1.7976931348623157e308], 3),
    ([9007199254740993.0, 0.5], 2),  # above 2^53
    ([9007199254740992.0, 4503599627370497.0], 4),
    ([999999999999999999999.0, 0.5], 4),  # just under 1e21
    ([5e-324, 1.0], 4),  # the smallest subnormal
    ([2.2250738585072014e-308, -0.3], 8),
    ([123456789.123456789, -0.000000005], 8),
    ([0.999995, 0.99995, -0.99995], 4),  # carries into the integer part
    ([9.99995, 99.9999999], 6),
    ([math.inf, 1.0], 4),
    ([-math.inf, 0.5], 4),
    ([math.nan], 4),
    ([], 4),
    ([0.46432780248952427, 1.3759744867557775, 2.0, -1.0], 4),  # the deep dive's answers
]


def random_groups():
    """Groups of every size and scale, some whole, some built from exact binary ties."""
    rng = np.random.default_rng(SEED)
    groups = []
    for i in range(600):
        places = int(rng.integers(0, 9))
        size = int(rng.integers(1, 7))
        kind = i % 5
        if kind == 0:
            values = rng.integers(-50, 51, size=size).astype(float)
        elif kind == 1:  # odd multiples of 2^-(places+1): ties at the last decimal shown
            values = rng.integers(-400, 401, size=size) * 2 + 1
            values = values / 2.0 ** (places + 1)
        elif kind == 2:
            values = rng.normal(size=size) * 10.0 ** float(rng.integers(-9, 25))
        elif kind == 3:  # softmax weights and their products, as lessons show them
            values = rng.dirichlet(np.ones(size)) * float(rng.choice([1.0, -2.0, 3.5]))
        else:  # values a few ulps from a rounding boundary
            base = rng.integers(-(10**4), 10**4, size=size) / 10**places + 0.5 / 10**places
            values = base + rng.integers(-3, 4, size=size) * np.spacing(base)
        groups.append(([float(v) for v in values], places))
    return groups


CASES = HAND_PICKED + random_groups()


def run_format_js(cases):
    payload = [{"values": [repr(float(v)) for v in values], "places": places} for values, places in cases]
    return run_node("run_format.mjs", payload)


@pytest.fixture(scope="module")
def js_texts():
    return run_format_js(CASES)


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # is_whole on inf and nan
def test_every_group_reads_the_same(js_texts):
    mismatches = [
        (values, places, expected, got)
        for (values, places), got in zip(CASES, js_texts, strict=True)
        if (expected := format_values(values, places)) != got
    ]
    assert not mismatches, "\n".join(
        f"{v!r} at {p} places: Python {e}, format.js {g}" for v, p, e, g in mismatches[:10]
    )


def test_the_cases_cover_what_they_claim():
    """A negative control: the hand-picked ties really are ties, and do differ from toFixed's rule."""
    assert format_values([0.03125], 4) == ["0.0312"]  # toFixed would give 0.0313
    assert format_values([2.5, 0.5], 0) == ["2", "0"]
    assert format_values([-0.0, 0.5], 3) == ["0", "0.500"]  # zero is 0, never −0.000 nor 0.000
    assert format_values([1e-13, 0.0004, -0.0004, 0.5], 3) == ["0", "0.000", "0.000", "0.500"]  # noise, rounded
    assert format_values([1e21, 0.5], 1) == ["1000000000000000000000.0", "0.5"]
