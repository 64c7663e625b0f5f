"""The browser twin (docs/assets/js/engine.js) against the numpy engine, on shared golden vectors.

The golden vectors are not committed: they are generated at test time from the fixed numpy
seed SEED (N_RANDOM random fixtures of both forms, then the hand-picked edge cases of
edge_cases(), then every lesson's fixture.yaml). Each one is written as YAML, loaded by
macros.sources.fixture.load and traced by the numpy engine; its JSON form (the fixture's to_plain())
goes to node, which runs the twin over all of them in one call (tests/js/run_trace.mjs, in the
session's node process: tests/nodejs.py).
Every field of the two traces must agree to TOL, absolute plus relative, with nulls at the
same places. Node is required: without it these tests fail, they do not skip.

`make test-fast` compares a sample (SWEEP's: the first drawn fixtures, the edge cases and
the lessons); the other drawn fixtures are marked slow (tests/sweeps.py).
"""

import copy
import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest
import yaml

from macros import compute as computation
from macros.engine import variants
from macros.engine.trace import (
    HEAD_FIELDS,
    LAYER_FIELDS,
    SINGLE_LAYER,
    HeadTrace,
    Trace,
    for_place,
    steps_present,
    to_dict,
)
from macros.errors import FixtureError
from macros.render.lesson_widgets import not_in_browser
from macros.sources import fixture
from macros.tools import twin_contract
from tests import computed
from tests.nodejs import run_node
from tests.sweeps import Sweep

ROOT = Path(__file__).resolve().parent.parent
SEED = 20261129
N_RANDOM = 240
TOL = 1e-9
SEED_LESSON = ROOT / "lessons" / "two-heads-separate-projections" / "fixture.yaml"
# Every lesson whose layer the twin computes; the others' pages refuse a lab (lesson_widgets.not_in_browser).
OPTIONAL = {f.name for f in HEAD_FIELDS if f.optional}
LESSON_FIXTURES = sorted(path for path in ROOT.glob("lessons/*/fixture.yaml") if not not_in_browser(fixture.load(path)))


# ---------------------------------------------------------------- generating fixtures


def matrix(rng, rows, cols, size=1.0):
    """Small whole numbers half the time, as hand-worked lessons use; normal floats otherwise."""
    if rng.random() < 0.5:
        return rng.integers(-3, 4, size=(rows, cols)).astype(float).tolist()
    return (rng.normal(size=(rows, cols)) * size).tolist()


def random_self_attention(rng):
    n, d_model, n_heads = (int(rng.integers(1, top)) for top in (7, 6, 4))
    size = float(rng.choice([0.5, 1.0, 3.0]))
    heads = []
    for _ in range(n_heads):
        d_k, d_v = int(rng.integers(1, 5)), int(rng.integers(1, 4))
        heads.append(
            {"W_Q": matrix(rng, d_model, d_k), "W_K": matrix(rng, d_model, d_k), "W_V": matrix(rng, d_model, d_v)}
        )
    data = {"X": matrix(rng, n, d_model, size), "heads": heads, "causal": bool(rng.integers(2))}
    if rng.random() < 0.5:
        data["W_O"] = matrix(rng, sum(len(head["W_V"][0]) for head in heads), d_model)
    if rng.random() < 0.3:
        data["tokens"] = [f"t{i}" for i in range(n)]
    return data


def random_direct(rng):
    n_heads, d_k, d_v = (int(rng.integers(1, top)) for top in (4, 4, 4))
    causal = bool(rng.integers(2))
    n_q, n_k = int(rng.integers(1, 7)), int(rng.integers(1, 7))
    if causal:
        n_q = n_k
    size = float(rng.choice([0.5, 1.0, 3.0]))
    data = {
        "Q": matrix(rng, n_q, n_heads * d_k, size),
        "K": matrix(rng, n_k, n_heads * d_k, size),
        "V": matrix(rng, n_k, n_heads * d_v),
        "n_heads": n_heads,
        "causal": causal,
    }
    if rng.random() < 0.5:
        data["W_O"] = matrix(rng, n_heads * d_v, int(rng.integers(1, 5)))
    if rng.random() < 0.3:
        data["query_labels"] = [f"q{i}" for i in range(n_q)]
        data["key_labels"] = [f"k{i}" for i in range(n_k)]
    return data


