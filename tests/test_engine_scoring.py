"""How heads score their keys (macros/engine/scoring.py, macros/sources/scoring_keys.py):
additive scoring, ALiBi's bias, soft-capping and QK-norm, against values worked by hand and
the identities that must hold (zero slopes are plain attention; additive scoring has scale 1;
a cap far above the scores changes nothing; QK-norm does not care how long a row is)."""

import math

import numpy as np
import pytest

from macros.engine import attention, scoring
from macros.errors import FixtureError
from macros.sources.fixture import validate

EYE = np.eye(2)


class TestAdditive:
    def test_by_hand(self):
        # q = [1, 0]; keys [1, 0] and [0, 1]; W_a = U_a = I, v_a = [1, 1]:
        # key 1: tanh(1 + 1) + tanh(0 + 0) = tanh 2; key 2: tanh(1 + 0) + tanh(0 + 1) = 2 tanh 1.
        scores = scoring.additive_scores(np.array([[1.0, 0.0]]), EYE, scoring.Additive(EYE, EYE, np.ones(2)))
        assert np.allclose(scores, [[math.tanh(2), 2 * math.tanh(1)]], atol=1e-15)

    def test_a_head_scored_additively_has_scale_one(self):
        head = attention.attend(EYE, EYE, EYE, scoring=scoring.Scoring(scoring.Additive(EYE, EYE, np.ones(2))))
        assert head.scale == 1.0 and np.array_equal(head.scaled, head.scores)
        assert np.allclose(head.weights.sum(axis=1), 1.0, atol=1e-15)


class TestAlibi:
    def test_the_papers_slopes(self):
        # Press, Smith and Lewis (2022), section 3: for 8 heads 1/2, 1/4, ..., 1/256.
        assert scoring.alibi_slopes(8) == [2.0**-k for k in range(1, 9)]
        assert scoring.alibi_slopes(2) == [0.0625, 0.00390625]

    def test_the_bias_by_hand(self):
        # -m (i - j) with m = 0.5: zero on the diagonal, -0.5 one step back, -1 two steps back.
        expected = [[0, 0.5, 1], [-0.5, 0, 0.5], [-1, -0.5, 0]]
        assert np.array_equal(scoring.alibi_bias(3, 3, 0.5), expected)

    def test_zero_slopes_are_plain_attention(self):
        rng = np.random.default_rng(5)
        Q, K, V = (rng.normal(size=(4, 3)) for _ in range(3))
        plain = attention.attend(Q, K, V, causal=True)
        biased = attention.attend(Q, K, V, causal=True, scoring=scoring.Scoring(slope=0.0))
        assert np.array_equal(plain.weights, biased.weights) and np.array_equal(biased.biased, plain.scaled)

    def test_the_weights_are_the_softmax_of_the_biased_scores(self):
        Q = K = V = np.array([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]])  # equal scores everywhere
        head = attention.attend(Q, K, V, causal=True, scoring=scoring.Scoring(slope=math.log(2)))
        # row 3 sees keys 1..3 with biases -2 ln 2, -ln 2, 0: weights 1/4 : 1/2 : 1, over 7/4
        assert np.allclose(head.weights[2], [1 / 7, 2 / 7, 4 / 7], atol=1e-15)


class TestSoftcap:
    def test_by_hand(self):
        # c · tanh(s / c) with c = 2: s = 0 stays 0; s = 2 gives 2 tanh 1; s = -2 gives -2 tanh 1
        # (odd); s = 1000 gives 2 tanh 500, which is 2 to float precision.
        capped = scoring.soft_cap(np.array([[0.0, 2.0, -2.0, 1000.0]]), 2.0)
        assert np.allclose(capped, [[0.0, 2 * math.tanh(1), -2 * math.tanh(1), 2.0]], atol=1e-15)

    def test_a_cap_far_above_the_scores_changes_nothing_to_six_places(self):
        # tanh x = x − x³/3 + …: with |s| ≤ 1 and c = 1000, c tanh(s/c) − s is about s³/(3c²) < 4e-7.
        Q, K, V = np.array([[1.0, 0.5]]), np.array([[1.0, -1.0], [0.5, 0.5]]), EYE
        plain, capped = attention.attend(Q, K, V), attention.attend(Q, K, V, scoring=scoring.Scoring(softcap=1000.0))
        assert np.allclose(capped.weights, plain.weights, atol=1e-6) and capped.capped is not None

    def test_the_cap_comes_before_the_bias(self):
        # Gemma 2's order: the cap bounds the scaled score, then ALiBi's bias is added (DESIGN.md).
        head = attention.attend(EYE, EYE, EYE, causal=True, scoring=scoring.Scoring(slope=0.5, softcap=0.5))
        assert np.array_equal(head.biased, head.capped + head.bias)
        assert np.abs(head.capped).max() < 0.5

    def test_a_lower_cap_flattens_the_largest_weight(self):
        Q, K, V = np.array([[4.0, 0.0]]), np.array([[4.0, 0.0], [0.0, 0.0]]), EYE
        capped = [attention.attend(Q, K, V, scoring=scoring.Scoring(softcap=c)) for c in (100.0, 5.0, 1.0)]
        weights = [head.weights[0, 0] for head in capped]
        assert weights[0] > weights[1] > weights[2] > 0.5


