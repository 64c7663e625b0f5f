"""Engine values and identities.

Published values come from the three worked examples this book's first lessons are based
on, named where used: seed 000 ("Compute Two Heads with Separate Projections") and seed
001 ("Two heads of dimension one"), whose single-head reference is the one-head fixture
it calls "Attention by hand".
Identities are the properties any correct attention must have.
"""

import numpy as np
import pytest

from macros.engine import attention, records, steps

SQRT2 = np.sqrt(2.0)

# Seed 000: X and the two coordinate-selecting projections P_1, P_2.
SEED000_X = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, -1, 1]], dtype=float)
P1 = np.array([[1, 0], [0, 1], [0, 0], [0, 0]], dtype=float)
P2 = np.array([[0, 0], [0, 0], [1, 0], [0, 1]], dtype=float)


def seed000_trace():
    heads = [(P1, P1, P1), (P2, P2, P2)]
    return attention.self_attention(SEED000_X, heads, causal=True)


class TestSeed000TwoCausalHeads:
    """Seed 000 publishes the final query's row for each head to three decimals."""

    def test_head1_projected_rows(self):
        head = seed000_trace().heads[0]
        expected = [[1, 0], [0, 1], [1, 1]]  # seed 000: Q(1) = K(1) = V(1)
        for name in ("Q", "K", "V"):
            np.testing.assert_array_equal(getattr(head, name), expected)

    def test_head2_projected_rows(self):
        head = seed000_trace().heads[1]
        expected = [[1, 0], [0, 1], [-1, 1]]  # seed 000: Q(2) = K(2) = V(2)
        for name in ("Q", "K", "V"):
            np.testing.assert_array_equal(getattr(head, name), expected)

    @pytest.mark.parametrize(
        "h, raw, scaled",
        [
            (0, [1, 1, 2], [0.707, 0.707, 1.414]),  # seed 000, head 1: [1,1,2]/sqrt 2
            (1, [-1, 1, 2], [-0.707, 0.707, 1.414]),  # seed 000, head 2: [-1,1,2]/sqrt 2
        ],
    )
    def test_final_row_scores(self, h, raw, scaled):
        head = seed000_trace().heads[h]
        np.testing.assert_array_equal(head.scores[2], raw)
        assert head.scale == pytest.approx(1 / SQRT2)
        np.testing.assert_allclose(head.scaled[2], scaled, atol=5e-4)

    @pytest.mark.parametrize(
        "h, weights, reading",
        [
            (0, [0.248, 0.248, 0.503], [0.752, 0.752]),  # seed 000: a_3(1), z_3(1)
            (1, [0.074, 0.306, 0.620], [-0.546, 0.926]),  # seed 000: a_3(2), z_3(2)
        ],
    )
    def test_final_row_weights_and_reading(self, h, weights, reading):
        head = seed000_trace().heads[h]
        np.testing.assert_allclose(head.weights[2], weights, atol=5e-4)
        np.testing.assert_allclose(head.output[2], reading, atol=5e-4)

    def test_concatenation_is_the_output_when_W_O_is_identity(self):
        trace = seed000_trace()
        # seed 000: z_3 = Concat(z_3(1), z_3(2)) ~ [0.752, 0.752, -0.546, 0.926]
        np.testing.assert_allclose(trace.concat[2], [0.752, 0.752, -0.546, 0.926], atol=5e-4)
        np.testing.assert_array_equal(trace.output, trace.concat)

    def test_causal_mask_hides_the_future(self):
        head = seed000_trace().heads[0]
        # Query 1 sees only key 1, so its whole weight is on it (hand calculation).
        np.testing.assert_array_equal(head.weights[0], [1, 0, 0])


# Seed 001: one query, four keys and values in two dimensions (its one-head fixture).
Q82 = np.array([[2, -1]], dtype=float)
K82 = np.array([[1, 0], [0, 1], [1, 1], [-1, 1]], dtype=float)
V82 = np.array([[1, 0], [0, 2], [2, 2], [-2, 1]], dtype=float)


