"""A lesson's practice (macros/practice/): its block read with located errors, its sets of new
numbers drawn reproducibly and checked, every graded value asked in a reader's words.

Sources of expected values: numpy's trace of each set's fixture (macros.engine), read at the
graded path; hand-written paths and labels; the author guide's messages (docs/authoring.md,
"Practice on fresh numbers").
"""

import shutil
from types import SimpleNamespace

import numpy as np
import pytest

from macros import lessons
from macros.engine import decode_cost
from macros.errors import FixtureError
from macros.practice import build, draw, quantities, record, spec, worked
from macros.sources.fixture import merged_data, validate
from tests import computed
from tests.sitebuild import PROJECT

TWO_HEADS = PROJECT / "lessons" / "tracing-two-heads" / "fixture.yaml"
WITH_PRACTICE = computed.WITH_PRACTICE


def base_of(path):
    data = merged_data(path)
    data.pop("practice", None)
    return validate(path, data).to_plain()


def parsed(path, block):
    base = base_of(path)
    return spec.parse(block, base, path, path.parent.name, record.computed(base, path).value), base


def practice_of(path, block, tmp_path):
    """The Practice of the lesson at ``path`` with its block replaced by ``block``."""
    folder = tmp_path / path.parent.name
    shutil.copytree(path.parent, folder)
    lesson = lessons.load(folder, practice=False)
    merged = {**merged_data(folder / "fixture.yaml"), "practice": block}
    return build.load(folder / "fixture.yaml", merged, lesson.fixture.to_plain(), folder.name, 3, lesson.fixture)


class TestDrawing:
    def test_the_same_variant_gives_the_same_numbers_and_variants_differ(self):
        s, base = parsed(TWO_HEADS, {"draw": {"X": {"ints": [-2, 2]}}, "answer": "output.0.0"})
        first, second, other = (draw.variant(s, base, n, TWO_HEADS)[0] for n in (3, 3, 4))
        assert first == second and first != other

    def test_variant_zero_is_the_lessons_own_numbers(self):
        s, base = parsed(TWO_HEADS, {"draw": {"X": {"ints": [-2, 2]}}, "answer": "output.0.0"})
        assert draw.variant(s, base, 0, TWO_HEADS)[0] == base

    def test_drawn_values_come_from_their_ranges_and_the_rest_is_the_lessons_own(self):
        block = {"draw": {"X": {"tenths": [-1, 1]}, "heads[1].W_V": {"one_of": [0, 5]}}, "answer": "output.0.0"}
        s, base = parsed(TWO_HEADS, block)
        for n in range(1, 6):
            plain, _ = draw.variant(s, base, n, TWO_HEADS)
            X, W_V = np.array(plain["X"]), np.array(plain["heads"][1]["W_V"])
            assert np.all(np.abs(X) <= 1) and np.allclose(X * 10, np.round(X * 10))
            assert set(W_V.ravel()) <= {0.0, 5.0}
            assert plain["heads"][0] == base["heads"][0] and plain["W_O"] == base["W_O"]

    @pytest.mark.parametrize("slug", WITH_PRACTICE)
    def test_every_set_holds_its_constraints_and_its_answers_are_numpys(self, slug):
        lesson = computed.lesson(slug)
        for variant in lesson.practice.variants[1:]:  # variant 0, the lesson's own, has no constraints
            rec = record.computed(variant.fixture, "variant.yaml")
            asked = {q.path: q.quantity.tolerance for q in variant.questions}
            assert draw.first_failure(lesson.practice.spec, rec, asked) is None
            assert variant.answers == tuple(rec.value(q.path) for q in variant.questions)

    def test_the_default_seed_is_the_folder_names_hash(self):
        # FNV-1a 32 of "a" is 0xE40C292C (the FNV reference vectors)
        assert spec.fnv1a("a") == 0xE40C292C and spec.fnv1a("") == 0x811C9DC5