def direct(Q, K, V, n_heads=1, causal=False, **more):
    return {"Q": Q, "K": K, "V": V, "n_heads": n_heads, "causal": causal, **more}


def one_head(X, W_Q, W_K, W_V, causal=False, **more):
    return {"X": X, "heads": [{"W_Q": W_Q, "W_K": W_K, "W_V": W_V}], "causal": causal, **more}


def edge_cases(rng):
    """Hand-picked fixtures for the places where two float engines are most likely to part."""
    V3 = [[1.0, 0.0], [0.0, 2.0], [2.0, 2.0]]
    big = (rng.normal(size=(4, 2)) * 1000).tolist()
    return {
        # scores of ±1000: the plain exponentials overflow to null, the stable weights do not
        "scores-pm1000": direct([[1.0]], [[1000.0], [0.0], [-1000.0]], V3),
        "scores-pm1000-causal": direct([[1.0], [1.0], [-1.0]], [[1000.0], [-1000.0], [1000.0]], V3, causal=True),
        "scores-pm1000-two-heads": direct(
            [[1.0, -1.0]], [[1000.0, 1000.0], [-1000.0, 0.0], [0.0, -1000.0]], V3, n_heads=2, W_O=[[1.0], [-2.0]]
        ),
        # scores of about 1e6 in magnitude
        "scores-1e6": direct([[1e6]], [[1.0], [-1.0], [0.999999], [0.5]], [[1.0], [2.0], [3.0], [4.0]]),
        "scores-1e6-random": direct(big[:3], big, (rng.normal(size=(4, 3))).tolist()),
        "scores-1e6-self": one_head(
            (rng.normal(size=(3, 2)) * 1000).tolist(),
            [[1.0, 0.0], [0.0, 1.0]],
            [[1.0, 0.5], [-0.5, 1.0]],
            [[1.0], [1.0]],
            causal=True,
        ),
        # exponentials that underflow to exactly 0 in the stable form
        "underflow": direct([[1.0]], [[0.0], [-800.0], [-1e4]], V3),
        # the smallest layer there is
        "1x1-self": one_head([[2.5]], [[1.5]], [[-0.5]], [[3.0]]),
        "1x1-self-causal-W_O": one_head([[2.5]], [[1.5]], [[-0.5]], [[3.0]], causal=True, W_O=[[-2.0]]),
        "1x1-direct": direct([[0.3]], [[-2.0]], [[7.0]]),
        # identical scores along a row: ties share the weight evenly
        "ties-zero-query": direct([[0.0, 0.0], [0.0, 0.0]], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], V3),
        "ties-equal-keys": direct([[1.0, -2.0]], [[0.5, 0.5]] * 3, V3),
        "ties-equal-rows-causal": one_head(
            [[1.0, 2.0]] * 4, [[1.0], [1.0]], [[2.0], [-1.0]], [[1.0, 0.0], [0.0, 1.0]], True
        ),
        "ties-two-heads": direct([[1.0, 1.0]] * 3, [[1.0, 1.0]] * 3, V3, n_heads=2, causal=True),
        # the scoring steps the twin computes: a cap that bites (scores of ±1000 capped at 2),
        # QK-norm on rows of very different lengths, and both together under a mask
        "softcap-pm1000": direct([[1.0], [1.0], [-1.0]], [[1000.0], [-1000.0], [0.5]], V3, softcap=2.0),
        "qk-norm-lengths": one_head(
            [[1e-3, 0.0], [3.0, 4.0], [-300.0, 5.0]],
            [[1.0, 0.0], [0.0, 1.0]],
            [[2.0, 1.0], [-1.0, 1.0]],
            [[1.0], [2.0]],
            qk_norm=True,
        ),
        "softcap-qk-norm-two-heads-causal": direct(
            [[1.0, 2.0, 0.0, -1.0]] * 3,
            [[2.0, -1.0, 3.0, 1.0], [0.0, 1.0, 1.0, 1.0], [5.0, 5.0, -2.0, 0.5]],
            V3,
            n_heads=2,
            causal=True,
            softcap=1.5,
            qk_norm=True,
        ),
        # a sink logit per head (gpt-oss): one far above the scores (nearly all weight on the sink),
        # one far below (plain attention), under a causal mask, with a cap before it
        "sink-two-heads-causal": direct(
            [[1.0, 2.0, 0.0, -1.0]] * 3,
            [[2.0, -1.0, 3.0, 1.0], [0.0, 1.0, 1.0, 1.0], [5.0, 5.0, -2.0, 0.5]],
            V3,
            n_heads=2,
            causal=True,
            softcap=4.0,
            sink={"logits": [30.0, -30.0]},
        ),
        # latent attention: both heads' keys and values rebuilt from one latent row per token
        "latent-two-heads-causal": {
            "X": [[1.0, 0.0, 2.0], [0.0, -1.0, 1.0], [0.5, 1.0, 0.0]],
            "heads": [{"W_Q": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]}, {"W_Q": [[0.0, 1.0], [1.0, 0.0], [0.5, 0.0]]}],
            "causal": True,
            "latent": {
                "W_DKV": [[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]],
                "heads": [
                    {"W_UK": [[1.0, 0.0], [0.0, 1.0]], "W_UV": [[1.0], [2.0]]},
                    {"W_UK": [[0.5, 1.0], [1.0, 0.0]], "W_UV": [[-1.0], [1.0]]},
                ],
            },
        },
    }


