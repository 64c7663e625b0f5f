"""The browser twins of the newer steps (docs/assets/js/steps-extra.js) against numpy.

Key padding, rotary rotation and score, and online softmax by blocks are computed by both
engines on the same inputs, drawn from the fixed seed SEED, and must agree to TOL
(absolute plus relative), with nulls at the same places; the validation messages must be
the same words. Node runs the calls in the session's node process (tests/js/run_steps_extra.mjs);
its absence fails these tests, as it does the main twin's. `make test-fast` compares a sample
(tests/sweeps.py).
"""

import numpy as np
import pytest

from macros.engine import masks, online, positions
from tests.nodejs import run_node
from tests.sweeps import Sweep
from tests.test_js_twin import differences

SEED = 20261130
N_RANDOM = 40


def calls_and_expected():
    """(name, call for node, numpy's answer as JSON) for every case."""
    rng = np.random.default_rng(SEED)
    cases = []
    for i in range(N_RANDOM):
        n_q, n_k = int(rng.integers(1, 5)), int(rng.integers(1, 7))
        key_length = int(rng.integers(1, n_k + 1))
        cases.append(
            (
                f"keyPadding-{i}",
                {"fn": "keyPadding", "args": [n_q, n_k, key_length]},
                masks.key_padding(n_q, n_k, key_length).tolist(),
            )
        )
        d_k = 2 * int(rng.integers(1, 4))
        base = float(rng.choice([100.0, 10000.0]))
        M = rng.normal(size=(n_k, d_k)) * float(rng.choice([1.0, 100.0]))
        where = rng.integers(0, 2048, size=n_k).astype(float)
        cases.append(
            (
                f"rotary-{i}",
                {"fn": "rotary", "args": [M.tolist(), where.tolist(), base]},
                positions.rotary(M, where, base).tolist(),
            )
        )
        q, k = rng.normal(size=d_k), rng.normal(size=d_k)
        p_q, p_k = (int(x) for x in rng.integers(0, 512, size=2))
        cases.append(
            (
                f"rotaryScore-{i}",
                {"fn": "rotaryScore", "args": [q.tolist(), k.tolist(), p_q, p_k, base]},
                positions.rotary_score(q, k, p_q, p_k, base),
            )
        )
        size = float(rng.choice([0.5, 3.0, 300.0]))
        Q, K, V = rng.normal(size=(n_q, 2)) * size, rng.normal(size=(n_k, 2)) * size, rng.normal(size=(n_k, 3))
        b = int(rng.integers(1, n_k + 1))
        visible = None
        if i % 2 and n_q == n_k:
            visible = masks.sliding_window(n_k, int(rng.integers(1, n_k + 1)))
        elif i % 2:
            visible = masks.key_padding(n_q, n_k, key_length)
        args = [Q.tolist(), K.tolist(), V.tolist(), b] + ([] if visible is None else [visible.tolist()])
        cases.append(
            (
                f"onlineAttention-{i}",
                {"fn": "onlineAttention", "args": args},
                online.online_attention(Q, K, V, b, visible).to_dict(),
            )
        )
    return cases


CASES = calls_and_expected()

# Inputs numpy refuses, with numpy's call; the twin must refuse them in the same words.
REFUSED = {
    "key_length 0": ("keyPadding", [2, 3, 0], lambda: masks.key_padding(2, 3, 0)),
    "key_length past the keys": ("keyPadding", [2, 3, 4], lambda: masks.key_padding(2, 3, 4)),
    "odd d_k": ("rotary", [[[1, 2, 3]], [0]], lambda: positions.rotary(np.ones((1, 3)), [0])),
    "odd d_k in a score": ("rotaryScore", [[1], [1], 0, 1], lambda: positions.rotary_score([1.0], [1.0], 0, 1)),
    "block size 0": ("keyBlocks", [3, 0], lambda: online.key_blocks(3, 0)),
    "block size past n": ("keyBlocks", [3, 4], lambda: online.key_blocks(3, 4)),
    "a row with no key": (
        "onlineAttention",
        [[[1], [1]], [[1], [1]], [[1], [1]], 1, [[True, False], [False, False]]],
        lambda: online.online_attention(
            np.ones((2, 1)), np.ones((2, 1)), np.ones((2, 1)), 1, np.array([[True, False], [False, False]])
        ),
    ),
}


CALLS = {name: call for name, call, _ in CASES} | {
    name: {"fn": fn, "args": args} for name, (fn, args, _) in REFUSED.items()
}
EXPECTED = {name: expected for name, _, expected in CASES}
# `make test-fast` compares the first three draws of each step and every refusal; the rest are slow.
SWEEP = Sweep(CALLS, sample=[*(name for name, _, _ in CASES[: 3 * 4]), *REFUSED])


@pytest.fixture(scope="module")
def twin():
    """part -> name -> the twin's {value} or {error}; node runs once a part."""
    return SWEEP.results(
        lambda names: dict(zip(names, run_node("run_steps_extra.mjs", [CALLS[n] for n in names]), strict=True))
    )


class TestParity:
    @pytest.mark.parametrize("name", SWEEP.params(EXPECTED))
    def test_twin_matches_numpy(self, twin, name):
        found, expected = twin.case(name), EXPECTED[name]
        assert "error" not in found, found
        if isinstance(expected, list) and expected and isinstance(expected[0][0], bool):
            assert found["value"] == expected
        else:
            assert differences({"value": expected}, found) == []

    def test_cases_reach_masks_and_several_blocks(self):
        records = [expected for name, _, expected in CASES if name.startswith("onlineAttention")]
        assert sum(len(r["blocks"]) > 1 for r in records) >= 10
        assert sum(any(x is None for b in r["blocks"] for row in b["scaled"] for x in row) for r in records) >= 5

    def test_the_comparison_can_fail(self, twin):
        name, _, expected = CASES[3]
        changed = {**expected, "output": [[x + 1e-6 for x in row] for row in expected["output"]]}
        assert differences({"value": changed}, twin.case(name)) != []

    def test_the_offset_identity_in_the_twin(self):
        q, k = [0.3, -1.2, 0.7, 2.0], [1.1, 0.4, -0.5, 0.9]
        here, there = run_node(
            "run_steps_extra.mjs",
            [{"fn": "rotaryScore", "args": [q, k, 1, 3]}, {"fn": "rotaryScore", "args": [q, k, 4, 6]}],
        )
        assert abs(here["value"] - there["value"]) <= 1e-12


class TestRefused:
    @pytest.mark.parametrize("name", list(REFUSED))
    def test_same_message_as_numpy(self, twin, name):
        with pytest.raises(ValueError) as caught:
            REFUSED[name][2]()
        assert twin.case(name) == {"error": str(caught.value)}
