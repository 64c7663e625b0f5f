"""Seeded practice variants (macros/practice): the PRNG, the generator, its twin in the browser.

Sources of expected values: FNV-1a's published test vectors (Fowler, Noll, Vo); mix32
against an independent numpy uint32 implementation written here; the lessons' own
fixtures; numpy's trace (macros.engine) read at the graded path with macros.render.lesson_widgets.resolve.
The browser modules run in the session's node process (tests/js/run_practice.mjs, tests/nodejs.py).
"""

import functools

import numpy as np
import pytest

from macros.engine.trace import LAYER_FIELDS, JsonView, Trace, to_dict
from macros.errors import FixtureError
from macros.practice import build as practice_build
from macros.practice import check, generator, prng
from macros.render.lesson_widgets import resolve
from macros.sources.fixture import validate
from tests import computed
from tests.nodejs import run_node
from tests.test_js_twin import ROOT

TWO_HEADS = ROOT / "lessons" / "tracing-two-heads" / "fixture.yaml"  # 3 tokens, 2 heads, W_O
CAUSAL = ROOT / "lessons" / "two-heads-separate-projections" / "fixture.yaml"  # causal, 2 heads
DIRECT = ROOT / "lessons" / "attention-by-hand" / "fixture.yaml"  # Q, K, V given directly

PRACTICE = {
    TWO_HEADS: {
        "draw": {"X": {"ints": [-2, 2]}, "heads[*].W_Q": {"tenths": [-1, 1]}, "heads[1].W_K": {"one_of": [0, 1]}},
        "require": ["no_tied_top_weight", {"scores_within": 8}, "no_fully_masked_row"],
        "answer": ["heads.1.weights.2.0", "output.0.3"],
        "tolerance": 0.01,
    },
    CAUSAL: {
        "seed": 7,
        "draw": {"X": {"tenths": [-1.5, 1.5]}},
        "require": [{"no_tied_top_weight": 0.01}, {"scores_within": 3}],
        "answer": "heads.0.weights.2.1",
    },
    DIRECT: {
        "draw": {"Q": {"ints": [-3, 3]}, "K": {"ints": [-2, 2]}, "V": {"tenths": [-2, 2]}},
        "require": ["no_tied_top_weight"],
        "answer": "output.0.1",
    },
}


@functools.cache
def spec_of(path):
    return check.spec_for(path, PRACTICE[path])


@functools.cache
def variant_of(path, n):
    """Variant ``n`` of the lesson at ``path`` under its PRACTICE block, (fixture, trace), drawn
    once for the tests that check what it holds; the tests of drawing itself draw afresh."""
    spec, base = spec_of(path)
    return generator.variant(spec, base, n, path)


def numpy_trace(fixture):
    return validate("variant.yaml", fixture).run()


def mix32_numpy(z):
    """fmix32 written independently with numpy's wrapping uint32 arithmetic."""
    z = np.uint32(z)
    with np.errstate(over="ignore"):
        z ^= z >> np.uint32(16)
        z *= np.uint32(0x85EBCA6B)
        z ^= z >> np.uint32(13)
        z *= np.uint32(0xC2B2AE35)
        z ^= z >> np.uint32(16)
    return int(z)


# ---------------------------------------------------------------- the PRNG


class TestPrng:
    def test_fnv1a_published_vectors(self):
        assert prng.fnv1a("") == 0x811C9DC5
        assert prng.fnv1a("a") == 0xE40C292C
        assert prng.fnv1a("foobar") == 0xBF9CF968

    @pytest.mark.parametrize("z", [0, 1, 2, 0x9E3779B9, 0xFFFFFFFF, 123456789])
    def test_mix32_matches_uint32_arithmetic(self, z):
        assert prng.mix32(z) == mix32_numpy(z)

    def test_stream_is_a_weyl_sequence_through_mix32(self):
        stream = prng.Stream(5, 3)
        start = mix32_numpy(mix32_numpy(5) ^ (3 * 0x9E3779B9 % 2**32))
        expected = [mix32_numpy((start + k * 0x9E3779B9) % 2**32) for k in (1, 2, 3)]
        assert [stream.next_u32() for _ in range(3)] == expected

    def test_seed_and_variant_both_matter(self):
        first = [prng.Stream(5, 3).next_u32(), prng.Stream(3, 5).next_u32(), prng.Stream(5, 4).next_u32()]
        assert len(set(first)) == 3

    def test_rejection_discards_the_biased_top(self, monkeypatch):
        stream = prng.Stream(0, 1)
        limit = 2**32 - 2**32 % 3  # 2^32 mod 3 = 1, so the single value 2^32 - 1 is rejected
        outputs = iter([limit, 5])
        monkeypatch.setattr(stream, "next_u32", lambda: next(outputs))
        assert stream.integer(-1, 1) == -1 + 5 % 3

    def test_integers_cover_the_range_evenly(self):
        stream = prng.Stream(1, 1)
        counts = np.bincount([stream.integer(-2, 2) + 2 for _ in range(20000)], minlength=5)
        assert counts.min() > 3700 and counts.max() < 4300  # 4000 each; 5 sigma is about 280

    def test_tenths_are_whole_tenths_in_range(self):
        stream = prng.Stream(1, 2)
        values = {stream.tenths(-10, 10) for _ in range(2000)}
        assert values == {k / 10 for k in range(-10, 11)}

    @pytest.mark.parametrize("seed, variant", [(-1, 1), (2**32, 1), (1, 2**32), (1.0, 1), (True, 1)])
    def test_words_out_of_range_are_refused(self, seed, variant):
        with pytest.raises(ValueError, match=r"must be a whole number in \[0, 2\^32\)"):
            prng.Stream(seed, variant)