def golden_cases():
    """Name -> fixture in its JSON form, every default written out: N_RANDOM random, then the edges."""
    rng = np.random.default_rng(SEED)
    cases = {}
    for i in range(N_RANDOM):
        form, make = ("self", random_self_attention) if i % 2 == 0 else ("direct", random_direct)
        cases[f"random-{form}-{i:03d}"] = make(rng)
    return {**cases, **edge_cases(rng)}


CASES = golden_cases()


# ---------------------------------------------------------------- running both engines


def write_yaml(data, folder):
    folder.mkdir(parents=True)
    path = folder / "fixture.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def leaves(value, path="trace"):
    """Every number or null of a trace, with its path, e.g. ('trace.heads[0].weights[1][2]', 0.25)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from leaves(item, f"{path}[{i}]")
    else:
        yield path, value


def differences(expected, actual):
    """Where two traces disagree: a number beyond TOL, a null in one only, a missing entry.

    What comparing ``leaves`` of both path by path gives, found by walking the two side by
    side, so that a path is written out only where something differs.
    """
    found = []
    _compare(expected, actual, "trace", found)
    return sorted(found)


def _differ(a, b):
    """Whether two leaves disagree: a null in one only, or numbers apart by more than TOL."""
    if a is None or b is None:
        return a is not b
    return not math.isfinite(a) or not math.isfinite(b) or abs(a - b) > TOL + TOL * max(abs(a), abs(b))


def _compare(a, b, path, found):
    """Adds to ``found`` how ``a`` (numpy's) and ``b`` (the twin's), both at ``path``, disagree."""
    if isinstance(a, dict) and isinstance(b, dict):
        entries = [(f".{key}", a.get(key, _ABSENT), b.get(key, _ABSENT)) for key in {**a, **b}]
    elif isinstance(a, list) and isinstance(b, list):
        entries = zip(range(max(len(a), len(b))), _padded(a, len(b)), _padded(b, len(a)), strict=True)
    elif isinstance(a, dict | list) or isinstance(b, dict | list):  # a container against another kind
        want, got = dict(leaves(a, path)), dict(leaves(b, path))
        found += [f"{where}: missing from the twin's trace" for where in want.keys() - got.keys()]
        found += [f"{where}: not in numpy's trace" for where in got.keys() - want.keys()]
        both = want.keys() & got.keys()
        found += [f"{w}: numpy {want[w]!r}, twin {got[w]!r}" for w in both if _differ(want[w], got[w])]
        return
    else:
        if _differ(a, b):
            found.append(f"{path}: numpy {a!r}, twin {b!r}")
        return
    for step, x, y in entries:
        if x is _ABSENT:
            found += [f"{where}: not in numpy's trace" for where, _ in leaves(y, _at(path, step))]
        elif y is _ABSENT:
            found += [f"{where}: missing from the twin's trace" for where, _ in leaves(x, _at(path, step))]
        elif isinstance(x, dict | list) or isinstance(y, dict | list):
            _compare(x, y, _at(path, step), found)
        elif _differ(x, y):
            found.append(f"{_at(path, step)}: numpy {x!r}, twin {y!r}")


def _at(path, step):
    """The path of an entry: ``step`` is a dict's ".key" or a list's index."""
    return f"{path}{step}" if isinstance(step, str) else f"{path}[{step}]"


def _padded(items, length):
    """The list's items, then _ABSENT up to ``length``."""
    return [*items, *[_ABSENT] * (length - len(items))]