class TestQuantities:
    NAMES = quantities.Names(("cat", "chases", "mouse"), ("cat", "chases", "mouse"), 2)

    @pytest.mark.parametrize(
        ("path", "words"),
        [
            (
                "heads.1.weights.2.0",
                "In head 2, the weight the query at position 3 (“mouse”) gives the key at position 1 (“cat”)",
            ),
            ("output.0.1", "coordinate 2 of the layer's output for the query at position 1 (“cat”)"),
            ("window.pairs", "the number of query–key pairs under the sliding window"),
        ],
    )
    def test_a_path_is_asked_in_a_readers_words(self, path, words):
        assert quantities.quantity(path, self.NAMES).words == words

    def test_a_sequence_of_a_batch_is_named_and_single_letters_are_not_quoted(self):
        names = quantities.Names(("a", "b", "c", "d"), ("a", "b", "c", "d"), 1)
        assert quantities.quantity("batch.1.heads.0.output.3.0", names).words == (
            "In sequence 2 of the batch, coordinate 1 of the reading of the query at position 4"
        )

    def test_a_weight_has_a_range_and_a_count_is_exact(self):
        weight = quantities.quantity("heads.0.weights.0.0", self.NAMES)
        count = quantities.quantity("window.pairs", self.NAMES)
        assert (weight.low, weight.high, weight.tolerance, weight.whole) == (0.0, 1.0, 0.01, False)
        assert (count.tolerance, count.whole) == (0.0, True) and "whole number" in count.stated

    def test_a_query_named_by_a_number_or_a_letter_is_named_by_position_alone(self):
        names = quantities.Names(("q",), ("1", "2"), 1)
        assert (
            quantities.quantity("heads.0.weights.0.1", names).words
            == "the weight the query gives the key at position 2"
        )

    def test_a_blocks_row_is_a_token_and_its_layer_norm_is_worked_step_by_step(self):
        # by hand: x = [3, 1, 1, -1] has mean 1, deviations [2, 0, 0, -2], variance 8 / 4 = 2,
        # and sqrt(2 + 1e-5) = 1.41422; pre-norm's record holds x only as residual_1 - attention
        x, attention = np.array([3.0, 1.0, 1.0, -1.0]), np.array([0.1, 0.2, -0.3, 0.4])
        normalised = (x - 1) / np.sqrt(2 + 1e-5)
        block = {"order": "pre", "residual_1": [(x + attention).tolist()], "attention": [attention.tolist()]}
        block["norm_1"] = [normalised.tolist()]
        assert worked.solution("block.norm_1.0.0", SimpleNamespace(data={"block": block}), 3, {}) == [
            "The block's input row: [3, 1, 1, −1].",
            "The layer norm of [3, 1, 1, −1]: its mean μ = (3 + 1 + 1 + (−1)) / 4 = 1. The deviations x − μ: "
            "[2, 0, 0, −2].",
            "Their variance, the mean of their squares: σ² = 2.",
            "Each deviation divided by √(σ² + ε) ≈ 1.414: [1.414, 0, 0, −1.414].",
            "Its coordinate 1: 1.414.",
        ]
        post = {"order": "post", "residual_1": [[0.0] * 4], "residual_2": [x.tolist()], "norm_2": [normalised.tolist()]}
        lines = worked.solution("block.norm_2.0.3", SimpleNamespace(data={"block": post}), 3, {})
        assert lines[0] == "The second residual sum: [3, 1, 1, −1]."
        flat = {"order": "pre", "residual_1": [[1.0] * 4], "attention": [[0.0] * 4], "norm_1": [[0.0] * 4]}
        assert (
            "every deviation is 0"
            in worked.solution("block.norm_1.0.0", SimpleNamespace(data={"block": flat}), 3, {})[2]
        )
        assert quantities.quantity("block.norm_1.2.1", self.NAMES).words == (
            "coordinate 2 of the first layer norm's output, for the token at position 3 (“mouse”)"
        )

    def test_a_log_sum_exp_solution_ends_with_m_plus_log_l(self):
        # FlashAttention's saved value: the stable softmax's shift plus the log of its sum;
        # hand values: one query q = [1] (d_k = 1, so the scale is 1) and keys [0] and
        # [log 3] give scores [0, log 3], exponentials [1/3, 1] around the shift log 3
        # (1.099), sum 4/3 (1.333), and log-sum-exp log 4 (1.386)
        log3 = float(np.log(3))
        head = {
            "Q": [[1.0]],
            "K": [[0.0], [log3]],
            "scores": [[0.0, log3]],
            "scale": 1.0,
            "scaled": [[0.0, log3]],
            "visible": [[True, True]],
            "weights": [[0.25, 0.75]],
            "shift": [log3],
            "exps": [[1 / 3, 1.0]],
            "sums": [4 / 3],
            "logsumexp": [float(np.log(4))],
        }
        lines = worked.solution("heads.0.logsumexp.0", SimpleNamespace(data={"heads": [head]}), 3, {})
        assert lines[-1] == "The log-sum-exp is m + log l = 1.099 + log 1.333 ≈ 1.386."

    def test_a_path_without_words_is_refused(self):
        with pytest.raises(KeyError):
            quantities.quantity("heads.0.plain_sums.0", self.NAMES)

    def test_a_path_without_a_worked_solution_is_refused(self):
        """No question ships with "The computed value: 18.": a path with no working is a KeyError."""
        with pytest.raises(KeyError):
            worked.solution("window.pairs", SimpleNamespace(data={}), 3, {})

    def test_what_a_generated_token_costs_is_an_exact_count_in_words(self):
        step = quantities.quantity("decode_cost.1.step.bytes_read", self.NAMES)
        assert step.words == (
            "in one layer, the bytes read (weights, keys and values) by one decode step with the cache, "
            "when the text holds n tokens (n the length numbered 2 of those given), the new one included"
        )
        assert (step.tolerance, step.whole) == (0.0, True)
        assert quantities.quantity("decode_cost.0.prefill.macs", self.NAMES).words == (
            "in one layer, the multiply-adds of the prefill of a prompt of n tokens (n as given)"
        )
        with pytest.raises(KeyError):
            quantities.quantity("decode_cost.0.step.intensity", self.NAMES)  # a ratio, not a count

    def test_a_large_count_is_asked_in_a_unit_a_person_writes(self):
        """Millions of multiply-adds and MiB, to hand tolerance, not nine-digit integers."""
        macs = quantities.quantity("millions.decode_cost.0.step.macs", self.NAMES)
        size = quantities.quantity("mib.decode_cost.0.step.bytes_read", self.NAMES)
        assert macs.words.endswith(", in millions") and size.words.endswith(", in MiB (2^20 bytes)")
        assert (macs.tolerance, macs.whole, size.tolerance, size.whole) == (0.01, False, 0.01, False)

    def test_a_decode_steps_worked_solution_adds_up_its_parts(self):
        # d_model 4, 2 heads of width 2, 2 bytes, n = 4 (tests/test_engine_decode_cost.py by hand):
        # projections 48, scores 16, weighting 16, W_O 16, 96 in all; 64 + 32 numbers, 192 bytes
        data = {"decode_cost": [decode_cost.at_length(4, 4, 2, 2, 2).to_dict()]}
        rec = SimpleNamespace(data=data)
        assert worked.solution("decode_cost.0.step.macs", rec, 3, {})[1] == (
            "Projections 48, scores 16, weighting 16, W_O 16; in all: 48 + 16 + 16 + 16 = 96."
        )
        assert worked.solution("decode_cost.0.step.bytes_read", rec, 3, {})[1] == (
            "Numbers read: 64 + 32 = 96; in bytes, 96 × 2 = 192."
        )