# ---------------------------------------------------------------- drawing variants


class TestVariants:
    @pytest.mark.parametrize("path", list(PRACTICE), ids=lambda p: p.parent.name)
    def test_variant_zero_is_the_lessons_own(self, path):
        spec, base = spec_of(path)
        fixture, trace = generator.variant(spec, base, 0, path)
        assert fixture == check.lesson_base(path)

    def test_same_variant_same_numbers_and_variants_differ(self):
        spec, base = spec_of(TWO_HEADS)
        drawn = [generator.variant(spec, base, n, TWO_HEADS)[0] for n in (1, 2, 1)]
        assert drawn[0] == drawn[2] and drawn[0]["X"] != drawn[1]["X"]

    def test_undrawn_fields_are_the_lessons_own(self):
        spec, base = spec_of(TWO_HEADS)
        fixture, _ = generator.variant(spec, base, 4, TWO_HEADS)
        for i, head in enumerate(fixture["heads"]):
            assert head["W_V"] == base["heads"][i]["W_V"]
        assert fixture["heads"][0]["W_K"] == base["heads"][0]["W_K"] and fixture["W_O"] == base["W_O"]
        assert fixture["tokens"] == base["tokens"]
        assert base == check.lesson_base(TWO_HEADS)  # drawing leaves the lesson's own numbers alone

    def test_drawn_values_come_from_their_ranges(self):
        for n in range(1, 21):
            fixture, _ = variant_of(TWO_HEADS, n)
            assert set(np.ravel(fixture["X"])) <= {-2.0, -1.0, 0.0, 1.0, 2.0}
            for head in fixture["heads"]:
                assert set(np.ravel(head["W_Q"])) <= {k / 10 for k in range(-10, 11)}
            assert set(np.ravel(fixture["heads"][1]["W_K"])) <= {0.0, 1.0}

    @pytest.mark.parametrize("path", list(PRACTICE), ids=lambda p: p.parent.name)
    def test_constraints_hold_by_numpy(self, path):
        """Checked on numpy's arrays directly, not through the generator's own checks."""
        spec, _ = spec_of(path)
        margin = dict(spec.require)["no_tied_top_weight"]
        bound = dict(spec.require).get("scores_within", np.inf)
        for n in range(1, 31):
            fixture, _ = variant_of(path, n)
            for head in numpy_trace(fixture).heads:
                top_two = np.sort(head.weights, axis=1)[:, -2:]
                assert np.all(top_two[:, 1] - top_two[:, 0] > margin), (n, head.weights)
                assert np.all(np.abs(head.scores) <= bound), (n, head.scores)
                assert np.all(head.visible.any(axis=1))

    @pytest.mark.parametrize("path", list(PRACTICE), ids=lambda p: p.parent.name)
    def test_answers_are_numpys_trace_at_the_path(self, path):
        spec, _ = spec_of(path)
        results = check.check_variants(path, PRACTICE[path], count=20)
        assert sorted(results) == list(range(21))
        for n, answers in results.items():
            fixture, _ = variant_of(path, n)
            trace = numpy_trace(fixture)
            assert answers == [float(resolve(trace, p)) for p in spec.answers]

    def test_a_failed_draw_is_followed_by_the_streams_next_numbers(self):
        """scores_within: 3 on X in ±1.5 often fails: such a variant is the first passing draw of its stream."""
        spec, base = spec_of(CAUSAL)
        redrawn = 0
        for n in range(1, 21):
            stream = prng.Stream(spec.seed, n)
            draws = [generator.draw_fixture(spec, base, stream)]
            while generator.first_failure(spec, generator.trace_of(draws[-1], CAUSAL)) is not None:
                draws.append(generator.draw_fixture(spec, base, stream))
            assert generator.variant(spec, base, n, CAUSAL)[0] == draws[-1]
            redrawn += len(draws) > 1
        assert redrawn >= 3

    @pytest.mark.parametrize("slug", computed.SLUGS)
    def test_the_field_by_field_view_reads_as_the_json_form(self, slug):
        """The check rejects draws through JsonView; the browser twin's contract is to_dict."""
        trace = computed.lesson(slug).trace
        if not isinstance(trace, Trace):
            pytest.skip("not a self-attention layer")
        whole, view = to_dict(trace), JsonView(trace, LAYER_FIELDS)
        layer = [name for name in whole if name != "heads"]
        assert [view[name] for name in layer] == [whole[name] for name in layer]
        for head, seen in zip(whole["heads"], view["heads"], strict=True):
            assert {name: seen[name] for name in head} == head
            assert "weights" in seen and "weigths" not in seen

    def test_the_default_seed_is_the_folder_names_hash(self):
        spec, _ = spec_of(TWO_HEADS)
        assert spec.seed == prng.fnv1a("tracing-two-heads")
        assert spec_of(CAUSAL)[0].seed == 7