class TestSeed001HeadsOfDimensionOne:
    """Seed 001 publishes both one-dimensional heads to four decimals."""

    def trace(self):
        return attention.split_attention(Q82, K82, V82, n_heads=2)

    def test_head_A(self):
        head = self.trace().heads[0]
        np.testing.assert_array_equal(head.scores[0], [2, 0, 2, -2])  # seed 001
        assert head.scale == 1.0  # seed 001: 1 / sqrt(1) = 1
        # seed 001 exponentiates the scaled scores as they are: e^2, e^0, e^2, e^-2
        np.testing.assert_allclose(head.plain_exps[0], [7.3891, 1.0, 7.3891, 0.1353], atol=5e-5)
        assert head.plain_sums[0] == pytest.approx(15.9134, abs=5e-5)
        # the stable form subtracts the row maximum 2 first (hand calculation)
        assert head.shift[0] == 2.0
        np.testing.assert_allclose(head.exps[0], np.exp([0.0, -2.0, 0.0, -4.0]), rtol=1e-15)
        np.testing.assert_allclose(head.weights[0], [0.4643, 0.0628, 0.4643, 0.0085], atol=5e-5)
        assert head.output[0, 0] == pytest.approx(1.3760, abs=5e-5)

    def test_head_B(self):
        head = self.trace().heads[1]
        np.testing.assert_array_equal(head.scores[0], [0, -1, -1, -1])  # seed 001
        # the row maximum is 0, so plain and shifted exponentials agree here
        for exps, sums in ((head.exps, head.sums), (head.plain_exps, head.plain_sums)):
            np.testing.assert_allclose(exps[0], [1.0, 0.3679, 0.3679, 0.3679], atol=5e-5)
            assert sums[0] == pytest.approx(2.1036, abs=5e-5)
        np.testing.assert_allclose(head.weights[0], [0.4754, 0.1749, 0.1749, 0.1749], atol=5e-5)
        assert head.output[0, 0] == pytest.approx(0.8744, abs=5e-5)

    def test_single_head_of_dimension_two(self):
        single = attention.split_attention(Q82, K82, V82, n_heads=1)
        # seed 001: "one head of dimension two": 1.1740, 0.7643
        np.testing.assert_allclose(single.output[0], [1.1740, 0.7643], atol=5e-5)
        # seed 001: the difference row, 0.2019 and 0.1101
        diff = self.trace().output[0] - single.output[0]
        np.testing.assert_allclose(diff, [0.2019, 0.1101], atol=5e-5)


class TestStableSoftmax:
    def test_hand_computed_pair(self):
        # softmax([0, ln 3]) = [1/4, 3/4] by hand.
        weights = steps.stable_softmax(np.array([[0.0, np.log(3.0)]]), np.ones((1, 2), bool))
        np.testing.assert_allclose(weights.weights, [[0.25, 0.75]])

    def test_shift_is_the_row_maximum_over_visible_keys(self):
        scaled = np.array([[1.0, 5.0, 3.0]])
        visible = np.array([[True, False, True]])
        parts = steps.stable_softmax(scaled, visible)
        np.testing.assert_array_equal(parts.shift, [3.0])
        assert parts.exps[0, 1] == 0.0 and parts.weights[0, 1] == 0.0

    @pytest.mark.parametrize("big", [1000.0, -1000.0, 1e300])
    def test_huge_scores_neither_overflow_nor_give_nan(self, big):
        scaled = np.array([[big, 0.0, -big]])
        with np.errstate(over="raise", invalid="raise", divide="raise"):
            parts = steps.stable_softmax(scaled, np.ones_like(scaled, bool))
        assert np.all(np.isfinite(parts.weights))
        assert parts.weights.sum() == pytest.approx(1.0)

    def test_plain_exponentials_overflow_to_infinity_not_nan(self):
        parts = steps.stable_softmax(np.array([[1000.0, 0.0]]), np.ones((1, 2), bool))
        assert parts.plain_exps[0, 0] == np.inf and np.isfinite(parts.weights).all()

    def test_adding_a_constant_changes_nothing(self):
        rng = np.random.default_rng(0)
        scaled = rng.normal(size=(4, 5))
        visible = np.ones_like(scaled, bool)
        base = steps.stable_softmax(scaled, visible).weights
        moved = steps.stable_softmax(scaled + 123.25, visible).weights
        np.testing.assert_allclose(base, moved, rtol=1e-12)


