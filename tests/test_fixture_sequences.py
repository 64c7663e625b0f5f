"""The sequence keys (source, source_tokens, key_length, positions) and params:
every mistake refused with file:line, field path, expectation and what was found (whole
messages), and good fixtures traced with the new steps under their names."""

import json

import numpy as np
import pytest

from macros import compute, lessons
from macros.engine import attention, positions
from macros.engine.records import trace_record
from macros.sources.sequences import SequenceAttention
from tests import command, computed
from tests.test_fixture import GOOD, error_for, write

SOURCE = "source: [[1, 0, 0, 0], [0, 0, 1, 0]]\n"
ROTARY = GOOD.replace("W_V:", "W_V:") + "positions: {encoding: rotary}\n"
ODD = """\
X: [[1, 0], [0, 1]]
positions: {encoding: rotary}
heads:
  - W_Q: [[1, 0, 0], [0, 1, 0]]
    W_K: [[1, 0, 0], [0, 1, 0]]
    W_V: [[1], [0]]
"""

BAD = [
    pytest.param(
        GOOD + "key_length: 4\n",
        "F:8: key_length: expected a whole number from 1 to 3 (the number of keys), got 4",
        id="length-longer-than-sequence",
    ),
    pytest.param(
        GOOD + "key_length: 0\n",
        "F:8: key_length: expected a whole number from 1 to 3 (the number of keys), got 0",
        id="length-zero",
    ),
    pytest.param(
        GOOD + "key_length: [3, 5]\n",
        "F:8: key_length[1]: expected a whole number from 1 to 3 (the number of keys), got 5",
        id="batch-length-too-long",
    ),
    pytest.param(
        GOOD + "key_length: []\n",
        "F:8: key_length: expected a whole number, or a list with one length per sequence, got an empty list",
        id="batch-empty",
    ),
    pytest.param(
        GOOD + SOURCE + "key_length: 3\n",
        "F:9: key_length: expected a whole number from 1 to 2 (the number of keys), got 3",
        id="length-longer-than-source",
    ),
    pytest.param(
        GOOD + "source: [[1, 0, 0], [0, 1, 0]]\n",
        "F:8: source: expected a matrix with 4 columns (d_model, as wide as X), got 2×3",
        id="source-width",
    ),
    pytest.param(
        GOOD + "source: [[1, 0, 0, 0], [0, x, 0, 0]]\n",
        "F:8: source[1][1] (row 2, column 2): expected a number, got 'x'",
        id="source-entry",
    ),
    pytest.param(
        GOOD + SOURCE + "source_tokens: [p]\n",
        "F:9: source_tokens: expected 2 labels, one per row of source, got 1",
        id="source-tokens-count",
    ),
    pytest.param(
        GOOD + "source_tokens: [p, q]\n",
        "F:8: source_tokens: expected no labels without a source (label X's rows with tokens), got labels",
        id="source-tokens-without-source",
    ),
    pytest.param(
        GOOD.replace("causal: false", "causal: true") + SOURCE,
        "F:3: causal: expected false when the source has not as many rows as X (3), got true",
        id="causal-source-not-square",
    ),
    pytest.param(
        ODD,
        "F:4: heads[0].W_Q: expected an even number of columns (d_k): rotary turns coordinates in pairs, got 2×3",
        id="rotary-odd-d_k",
    ),
    pytest.param(
        GOOD + "positions: {encoding: learned}\n",
        "F:8: positions.encoding: expected one of sinusoidal, rotary, got 'learned'",
        id="unknown-encoding",
    ),
    pytest.param(
        GOOD + "positions: {encodng: rotary}\n",
        "F:8: positions.encodng: expected one of the fields base, encoding, got an unknown field"
        " (did you mean encoding?)",
        id="positions-typo",
    ),
    pytest.param(
        GOOD + "positions: sinusoidal\n",
        "F:8: positions: expected a mapping such as {encoding: sinusoidal}, got 'sinusoidal'",
        id="positions-not-mapping",
    ),
    pytest.param(
        GOOD + "positions: {encoding: sinusoidal, base: 100}\n",
        "F:8: positions.base: expected no base: only rotary takes one, got 100",
        id="sinusoidal-base",
    ),
    pytest.param(
        GOOD + "positions: {encoding: rotary, base: -2}\n",
        "F:8: positions.base: expected a positive number, got -2",
        id="rotary-base",
    ),
    pytest.param(
        GOOD + "params: {seed: seven}\n",
        "F:8: params.seed: expected a number, got 'seven'",
        id="params-text",
    ),
    pytest.param(
        GOOD + "params: {sizes: [1, 4, x]}\n",
        "F:8: params.sizes[2]: expected a number, got 'x'",
        id="params-list-entry",
    ),
    pytest.param(
        GOOD + "params: {sizes: []}\n",
        "F:8: params.sizes: expected a number or a non-empty list of numbers, got an empty list",
        id="params-empty-list",
    ),
    pytest.param(
        GOOD + "params: [1, 2]\n",
        "F:8: params: expected a mapping of names to numbers or lists of numbers, got a list of 2",
        id="params-not-mapping",
    ),
    pytest.param(
        GOOD + "params: {seed: {a: 1}}\n",
        "F:8: params.seed: expected a number, got a mapping",
        id="params-nested",
    ),
    pytest.param(
        "Q: [[1]]\nK: [[1]]\nV: [[1]]\nparams: {t: .inf}\n",
        "F:4: params.t: expected a finite number, got .inf",
        id="params-direct-form",
    ),
]