# ---------------------------------------------------------------- the build's check and cache key


class TestBuildCheck:
    def test_two_lessons_with_one_fixture_keep_their_own_seeds(self, tmp_path):
        """The default seed is the folder name's hash: a lesson copied under another name
        draws other variants."""
        seeds = []
        for name in ("tracing-two-heads", "tracing-two-heads-again"):
            copy = tmp_path / name / "fixture.yaml"
            copy.parent.mkdir()
            copy.write_text(TWO_HEADS.read_text(encoding="utf-8"), encoding="utf-8")  # its block sets no seed
            seeds.append(practice_build.load(copy).spec["seed"])
        assert seeds == [prng.fnv1a("tracing-two-heads"), prng.fnv1a("tracing-two-heads-again")]

    def test_a_practice_block_in_the_fixture_is_set_aside(self, tmp_path):
        folder = tmp_path / "tracing-two-heads"
        folder.mkdir()
        text = TWO_HEADS.read_text(encoding="utf-8")
        text = text[: text.index("practice:")]  # the lesson's own block, replaced by another
        (folder / "fixture.yaml").write_text(text + "practice: {draw: {X: {ints: [0, 1]}}}\n", encoding="utf-8")
        assert check.lesson_base(folder / "fixture.yaml") == check.lesson_base(TWO_HEADS)


# ---------------------------------------------------------------- refusing bad blocks

