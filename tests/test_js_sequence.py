"""The browser twin with the sequence keys (docs/assets/js/sequence.js) against numpy
(macros/engine/sequence.py): the same layer to 1e-9 on seeded fixtures that use a source,
valid lengths and positions.
`make test-fast` compares a sample of the drawn fixtures, one of each kind (tests/sweeps.py)."""

import copy

import numpy as np
import pytest

from macros.engine.trace import for_place, to_dict
from macros.sources import fixture
from tests.nodejs import run_node
from tests.sweeps import Sweep
from tests.test_js_twin import differences, matrix

SEED = 20261130


def random_sequence_fixture(rng):
    """A self-attention fixture with at least one of source, key_length and positions."""
    n, d_model, n_heads = int(rng.integers(1, 6)), int(rng.integers(1, 5)), int(rng.integers(1, 3))
    encoding = [None, "sinusoidal", "rotary"][int(rng.integers(3))]
    heads = []
    for _ in range(n_heads):
        d_k = 2 * int(rng.integers(1, 3)) if encoding == "rotary" else int(rng.integers(1, 4))
        d_v = int(rng.integers(1, 3))
        heads.append(
            {"W_Q": matrix(rng, d_model, d_k), "W_K": matrix(rng, d_model, d_k), "W_V": matrix(rng, d_model, d_v)}
        )
    data = {"X": matrix(rng, n, d_model), "heads": heads, "causal": False}
    m = n
    if rng.random() < 0.5:
        m = int(rng.integers(1, 6))
        data["source"] = matrix(rng, m, d_model)
    elif rng.random() < 0.5:
        data["causal"] = True
    if rng.random() < 0.6 or (encoding is None and "source" not in data):
        lengths = [int(rng.integers(1, m + 1)) for _ in range(int(rng.integers(1, 3)))]
        data["key_length"] = lengths if len(lengths) > 1 else lengths[0]
    if encoding == "rotary":
        data["positions"] = {"encoding": "rotary", "base": float(rng.choice([10000.0, 100.0, 10.0]))}
    elif encoding:
        data["positions"] = {"encoding": encoding}
    return data


CASES = {f"sequence-{i:02d}": random_sequence_fixture(np.random.default_rng([SEED, i])) for i in range(60)}


# What each drawn fixture may hold; every kind must be drawn, and the sample holds one of each.
KINDS = {
    "source": lambda d: "source" in d,
    "batch": lambda d: isinstance(d.get("key_length"), list),
    "one length": lambda d: isinstance(d.get("key_length"), int),
    "sinusoidal": lambda d: d.get("positions", {}).get("encoding") == "sinusoidal",
    "rotary": lambda d: d.get("positions", {}).get("encoding") == "rotary",
    "causal": lambda d: d["causal"],
}
# `make test-fast` compares the first two fixtures and the first of each kind; the rest are slow.
SWEEP = Sweep(
    CASES, sample={*list(CASES)[:2], *(next(n for n, d in CASES.items() if drawn(d)) for drawn in KINDS.values())}
)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """part -> name -> (numpy's trace, the twin's trace), both in their JSON form; node runs once a part."""

    def compute(names):
        folder = tmp_path_factory.mktemp("sequence")
        loaded = {name: fixture.validate(folder / name / "fixture.yaml", copy.deepcopy(CASES[name])) for name in names}
        twins = run_node("run_trace.mjs", [fx.to_plain() for fx in loaded.values()])
        return {
            name: (for_place(to_dict(fx.run()), "browser"), twin["trace"])
            for (name, fx), twin in zip(loaded.items(), twins, strict=True)
        }

    return SWEEP.results(compute)


@pytest.mark.parametrize("name", SWEEP.params())
def test_twin_matches_numpy_with_the_new_keys(runs, name):
    numpy_trace, twin_trace = runs.case(name)
    assert differences(numpy_trace, twin_trace) == []


def test_cases_cover_every_key():
    kinds = {kind: [d for d in CASES.values() if drawn(d)] for kind, drawn in KINDS.items()}
    assert {kind: len(found) >= 5 for kind, found in kinds.items()} == {kind: True for kind in kinds}