@pytest.mark.parametrize("text, message", BAD)
def test_a_bad_sequence_fixture_is_refused_with_a_located_message(tmp_path, text, message):
    assert error_for(tmp_path, text) == message


class TestGoodKeys:
    def load(self, tmp_path, text):
        return compute.compute(lessons.fixture.load(write(tmp_path, text)))

    def test_without_new_keys_the_form_is_unchanged(self, tmp_path):
        data = lessons.fixture.load(write(tmp_path, GOOD))
        assert not isinstance(data, SequenceAttention) and data.params == {}

    def test_params_keep_whole_numbers_whole(self, tmp_path):
        data = lessons.fixture.load(write(tmp_path, GOOD + "params: {seed: 7, sizes: [1, 4.5]}\n"))
        assert data.params == {"seed": 7, "sizes": (1, 4.5)} and isinstance(data.params["seed"], int)
        assert data.to_plain()["params"] == {"seed": 7, "sizes": [1, 4.5]}

    def test_source_equal_to_X_is_self_attention(self, tmp_path):
        """Identity: cross-attention whose source is X itself is self-attention, exactly."""
        X = "[[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]"
        crossed = self.load(tmp_path, GOOD + f"source: {X}\n")
        plain = self.load(tmp_path, GOOD)
        assert np.array_equal(crossed.output, plain.output)

    def test_key_length_hides_padding_with_exact_zeros(self, tmp_path):
        trace = self.load(tmp_path, GOOD + "key_length: 2\n")
        assert np.all(trace.heads[0].weights[:, 2] == 0.0)
        assert np.allclose(trace.heads[0].weights.sum(axis=1), 1.0, atol=1e-15)

    def test_a_batch_gives_one_trace_per_sequence_the_first_in_front(self, tmp_path):
        trace = self.load(tmp_path, GOOD + "key_length: [3, 2]\n")
        batch = trace.batch
        assert len(batch) == 2 and np.array_equal(batch[0].output, trace.output)
        assert np.all(batch[1].heads[0].weights[:, 2] == 0.0) and np.all(batch[0].heads[0].weights[:, 2] > 0)
        assert trace_record(trace)["batch"][1]["heads"][0]["visible"][0] == [True, True, False]

    def test_sinusoidal_is_added_to_X_before_the_projections(self, tmp_path):
        trace = self.load(tmp_path, GOOD + "positions: {encoding: sinusoidal}\n")
        PE = trace.PE
        # PE[1, 0] = sin(1), PE[1, 1] = cos(1) by the formula with i = 0 (Vaswani et al. 2017, 3.5).
        assert PE[1, 0] == np.sin(1.0) and PE[1, 1] == np.cos(1.0) and PE[0].tolist() == [0, 1, 0, 1]
        X = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], float) + PE
        W = np.array([[1, 0], [0, 1], [0, 0], [0, 0]], float)
        expected = attention.self_attention(X, [(W, W, np.array([[0, 0], [0, 0], [1, 0], [0, 1]], float))])
        assert np.array_equal(trace.output, expected.output)

    def test_rotary_rotates_q_and_k_and_keeps_them_before_the_turn(self, tmp_path):
        head = self.load(tmp_path, ROTARY).heads[0]
        # Position 0 does not turn; position 1 turns pair 0 by 1 radian (theta_0 = 1).
        assert np.array_equal(head.Q[0], head.Q_projected[0])
        assert np.allclose(head.Q[1], positions.rotate_pairs(head.Q_projected[1:2], np.ones((1, 1)))[0])

    def test_trace_command_prints_the_rotary_fields_only_for_rotary(self, tmp_path):
        rotary = {"Q_projected", "K_projected", "theta", "q_angles", "k_angles"}
        assert rotary <= set(trace_record(self.load(tmp_path, ROTARY))["heads"][0])
        assert not rotary & set(trace_record(self.load(tmp_path, GOOD))["heads"][0])

    def test_plain_form_round_trips(self, tmp_path):
        text = GOOD + SOURCE + "source_tokens: [p, q]\nkey_length: [2, 1]\npositions: {encoding: rotary, base: 100}\n"
        plain = lessons.fixture.load(write(tmp_path, text)).to_plain()
        assert plain["source_tokens"] == ["p", "q"] and plain["tokens"] == ["a", "b", "c"]
        assert plain["key_length"] == [2, 1] and plain["positions"] == {"encoding": "rotary", "base": 100.0}


class TestOnTheCommandLine:
    def test_trace_prints_the_new_steps_under_their_names(self):
        path = lessons.LESSONS / "rotary-by-hand" / "fixture.yaml"
        result = command.run("trace", path, "--path", "heads.0.Q_projected.0")
        assert result.returncode == 0, result.stderr
        # Position 0 turns by nothing: the rotated first row is the projected one.
        lesson = computed.lesson("rotary-by-hand")
        assert json.loads(result.stdout) == lesson.trace.heads[0].Q[0].tolist()


def test_the_why_scale_notebook_cell_draws_the_lessons_sample():
    """lessons/why-scale/notebook.py types the seed, sample size and widths the page uses."""
    params = computed.lesson("why-scale").fixture.params
    text = (lessons.LESSONS / "why-scale" / "notebook.py").read_text(encoding="utf-8")
    assert f"default_rng({params['seed']})" in text and f"samples = {params['samples']}" in text
    assert f"for d_k in {list(params['d_k_sizes'])}:" in text