GOOD = {"draw": {"X": {"ints": [-2, 2]}}, "answer": "heads.0.weights.2.0"}
FIELDS = "X, W_O, heads[0].W_Q, heads[0].W_K, heads[0].W_V, heads[1].W_Q, heads[1].W_K, heads[1].W_V"
ANSWER = "a trace path to one number, such as heads.0.weights.2.0"
BAD = {
    "unknown field": (
        {**GOOD, "requires": []},
        "practice.requires: expected one of the fields answer, draw, require, seed, tolerance, "
        "got an unknown field (did you mean require?)",
    ),
    "not a mapping": ([1], "practice: expected a mapping with draw, require and answer, got a list of 1"),
    "answer missing": ({"draw": GOOD["draw"]}, "practice.answer: expected this field, got nothing: it is missing"),
    "unknown drawn field": (
        {**GOOD, "draw": {"Y": {"ints": [0, 1]}}},
        f"practice.draw.Y: expected a matrix field of this fixture: {FIELDS}, got an unknown field",
    ),
    "head out of range": (
        {**GOOD, "draw": {"heads[2].W_Q": {"ints": [0, 1]}}},
        f"practice.draw.heads[2].W_Q: expected a matrix field of this fixture: {FIELDS}, got an unknown field",
    ),
    "drawn twice": (
        {**GOOD, "draw": {"heads[*].W_Q": {"ints": [0, 1]}, "heads[0].W_Q": {"ints": [0, 1]}}},
        "practice.draw.heads[0].W_Q: expected each field drawn once, got heads[0].W_Q drawn again",
    ),
    "two kinds": (
        {**GOOD, "draw": {"X": {"ints": [0, 1], "tenths": [0, 1]}}},
        "practice.draw.X: expected exactly one of ints, tenths or one_of, got ints, tenths",
    ),
    "no kind": (
        {**GOOD, "draw": {"X": {}}},
        "practice.draw.X: expected exactly one of ints, tenths or one_of, got none of them",
    ),
    "misspelt shape": (
        {**GOOD, "draw": {"X": {"ints": [0, 1], "shap": [3, 4]}}},
        "practice.draw.X.shap: expected one of the fields ints, one_of, shape, tenths, "
        "got an unknown field (did you mean shape?)",
    ),
    "reversed range": (
        {**GOOD, "draw": {"X": {"ints": [2, -2]}}},
        "practice.draw.X.ints: expected [lo, hi] with lo no larger than hi, got [2, -2]",
    ),
    "fractional ints": (
        {**GOOD, "draw": {"X": {"ints": [0, 1.5]}}},
        "practice.draw.X.ints: expected a whole number from -1000 to 1000, got 1.5",
    ),
    "two decimals": (
        {**GOOD, "draw": {"X": {"tenths": [0, 0.25]}}},
        "practice.draw.X.tenths: expected numbers with at most one decimal, within ±1000, got 0.25",
    ),
    "empty one_of": (
        {**GOOD, "draw": {"X": {"one_of": []}}},
        "practice.draw.X.one_of: expected a list of 1 to 1000 numbers, got an empty list",
    ),
    "shape that does not fit": (
        {**GOOD, "draw": {"X": {"ints": [0, 1], "shape": [4, 4]}}},
        "practice.draw: expected drawn fields that fit the rest of the fixture, "
        "got variant 1 with tokens: expected 4 labels, one per row of X, got 3",
    ),
    "unknown constraint": (
        {**GOOD, "require": ["no_tied_top_weights"]},
        "practice.require[0]: expected one of the constraints no_tied_top_weight, scores_within, "
        "no_fully_masked_row, got 'no_tied_top_weights' (did you mean no_tied_top_weight?)",
    ),
    "constraint without its value": (
        {**GOOD, "require": ["scores_within"]},
        "practice.require[0]: expected scores_within: a number, got no number",
    ),
    "constraint with a value it does not take": (
        {**GOOD, "require": [{"no_fully_masked_row": 3}]},
        "practice.require[0]: expected no_fully_masked_row alone, without a value, got 3",
    ),
    "negative bound": (
        {**GOOD, "require": [{"scores_within": -1}]},
        "practice.require[0].scores_within: expected a number of at least 0, got -1",
    ),
    "answer is a row": (
        {**GOOD, "answer": "heads.0.weights.2"},
        f"practice.answer: expected {ANSWER}, got 'heads.0.weights.2', which is a list of 3",
    ),
    "answer names nothing": (
        {**GOOD, "answer": "heads.2.weights.2.0"},
        f"practice.answer: expected {ANSWER}, got 'heads.2.weights.2.0', which names nothing in the trace",
    ),
    "one bad answer of two": (
        {**GOOD, "answer": ["output.0.0", "output.9.0"]},
        f"practice.answer[1]: expected {ANSWER}, got 'output.9.0', which names nothing in the trace",
    ),
    "zero tolerance": ({**GOOD, "tolerance": 0}, "practice.tolerance: expected a positive number, got 0"),
    "seed out of range": ({**GOOD, "seed": -3}, "practice.seed: expected a whole number from 0 to 4294967295, got -3"),
}


class TestRefused:
    @pytest.mark.parametrize("name", list(BAD))
    def test_whole_message(self, name):
        practice, message = BAD[name]
        with pytest.raises(generator.PracticeError) as caught:
            check.check_variants(TWO_HEADS, practice, count=2)
        assert str(caught.value) == f"lessons/tracing-two-heads/fixture.yaml: {message}"

    def test_an_answer_a_drawn_shape_removes_is_refused(self):
        """heads.1.output.0.1 exists in the lesson (d_v = 2) but not once W_V is drawn one column wide."""
        practice = {
            "draw": {"heads[1].W_V": {"ints": [-2, 2], "shape": [4, 1]}, "W_O": {"ints": [0, 1], "shape": [3, 4]}},
            "answer": "heads.1.output.0.1",
        }
        with pytest.raises(generator.PracticeError) as caught:
            check.check_variants(TWO_HEADS, practice, count=2)
        assert str(caught.value) == (
            "lessons/tracing-two-heads/fixture.yaml: practice.answer: expected heads.1.output.0.1 to name one number, "
            "got nothing in variant 1"
        )

    def test_the_good_block_is_accepted(self):
        assert len(check.check_variants(TWO_HEADS, GOOD, count=2)) == 3

    def test_a_practice_error_is_a_lesson_error(self):
        assert issubclass(generator.PracticeError, FixtureError)

    def test_unsatisfiable_constraints_name_the_worst(self):
        """X in [1, 2] makes head 1's scores at least 1, so no draw keeps them within ±0.5."""
        practice = {**GOOD, "draw": {"X": {"ints": [1, 2]}}, "require": ["no_fully_masked_row", {"scores_within": 0.5}]}
        with pytest.raises(generator.PracticeError) as caught:
            check.check_variants(TWO_HEADS, practice, count=2)
        assert str(caught.value) == (
            "lessons/tracing-two-heads/fixture.yaml: practice.require[1]: expected numbers satisfying "
            "scores_within: 0.5 within 200 draws (variant 1), got 200 of 200 draws failing it"
        )

    def test_a_constant_draw_cannot_break_a_tie(self):
        """X all ones gives every key the same score, so every row is a tie."""
        practice = {**GOOD, "draw": {"X": {"one_of": [1]}}, "require": ["no_tied_top_weight"]}
        with pytest.raises(generator.PracticeError) as caught:
            check.check_variants(TWO_HEADS, practice, count=1)
        assert str(caught.value) == (
            "lessons/tracing-two-heads/fixture.yaml: practice.require[0]: expected numbers satisfying "
            "no_tied_top_weight: 1e-06 within 200 draws (variant 1), got 200 of 200 draws failing it"
        )