_ABSENT = object()  # an entry one of the two traces does not have


def underflows(head):
    """Whether a visible key's stable exponential is exactly 0 (a score far below the row's top)."""
    exps = np.array(head["exps"])
    visible = np.array([[x is not None for x in row] for row in head["scaled"]])
    return bool(np.any((exps == 0.0) & visible))


LESSON_CASES = {f"lesson:{path.parent.name}": path.parent.name for path in LESSON_FIXTURES}
# `make test-fast` compares the first drawn fixtures, the edge cases and the lessons.
SWEEP = Sweep(
    [*CASES, *LESSON_CASES],
    sample=[*list(CASES)[:4], *(name for name in CASES if not name.startswith("random-")), *LESSON_CASES],
)


def load_case(folder, name):
    """The loaded fixture of a drawn case or a lesson.

    Drawn cases are checked as the build checks a fixture.yaml holding the same data (a copy:
    checking may not change CASES); reading YAML would only cost time here.
    """
    if name in LESSON_CASES:
        return computed.lesson(LESSON_CASES[name]).fixture
    return fixture.validate(folder / name / "fixture.yaml", copy.deepcopy(CASES[name]))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """part -> name -> (fixture's JSON form, numpy's Trace, the twin's {trace, overflowed, average});
    node runs once for each part."""

    def compute(names):
        folder = tmp_path_factory.mktemp("golden")
        loaded = {name: load_case(folder, name) for name in names}
        plains = {name: fx.to_plain() for name, fx in loaded.items()}
        twins = run_node("run_trace.mjs", list(plains.values()))
        return {name: (plains[name], loaded[name].run(), twin) for name, twin in zip(plains, twins, strict=True)}

    return SWEEP.results(compute)


@pytest.fixture(scope="module")
def golden(runs):
    """part -> name -> (fixture's JSON form, numpy's trace, the twin's trace), both traces in their JSON form."""

    def compute(names):
        return {
            name: (plain, for_place(to_dict(trace), "browser"), twin["trace"])
            for name in names
            for plain, trace, twin in [runs.case(name)]
        }

    return SWEEP.results(compute)


PARTS = Sweep.part_params()


# ---------------------------------------------------------------- the golden vectors


class TestGoldenVectors:
    @pytest.mark.parametrize("name", SWEEP.params(CASES))
    def test_twin_matches_numpy(self, golden, name):
        _, numpy_trace, twin_trace = golden.case(name)
        assert differences(numpy_trace, twin_trace) == []

    @pytest.mark.parametrize("part", PARTS)
    def test_json_form_is_the_fixture_as_written(self, golden, part):
        # Every generated fixture writes its defaults out, so the JSON form must give it back.
        for name, (plain, _, _) in golden[part].items():
            if name in CASES:
                assert plain == CASES[name], name

    @pytest.mark.parametrize("part", PARTS)
    def test_json_form_survives_json(self, golden, part):
        for plain, _, _ in golden[part].values():
            assert json.loads(json.dumps(plain, allow_nan=False)) == plain

    def test_cases_cover_what_they_claim(self):
        kinds = {
            "self": [d for d in CASES.values() if "X" in d],
            "direct": [d for d in CASES.values() if "Q" in d],
            "causal": [d for d in CASES.values() if d["causal"]],
            "W_O": [d for d in CASES.values() if "W_O" in d],
            "n_q != n_k": [d for d in CASES.values() if "Q" in d and len(d["Q"]) != len(d["K"])],
            "several heads": [d for d in CASES.values() if len(d.get("heads", ())) > 1 or d.get("n_heads", 1) > 1],
            "heads of unequal widths": [
                d for d in CASES.values() if len({len(h["W_V"][0]) for h in d.get("heads", ()) if "W_V" in h}) > 1
            ],
        }
        assert len(CASES) >= 200
        assert {kind: len(found) >= 20 for kind, found in kinds.items()} == {kind: True for kind in kinds}

    def test_edge_cases_reach_the_edges(self, golden):
        """The sample's drawn cases (the edge cases and the first drawn ones) reach every edge on their own."""
        heads = [head for name, (_, trace, _) in golden["sample"].items() if name in CASES for head in trace["heads"]]
        overflowed = [h for h in heads if any(x is None for row in h["plain_exps"] for x in row)]
        underflowed = [h for h in heads if underflows(h)]
        huge = [h for h in heads if max(abs(x) for row in h["scores"] for x in row) >= 1e6]
        tied = [h for h in heads if any(len(row) > 1 and len(set(row)) == 1 for row in h["scores"])]
        one_by_one = [h for h in heads if len(h["scores"]) == 1 and len(h["scores"][0]) == 1]
        assert all([overflowed, underflowed, huge, tied, one_by_one])


