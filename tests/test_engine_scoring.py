"""How heads score their keys (macros/engine/scoring.py, macros/sources/scoring_keys.py):
additive scoring and ALiBi's bias, against values worked by hand and the identities that
must hold (zero slopes are plain attention; additive scoring has scale 1)."""

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