# ---------------------------------------------------------------- the browser twin


RANGES = [(-2, 2), (-15, 15), (0, 2**32 - 1), (-1000, 1000)]  # ints, tenths, the widest, the largest allowed


def parity_payload(n_seeds, n_variants):
    rng = np.random.default_rng(20261129)  # numpy seed for the seeds themselves
    seeds = [0, 2**32 - 1, *(int(s) for s in rng.integers(0, 2**32, size=n_seeds - 2))]
    variants = [int(v) for v in rng.integers(0, 2**32, size=n_seeds)]
    cases = []
    for path in PRACTICE:
        spec, base = spec_of(path)
        cases += [(path, spec, base, n) for n in range(n_variants)]
    payload = {
        "streams": [[s, v, 8] for s, v in zip(seeds, variants, strict=True)],
        "draws": [[s, v, *RANGES[i % len(RANGES)], 8] for i, (s, v) in enumerate(zip(seeds, variants, strict=True))],
        "hashes": ["", "a", "tracing-two-heads", "ünïcödé-lesson"],
        "variants": [{"spec": generator.to_plain(spec), "base": base, "variant": n} for _, spec, base, n in cases],
    }
    return payload, seeds, variants, cases


def assert_parity(n_seeds, n_variants):
    payload, seeds, variants, cases = parity_payload(n_seeds, n_variants)
    twin = run_node("run_practice.mjs", payload)
    for (s, v, count), outputs in zip(payload["streams"], twin["streams"], strict=True):
        stream = prng.Stream(s, v)
        assert outputs == [stream.next_u32() for _ in range(count)], (s, v)
    for (s, v, lo, hi, count), drawn in zip(payload["draws"], twin["draws"], strict=True):
        stream = prng.Stream(s, v)
        assert drawn == [stream.integer(lo, hi) for _ in range(count)], (s, v, lo, hi)
    assert twin["hashes"] == [prng.fnv1a(text) for text in payload["hashes"]]
    for (path, spec, _, n), result in zip(cases, twin["variants"], strict=True):
        fixture, trace = variant_of(path, n)
        assert result.get("fixture") == fixture, (path.parent.name, n, result.get("error"))
        assert result["answers"] == pytest.approx(generator.answers(spec, trace), abs=1e-12, rel=1e-12)


class TestTwin:
    def test_parity_on_a_few_seeds_and_variants(self):
        assert_parity(n_seeds=50, n_variants=15)

    @pytest.mark.slow
    def test_parity_on_a_thousand_seeds_and_variants(self):
        """1,000 (seed, variant) streams, and 1,000 variants across the three lessons' generators."""
        assert_parity(n_seeds=1000, n_variants=334)

    def test_the_twin_words_an_impossible_generator_as_the_build(self):
        practice = {**GOOD, "draw": {"X": {"ints": [1, 2]}}, "require": [{"scores_within": 0.5}]}
        spec, base = check.spec_for(TWO_HEADS, practice)
        payload = {"variants": [{"spec": generator.to_plain(spec), "base": base, "variant": 3}]}
        (result,) = run_node("run_practice.mjs", payload)["variants"]
        assert result == {
            "error": "practice.require[0]: expected numbers satisfying scores_within: 0.5 within 200 draws "
            "(variant 3), got 200 of 200 draws failing it"
        }
