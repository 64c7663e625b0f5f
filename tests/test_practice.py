"""A lesson's practice (macros/practice/): its block read with located errors, its sets of new
numbers drawn reproducibly and checked, every graded value asked in a reader's words.

Sources of expected values: numpy's trace of each set's fixture (macros.engine), read at the
graded path; hand-written paths and labels; the author guide's messages (docs/authoring.md,
"Practice on fresh numbers").
"""

import shutil

import numpy as np
import pytest

from macros import lessons
from macros.errors import FixtureError
from macros.practice import build, draw, quantities, record, spec
from macros.sources.fixture import merged_data, validate
from tests import computed
from tests.sitebuild import PROJECT

TWO_HEADS = PROJECT / "lessons" / "tracing-two-heads" / "fixture.yaml"
WITH_PRACTICE = [slug for slug in computed.SLUGS if computed.lesson(slug).practice is not None]


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
            trace = validate("variant.yaml", variant.fixture).run()
            assert draw.first_failure(lesson.practice.spec, trace) is None
            rec = record.computed(variant.fixture, "variant.yaml")
            assert variant.answers == tuple(rec.value(c.path) for c in lesson.practice.checks)

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

    def test_a_log_sum_exp_solution_ends_with_m_plus_log_l(self):
        # FlashAttention's saved value: the stable softmax's shift plus the log of its sum;
        # hand values: scores [0, log 3] give exponentials [1/3, 1] around the shift log 3
        # (1.099), sum 4/3 (1.333), and log-sum-exp log 4 (1.386)
        head = {
            "scaled": [[0.0, float(np.log(3))]],
            "visible": [[True, True]],
            "weights": [[0.25, 0.75]],
            "shift": [float(np.log(3))],
            "exps": [[1 / 3, 1.0]],
            "sums": [4 / 3],
            "logsumexp": [float(np.log(4))],
        }
        lines = quantities.solution("heads.0.logsumexp.0", {"heads": [head]}, 3)
        assert lines[-1] == "The log-sum-exp is m + log l = 1.099 + log 1.333 ≈ 1.386."

    def test_a_path_without_words_is_refused(self):
        with pytest.raises(KeyError):
            quantities.quantity("heads.0.plain_sums.0", self.NAMES)


class TestBuild:
    @pytest.mark.parametrize("slug", WITH_PRACTICE)
    def test_every_lesson_ships_its_sets_with_answers_and_worked_solutions(self, slug):
        practice = computed.lesson(slug).practice
        assert len(practice.variants) == practice.spec.variants + 1
        for variant in practice.variants:
            assert len(variant.answers) == len(practice.checks) == len(variant.solutions)
            assert all(lines and all(isinstance(line, str) for line in lines) for lines in variant.solutions)

    def test_the_data_file_stays_small(self):
        from macros.render import practice

        sizes = [len(practice.data_script(computed.lesson(slug)).encode()) for slug in WITH_PRACTICE]
        assert max(sizes) < 40_000, sizes

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


# ---------------------------------------------------------------- refusing bad blocks

GOOD = {"draw": {"X": {"ints": [-2, 2]}}, "answer": "heads.0.weights.2.0"}
FIELDS = "X, W_O, heads[0].W_Q, heads[0].W_K, heads[0].W_V, heads[1].W_Q, heads[1].W_K, heads[1].W_V"
ANSWER = "a path to one number, as `python -m macros trace` prints it (heads.0.weights.2.0)"
BAD = {
    "unknown field": (
        {**GOOD, "requires": []},
        "practice.requires: expected one of the fields answer, draw, require, seed, variants, "
        "got an unknown field (did you mean require?)",
    ),
    "not a mapping": ([1], "practice: expected a mapping with draw, require and answer, got a list of 1"),
    "answer missing": ({"draw": GOOD["draw"]}, "practice.answer: expected this field, got nothing: it is missing"),
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
        "no_fully_masked_row, got 'no_tied_top_weights' (did you mean no_tied_top_weight?)",
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