def declared_layer_order(found):
    """The layer fields the twin computes, in declared order: every required one (a stack has no
    heads, concatenation or W_O of its own) and the optional ones the trace's steps made."""
    stack = "layers" in found
    names = [] if stack else ["heads"]
    return names + [
        f.name
        for f in LAYER_FIELDS
        if f.handled_by("browser") and (f.name in found or not f.optional) and not (stack and f.name in SINGLE_LAYER)
    ]


class TestContract:
    """The fields are declared once (macros/engine/trace.py); both engines follow the declaration."""

    def test_the_checked_in_contract_is_the_generated_one(self):
        assert twin_contract.PATH.read_text(encoding="utf-8") == twin_contract.text(), "run `make contract`"

    @pytest.mark.parametrize("part", PARTS)
    def test_both_traces_have_the_declared_fields_in_order(self, golden, part):
        """Every required field the twin computes, in order, with an optional one only where
        its step made it: in both traces, the same."""
        browser = [f for f in HEAD_FIELDS if f.handled_by("browser")]
        for name, (_, numpy_trace, twin_trace) in golden[part].items():
            assert list(numpy_trace) == declared_layer_order(numpy_trace), name
            assert list(twin_trace) == list(numpy_trace), name
            for found in (numpy_trace, twin_trace, *numpy_trace.get("layers", []), *twin_trace.get("layers", [])):
                for head in found.get("heads", []):
                    assert [n for n in head if n not in OPTIONAL] == [f.name for f in browser if not f.optional], name
            assert [list(h) for h in numpy_trace.get("heads", [])] == [list(h) for h in twin_trace.get("heads", [])]

    def test_the_optional_fields_the_twin_computes_are_in_the_golden_cases(self, golden):
        """A step the twin computes is compared on at least one case that has it."""
        seen = {n for _, trace, _ in golden["sample"].values() for head in trace.get("heads", []) for n in head}
        assert {f.name for f in HEAD_FIELDS if f.optional and f.handled_by("browser")} <= seen

    def test_the_documented_keys_are_all_there(self):
        # DESIGN.md's trace-command contract; the declaration may add fields, never drop these.
        assert {"Q", "K", "V", "scores", "scaled", "weights", "output"} <= {f.name for f in HEAD_FIELDS}
        assert {"concat", "output"} <= {f.name for f in LAYER_FIELDS}

    def test_every_field_of_the_record_is_declared(self):
        """HeadTrace and Trace hold nothing unpublished but a private record of how the head was
        computed (``_scoring``, no value a page shows): a new step cannot be left out of the JSON form."""
        public = [f.name for f in dataclasses.fields(HeadTrace) if not f.name.startswith("_")]
        assert public == [f.name for f in HEAD_FIELDS]
        assert [f.name for f in dataclasses.fields(Trace)] == ["heads", *(f.name for f in LAYER_FIELDS)]

    @pytest.mark.parametrize("part", PARTS)
    def test_shifted_is_published_with_masked_entries_null(self, golden, part):
        # seed lesson, head 1 is causal: query 2 sees keys 1 and 2, scores (0, 1), scaled (0, 1/√2);
        # the shift is the largest, 1/√2, so the shifted scores are (−1/√2, 0) and key 3 is masked.
        for trace in golden.case(f"lesson:{SEED_LESSON.parent.name}")[1:]:
            assert trace["heads"][0]["shifted"][1] == pytest.approx([-(2**-0.5), 0.0, None])
            assert trace["heads"][0]["visible"][1] == [True, True, False]
        for name, (_, numpy_trace, _) in golden[part].items():
            for head in [h for layer in (numpy_trace, *numpy_trace.get("layers", [])) for h in layer.get("heads", [])]:
                nulls = [[x is None for x in row] for row in head["shifted"]]
                assert nulls == [[not seen for seen in row] for row in head["visible"]], name