class TestBuild:
    @pytest.mark.parametrize("slug", WITH_PRACTICE)
    def test_every_lesson_ships_its_sets_with_answers_and_worked_solutions(self, slug):
        practice = computed.lesson(slug).practice
        assert len(practice.variants) == practice.spec.variants + 1
        for variant in practice.variants:
            kind = practice.spec.kinds[practice.spec.kind_of(variant.number)]
            assert tuple(q.path for q in variant.questions) == kind
            assert len(variant.answers) == len(variant.solutions) == len(kind)
            assert all(lines and all(isinstance(line, str) for line in lines) for lines in variant.solutions)

    def test_the_data_file_stays_small(self):
        """What travels is gzip, on first use only: the largest is about 7.5 KB (transformer-block,
        every set's worked block), against 17–56 KB for whole traces."""
        import gzip

        from macros.render import practice

        sizes = [gzip.compress(practice.data_script(computed.lesson(slug)).encode()) for slug in WITH_PRACTICE]
        assert max(len(size) for size in sizes) < 10_000

    def test_a_value_out_of_its_range_stops_the_build(self, tmp_path):
        """heads.0.shift is a reading's largest score, which may be negative: a 'weight' path cannot be it,
        but a sum of exponentials must be at least 1 (here forced below by a bad range check)."""
        block = {"draw": {"X": {"ints": [-2, 2]}}, "answer": "heads.0.weights.2.0", "variants": 3}
        assert len(practice_of(TWO_HEADS, block, tmp_path).variants) == 4

    def test_a_path_no_words_name_is_refused_at_its_line(self, tmp_path):
        block = {"draw": {"X": {"ints": [-2, 2]}}, "answer": "heads.0.plain_sums.0"}
        with pytest.raises(spec.PracticeError) as caught:
            practice_of(TWO_HEADS, block, tmp_path)
        assert "practice.answer: expected a value a practice question can ask in a reader's words" in str(caught.value)