class TestIdentities:
    def random_case(self, seed, causal):
        rng = np.random.default_rng(seed)
        n, d_model, d_k, d_v, h = 5, 6, 3, 2, 3
        X = rng.normal(size=(n, d_model))
        heads = [tuple(rng.normal(size=(d_model, d)) for d in (d_k, d_k, d_v)) for _ in range(h)]
        W_O = rng.normal(size=(h * d_v, d_model))
        return X, heads, W_O, causal

    @pytest.mark.parametrize("causal", [False, True])
    def test_weight_rows_sum_to_one(self, causal):
        X, heads, W_O, _ = self.random_case(1, causal)
        for head in attention.self_attention(X, heads, causal=causal, W_O=W_O).heads:
            np.testing.assert_allclose(head.weights.sum(axis=1), 1.0, rtol=1e-12)

    def test_masked_weights_are_exactly_zero(self):
        X, heads, W_O, _ = self.random_case(2, True)
        for head in attention.self_attention(X, heads, causal=True).heads:
            assert np.all(head.weights[np.triu_indices(5, k=1)] == 0.0)

    def test_one_head_equals_plain_attention(self):
        rng = np.random.default_rng(3)
        Q, K, V = rng.normal(size=(4, 3)), rng.normal(size=(6, 3)), rng.normal(size=(6, 2))
        z = Q @ K.T / np.sqrt(3)
        plain = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True) @ V
        np.testing.assert_allclose(attention.split_attention(Q, K, V).output, plain, rtol=1e-12)

    def test_separate_heads_equal_block_stacked_projections(self):
        X, heads, W_O, _ = self.random_case(4, True)
        separate = attention.self_attention(X, heads, causal=True, W_O=W_O)
        stacked = [np.hstack([head[i] for head in heads]) for i in range(3)]  # (d_model, h*d)
        Q, K, V = (X @ W for W in stacked)
        joined = attention.split_attention(Q, K, V, n_heads=3, causal=True, W_O=W_O)
        np.testing.assert_allclose(separate.output, joined.output, rtol=1e-12)

    def test_W_O_defaults_to_identity(self):
        X, heads, _, _ = self.random_case(5, False)
        trace = attention.self_attention(X, heads)
        np.testing.assert_array_equal(trace.W_O, np.eye(6))
        np.testing.assert_array_equal(trace.output, trace.concat)


class TestJsonForm:
    """The JSON form (engine.trace): numbers as Python floats, null where a value is not finite
    or a key is masked. Values written by hand."""

    def test_finite_numbers_are_plain_floats(self):
        rows = records.rows(np.array([[1.5, -2.0], [0.0, 3.25]]))
        assert rows == [[1.5, -2.0], [0.0, 3.25]] and all(type(x) is float for row in rows for x in row)

    def test_a_value_that_is_not_finite_is_null(self):
        assert records.rows(np.array([[1.0, np.inf], [np.nan, -np.inf]])) == [[1.0, None], [None, None]]
        assert records.rows(np.float64(np.inf)) is None and records.rows(2.0) == 2.0

    def test_masked_entries_are_null(self):
        values, visible = np.array([[0.5, 7.0], [1.0, -2.0]]), np.array([[True, False], [True, True]])
        assert records.masked_rows(values, visible) == [[0.5, None], [1.0, -2.0]]
        assert records.masked_rows(values, np.ones((2, 2), bool)) == [[0.5, 7.0], [1.0, -2.0]]
        assert records.masked_rows(np.array([[-np.inf, 1.0]]), np.array([[True, True]])) == [[None, 1.0]]