# Fixtures whose numbers pass the checks but whose trace overflows float64, and the field the
# build names when it refuses each (the first non-finite field, heads in order, then the layer).
OVERFLOWS = {
    "Q": (one_head([[1e200]], [[1e200]], [[1.0]], [[1.0]]), "heads[0].Q"),
    "K": (one_head([[1e200]], [[1.0]], [[1e200]], [[1.0]]), "heads[0].K"),
    "V": (one_head([[1e200]], [[1.0]], [[1.0]], [[1e200]]), "heads[0].V"),
    "scores": (direct([[1e200]], [[1e200]], [[1.0]]), "heads[0].scores"),
    "scores inf - inf": (direct([[1e200, 1e200]], [[1e200, -1e200]], [[1.0]]), "heads[0].scores"),
    # the overflowing score is at a masked key: still refused, as the build refuses it
    "scores at a masked key": (
        direct([[1e200], [1.0]], [[1.0], [1e200]], [[1.0], [2.0]], causal=True),
        "heads[0].scores",
    ),
    "the second head": (
        {
            "X": [[1.0, 1e200]],
            "heads": [
                {"W_Q": [[1.0], [0.0]], "W_K": [[1.0], [0.0]], "W_V": [[1.0], [0.0]]},
                {"W_Q": [[0.0], [1e200]], "W_K": [[1.0], [0.0]], "W_V": [[1.0], [0.0]]},
            ],
        },
        "heads[1].Q",
    ),
    # finite entries whose product overflows: 1e308 + 1e308 (the lab's own example)
    "output": (direct([[1.0]], [[1.0]], [[1.0, 1.0]], W_O=[[1e308], [1e308]]), "output"),
}


@pytest.fixture(scope="module")
def overflow_runs(tmp_path_factory):
    """name -> (numpy's Trace, the twin's result) for the fixtures of OVERFLOWS."""
    folder = tmp_path_factory.mktemp("overflows")
    loaded = {
        name: fixture.load(write_yaml(data, folder / f"case{i}"))
        for i, (name, (data, _)) in enumerate(OVERFLOWS.items())
    }
    with np.errstate(over="ignore", invalid="ignore"):
        traces = {name: fx.run() for name, fx in loaded.items()}
    twins = run_node("run_trace.mjs", [fx.to_plain() for fx in loaded.values()])
    return {name: (traces[name], twin, loaded[name]) for name, twin in zip(loaded, twins, strict=True)}


class TestOverflowGuard:
    """engine.js overflowed() refuses what macros.lessons refuses, naming the same field."""

    @pytest.mark.parametrize("name", list(OVERFLOWS))
    def test_the_same_field_is_named(self, overflow_runs, name):
        trace, twin, _ = overflow_runs[name]
        expected = OVERFLOWS[name][1]
        assert (computation.overflowed(trace), twin["overflowed"]) == (expected, expected)

    @pytest.mark.parametrize("name", list(OVERFLOWS))
    def test_the_build_refuses_the_fixture(self, overflow_runs, name):
        _, _, loaded = overflow_runs[name]
        with pytest.raises(FixtureError) as caught:
            computation.compute(loaded)
        assert str(caught.value).endswith(
            f"expected numbers small enough for attention to stay finite, got an overflow in {OVERFLOWS[name][1]}"
        )

    @pytest.mark.parametrize("part", PARTS)
    def test_finite_traces_pass_on_both_sides(self, runs, part):
        # Every drawn case and lesson is finite, overflowing plain exponentials and masked keys included.
        found = runs[part]
        refused = {
            name: (computation.overflowed(trace), twin["overflowed"]) for name, (_, trace, twin) in found.items()
        }
        assert {name: pair for name, pair in refused.items() if pair != (None, None)} == {}
        if part == "sample":  # the edge cases overflow the plain exponentials
            assert any(
                None in row
                for _, _, twin in found.values()
                for h in twin["trace"].get("heads", [])
                for row in h["plain_exps"]
            )