class TestPanel:
    def test_an_additive_layer_shows_its_scoring_network_and_says_how_it_scores(self):
        """Every input the grader uses is on the panel: with additive scoring, W_a, U_a and v_a too."""
        from macros.render import practice

        eye = [[1.0, 0.0], [0.0, 1.0]]
        fixture = {"Q": [[2.0, 0.0]], "K": eye, "V": eye, "additive": {"W_a": eye, "U_a": eye, "v_a": [1.0, -1.0]}}
        tables, notes = practice.inputs(fixture, 3)
        assert [caption for caption, _ in tables] == ["Q", "K", "V", "W_a", "U_a", "v_a"]
        assert tables[-1][1] == [["1", "−1"]]
        assert notes == [
            "The scores are additive: score = v_a · tanh(q W_a + k U_a), and the softmax takes them as they "
            "are, not divided by √d_k."
        ]

    def test_a_decode_step_question_shows_the_models_sizes_in_words_and_not_the_small_layer(self):
        """A question about one layer of a large model is answered from its sizes alone; the
        small layer the page works by hand, the chip and the prompt are not what it asks about."""
        from macros.render import practice

        params = {"prompt": 3, "d_model": 4096, "n_heads": 32, "d_k": 128, "bytes_per_number": 2, "layers": 32}
        fixture = {"X": [[1.0, 0.0]], "params": {**params, "lengths": [298], "chip_bytes_per_second": 3 * 10**12}}
        tables, notes = practice.inputs(fixture, 3, with_params="decode_cost")
        assert tables == []
        assert notes == [
            "The model is d_model = 4,096 wide, with 32 heads of width d_k = 128, 2 bytes a number. "
            "The text holds n = 298 tokens, the new one included."
        ]