class TestQkNorm:
    def test_a_row_by_hand(self):
        # [3, 4]: mean of squares (9 + 16) / 2 = 12.5, root √12.5 = 2.5√2, so the row becomes
        # [3, 4] / (2.5√2) = [0.6√2, 0.8√2] (ε = 1e-6 moves it by less than 1e-7).
        assert np.allclose(scoring.rms_normalise(np.array([[3.0, 4.0]])), [[0.6 * 2**0.5, 0.8 * 2**0.5]], atol=1e-7)

    def test_the_length_of_a_row_no_longer_matters(self):
        Q, K, V = np.array([[1.0, 2.0]]), np.array([[1.0, 0.0], [0.0, 1.0]]), EYE
        normed = scoring.Scoring(qk_norm=True)
        short, long = (attention.attend(s * Q, K, V, scoring=normed) for s in (1.0, 100.0))
        assert np.allclose(short.weights, long.weights, atol=1e-9)
        assert not np.allclose(attention.attend(Q, K, V).weights, attention.attend(100 * Q, K, V).weights)

    def test_the_scores_are_the_normalised_rows_products_still_scaled(self):
        head = attention.attend(np.array([[3.0, 4.0]]), EYE, EYE, scoring=scoring.Scoring(qk_norm=True))
        assert np.allclose(head.scores, head.Q_normed @ head.K_normed.T, atol=1e-15)
        assert head.scale == 1 / np.sqrt(2) and np.array_equal(head.Q, [[3.0, 4.0]])


BASE = {
    "X": [[1, 0], [0, 1], [1, 1]],
    "causal": True,
    "heads": [{"W_Q": EYE.tolist(), "W_K": EYE.tolist(), "W_V": EYE.tolist()}],
}


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            {"alibi": [0.5], "causal": False},
            "alibi: expected causal: true alongside it (ALiBi's bias looks back only), got causal: false",
        ),
        ({"alibi": [0.5, 0.25]}, "alibi: expected a list of 1 slopes, one per head, got a list of 2"),
        ({"alibi": [-1]}, "alibi[0]: expected a slope of at least 0, got -1"),
        (
            {"additive": {"W_a": [[1, 0, 0]], "U_a": [[1]], "v_a": [1]}},
            "additive.W_a: expected a matrix with 2 rows (d_k × d_a), got 1×3",
        ),
        (
            {"additive": {"W_a": EYE.tolist(), "U_a": EYE.tolist()}},
            "additive.v_a: expected this field, got nothing: it is missing",
        ),
        ({"softcap": 0}, "softcap: expected a cap greater than 0 (the scores stay between −cap and cap), got 0"),
        ({"softcap": "fifty"}, "softcap: expected a number, got 'fifty'"),
        ({"qk_norm": "yes"}, "qk_norm: expected true or false, got 'yes'"),
    ],
)
def test_a_mistake_names_its_field(extra, message):
    with pytest.raises(FixtureError) as caught:
        validate("lessons/x/fixture.yaml", {**BASE, **extra})
    assert str(caught.value).endswith(message), str(caught.value)


def test_a_fixture_with_alibi_computes_the_biased_layer_and_writes_it_back():
    fixture = validate("lessons/x/fixture.yaml", {**BASE, "alibi": [0.5]})
    head = fixture.run().heads[0]
    assert np.array_equal(head.bias, scoring.alibi_bias(3, 3, 0.5)) and fixture.to_plain()["alibi"] == [0.5]
    assert (
        validate("lessons/x/fixture.yaml", fixture.to_plain()).run().heads[0].weights.tolist() == head.weights.tolist()
    )


def test_a_fixture_with_a_cap_and_qk_norm_computes_them_and_writes_them_back():
    fixture = validate("lessons/x/fixture.yaml", {**BASE, "softcap": 0.5, "qk_norm": True})
    head = fixture.run().heads[0]
    assert head.capped is not None and head.Q_normed is not None and np.abs(head.capped).max() < 0.5
    assert fixture.to_plain()["softcap"] == 0.5 and fixture.to_plain()["qk_norm"] is True
    again = validate("lessons/x/fixture.yaml", fixture.to_plain()).run().heads[0]
    assert again.weights.tolist() == head.weights.tolist()