class TestHeadAverage:
    """engine.js headAverage() against macros.engine.variants.head_average."""

    @pytest.mark.parametrize("part", PARTS)
    def test_every_case_gives_numpy_average(self, runs, part):
        found = {
            name: differences({"average": variants.head_average(trace).tolist()}, {"average": twin["average"]})
            for name, (_, trace, twin) in runs[part].items()
            if trace.heads  # a stack has no heads of its own to average
        }
        assert {name: lines for name, lines in found.items() if lines} == {}

    def test_the_seed_lesson_by_hand(self, runs):
        # seed lesson, query 1 (causal) sees only key 1 in both heads: weight 1 in each, so 1 on average;
        # one head's average is that head's own map.
        _, _, twin = runs.case(f"lesson:{SEED_LESSON.parent.name}")
        assert twin["average"][0] == [1.0, 0.0, 0.0]
        one_head_case = next(name for name, data in CASES.items() if len(data.get("heads", [])) == 1)
        assert runs.case(one_head_case)[2]["average"] == runs.case(one_head_case)[2]["trace"]["heads"][0]["weights"]

    def test_a_wrong_average_is_reported(self, runs):
        """Negative control: the comparison sees a head left out of the mean."""
        name = next(name for name, data in CASES.items() if len(data.get("heads", [])) > 2)
        _, trace, twin = runs.case(name)
        partial = np.mean([head.weights for head in trace.heads[:-1]], axis=0).tolist()
        assert differences({"average": partial}, {"average": twin["average"]}) != []


def where_to_look(plain):
    """What a failure of the twin on a lesson should say first: the lesson's steps (declared
    in macros/engine/trace.py), each of which the twin computes or is declared not to."""
    steps = [s.key for s in steps_present(plain)]
    return (
        f"The twin (docs/assets/js/engine.js) gives another trace for this lesson, whose steps are {steps}. "
        "A step the twin does not compute yet: compute it in engine.js (attend or run), or declare "
        'browser="why" in its step(...) in macros/engine/trace.py, and labs refuse the lesson.'
    )


class TestLessonFixtures:
    def test_the_seed_lesson_gives_the_same_trace(self, golden):
        assert SEED_LESSON in LESSON_FIXTURES
        _, numpy_trace, twin_trace = golden.case(f"lesson:{SEED_LESSON.parent.name}")
        assert differences(numpy_trace, twin_trace) == []
        # seed 000 publishes the last query's reading in head 2 as (-0.546, 0.926)
        assert twin_trace["heads"][1]["output"][2] == pytest.approx([-0.546, 0.926], abs=5e-4)

    def test_a_lesson_scored_additively_is_left_to_numpy(self):
        # The twin scores by dot products only; such a lesson has no lab, so nothing in the browser recomputes it.
        assert not_in_browser(fixture.load(ROOT / "lessons" / "why-attention" / "fixture.yaml"))
        assert not not_in_browser(fixture.load(SEED_LESSON))

    @pytest.mark.parametrize("path", LESSON_FIXTURES, ids=lambda path: path.parent.name)
    def test_every_lesson_gives_the_same_trace(self, golden, path):
        plain, numpy_trace, twin_trace = golden.case(f"lesson:{path.parent.name}")
        found = differences(numpy_trace, twin_trace)
        assert found == [], where_to_look(plain) + "\n" + "\n".join(found[:10])


class TestComparison:
    """Negative controls: the comparison must be able to fail."""

    @pytest.fixture
    def pair(self, golden):
        _, numpy_trace, twin_trace = golden.case("random-self-000")
        return json.loads(json.dumps(numpy_trace)), twin_trace

    def test_a_perturbed_number_is_reported(self, pair):
        numpy_trace, twin_trace = pair
        numpy_trace["heads"][0]["weights"][0][0] += 1e-6
        assert differences(numpy_trace, twin_trace) == [
            f"trace.heads[0].weights[0][0]: numpy {numpy_trace['heads'][0]['weights'][0][0]!r}, "
            f"twin {twin_trace['heads'][0]['weights'][0][0]!r}"
        ]

    def test_a_null_in_one_trace_only_is_reported(self, pair):
        numpy_trace, twin_trace = pair
        numpy_trace["output"][0][0] = None
        assert len(differences(numpy_trace, twin_trace)) == 1

    def test_a_missing_row_or_field_is_reported(self, pair):
        numpy_trace, twin_trace = pair
        numpy_trace["concat"].append([0.0])
        del numpy_trace["heads"][0]["shift"]
        found = differences(numpy_trace, twin_trace)
        assert any("concat" in line and "twin" in line for line in found)
        assert any(".shift" in line and "numpy" in line for line in found)

    def test_a_difference_inside_the_tolerance_is_not(self, pair):
        numpy_trace, twin_trace = pair
        numpy_trace["heads"][0]["scale"] *= 1 + 1e-12
        assert differences(numpy_trace, twin_trace) == []