class TestBackwardSolutions:
    """The worked solutions of the gradients a lesson works by hand. Hand values: two tokens, every
    score 0, so each query weighs its visible keys equally; V = [[1, 0], [0, 3]]; the loss is the
    first coordinate of the second output row (no W_O), so dz of query 2 is [1, 0], da = [1, 0]
    (dz times each value row), da · a = 1/2, and key 2's scaled score gets 1/2 (0 − 1/2) = −1/4."""

    PLAIN = {
        "X": [[1, 0], [0, 1]],
        "heads": [{"W_Q": [[0, 0], [0, 0]], "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 3]]}],
        "upstream": [[0, 0], [1, 0]],
    }

    def lines(self, path, causal=False):
        plain = {**self.PLAIN, "causal": causal}
        return worked.solution(path, record.computed(plain, "x.yaml"), 3, plain)

    def test_the_scaled_scores_gradient_goes_through_the_softmax_row(self):
        assert self.lines("backward.heads.0.d_scaled.1.1") == [
            "The scaled scores of query 2: [0, 0]; their softmax, the weights: [0.500, 0.500].",
            "The gradient of the reading of query 2, dz: its upstream row [1, 0] times W_Oᵀ, [1, 0].",
            "The gradient of each weight, da = dz · each value row: [1, 0].",
            "da · a, over the keys it sees: 1·0.500 + 0·0.500 = 0.500.",
            "Entry 2 of a ⊙ (da − da · a): 0.500 · (0 − 0.500) = −0.250.",
        ]

    def test_the_raw_scores_gradient_adds_the_scale(self):
        assert self.lines("backward.heads.0.d_scores.1.1")[-1] == "Times 1/√d_k = 0.707: −0.250 × 0.707 ≈ −0.177."

    def test_a_hidden_key_is_said_to_get_exactly_zero(self):
        assert self.lines("backward.heads.0.d_scaled.0.1", causal=True)[-1] == (
            "Key 2 is hidden from query 1: its weight is exactly 0, so its gradient is 0."
        )

    def test_the_weights_and_values_gradients_show_their_dot_products(self):
        assert self.lines("backward.heads.0.d_weights.1.0") == [
            "The gradient of the reading of query 2, dz: its upstream row [1, 0] times W_Oᵀ, [1, 0].",
            "The value row of key 1: [1, 0].",
            "Their dot product, dz · v: 1·1 + 0·0 = 1.",
        ]
        values = self.lines("backward.heads.0.d_V.0.0")
        assert values[-1] == "Their dot product, a row of Aᵀ times a column of dZ: 0.500·0 + 0.500·1 = 0.500."

    def test_the_panel_shows_the_upstream_gradient_the_answers_depend_on(self):
        from macros.render import practice

        tables, _ = practice.inputs({**self.PLAIN, "causal": False}, 3)
        assert ("upstream, the loss's gradient dY", [["0", "0"], ["1", "0"]]) in tables


# ---------------------------------------------------------------- refusing bad blocks

GOOD = {"draw": {"X": {"ints": [-2, 2]}}, "answer": "heads.0.weights.2.0"}
FIELDS = "X, W_O, heads[0].W_Q, heads[0].W_K, heads[0].W_V, heads[1].W_Q, heads[1].W_K, heads[1].W_V"
ANSWER = "a path to one number, as `python -m macros trace` prints it (heads.0.weights.2.0)"
BAD = {
    "unknown field": (
        {**GOOD, "requires": []},
        "practice.requires: expected one of the fields answer, draw, kinds, require, seed, variants, "
        "got an unknown field (did you mean require?)",
    ),
    "not a mapping": ([1], "practice: expected a mapping with draw, require and answer, got a list of 1"),
    "answer missing": (
        {"draw": GOOD["draw"]},
        "practice.answer: expected this field, or kinds (questions of more than one kind) instead, "
        "got nothing: it is missing",
    ),
    "answer and kinds": (
        {**GOOD, "kinds": ["output.0.0", "output.1.0"]},
        "practice.answer: expected this field, or kinds (questions of more than one kind) instead, got both",
    ),
    "one kind": (
        {"draw": GOOD["draw"], "kinds": ["output.0.0"]},
        "practice.kinds: expected a list of 2 to 6 kinds of question, each a path or a list, got a list of 1",
    ),
    "a kind that names nothing": (
        {"draw": GOOD["draw"], "kinds": ["output.0.0", ["output.1.0", "output.9.0"]]},
        f"practice.kinds[1][1]: expected {ANSWER}, got 'output.9.0', which names nothing computed",
    ),
    "a draw space too small": (
        {**GOOD, "draw": {"X": {"ints": [1, 1]}}},
        "practice.draw: expected a draw space of more than 20 sets of numbers, so that the 20 sets differ from "
        "each other and from the lesson's own, got 1 (X: 1)",
    ),
    "a rule's matrix unknown": (
        {**GOOD, "require": [{"no_zero_row": "W_Q"}]},
        "practice.require[0].no_zero_row: expected one of the matrices X, Q, K, V, source, got 'W_Q'",
    ),
    "unknown drawn field": (
        {**GOOD, "draw": {"Y": {"ints": [0, 1]}}},
        f"practice.draw.Y: expected a field of this fixture: {FIELDS}, got an unknown field",
    ),
    "drawn twice": (
        {**GOOD, "draw": {"heads[*].W_Q": {"ints": [0, 1]}, "heads[0].W_Q": {"ints": [0, 1]}}},
        "practice.draw.heads[0].W_Q: expected each field drawn once, got heads[0].W_Q drawn again",
    ),
    "two kinds": (
        {**GOOD, "draw": {"X": {"ints": [0, 1], "tenths": [0, 1]}}},
        "practice.draw.X: expected exactly one of ints, tenths or one_of, got ints, tenths",
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
    "two decimals": (
        {**GOOD, "draw": {"X": {"tenths": [0, 0.25]}}},
        "practice.draw.X.tenths: expected numbers with at most one decimal, within ±1000, got 0.25",
    ),
    "shape that does not fit": (
        {**GOOD, "draw": {"X": {"ints": [0, 1], "shape": [4, 4]}}},
        "practice.draw: expected drawn fields that fit the rest of the fixture, "
        "got variant 1 with tokens: expected 4 labels, one per row of X, got 3",
    ),
    "unknown constraint": (
        {**GOOD, "require": ["no_tied_top_weights"]},
        "practice.require[0]: expected one of the constraints no_tied_top_weight, scores_within, "
        "no_fully_masked_row, no_uniform_weights, no_zero_row, answer_not, answers_differ, no_tie_at_top_k, got "
        "'no_tied_top_weights' (did you mean no_tied_top_weight?)",
    ),
    "constraint without its value": (
        {**GOOD, "require": ["scores_within"]},
        "practice.require[0]: expected scores_within: a number, got no number",
    ),
    "answer is a row": (
        {**GOOD, "answer": "heads.0.weights.2"},
        f"practice.answer: expected {ANSWER}, got 'heads.0.weights.2', which is a list of 3",
    ),
    "answer names nothing": (
        {**GOOD, "answer": ["output.0.0", "output.9.0"]},
        f"practice.answer[1]: expected {ANSWER}, got 'output.9.0', which names nothing computed",
    ),
    "too many variants": ({**GOOD, "variants": 80}, "practice.variants: expected a whole number from 1 to 50, got 80"),
    "seed out of range": ({**GOOD, "seed": -3}, "practice.seed: expected a whole number from 0 to 4294967295, got -3"),
}


class TestRefused:
    @pytest.mark.parametrize("name", list(BAD))
    def test_whole_message(self, name, tmp_path):
        block, message = BAD[name]
        with pytest.raises(spec.PracticeError) as caught:
            practice_of(TWO_HEADS, block, tmp_path)
        found = str(caught.value).replace(str(tmp_path) + "/", "lessons/")
        assert found.split(": ", 1)[1] == message

    def test_a_practice_error_is_a_lesson_error(self):
        assert issubclass(spec.PracticeError, FixtureError)

    def test_unsatisfiable_constraints_name_the_worst(self, tmp_path):
        """X in [1, 2] makes head 1's scores at least 1, so no draw keeps them within ±0.5."""
        block = {**GOOD, "draw": {"X": {"ints": [1, 2]}}, "require": ["no_fully_masked_row", {"scores_within": 0.5}]}
        with pytest.raises(spec.PracticeError) as caught:
            practice_of(TWO_HEADS, block, tmp_path)
        assert str(caught.value).endswith(
            "practice.require[1]: expected numbers satisfying scores_within: 0.5 within 200 draws (variant 1), "
            "got 200 of 200 draws failing it"
        )
