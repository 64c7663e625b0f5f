"""Cross-attention (macros/engine/cross.py): hand-worked values, and source = X is self-attention."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from macros.engine import attention, cross

# One query from X, three source rows; W_Q = W_K = I, W_V = [[1], [2]], so
# q = [1, 0], K = source, V = [[1], [2], [3]] and the raw scores are q . k = [1, 0, 1].
X1 = np.array([[1.0, 0.0]])
SOURCE = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
EYE = np.eye(2)
W_V = np.array([[1.0], [2.0]])
A = np.exp(1 / np.sqrt(2))  # exp of the scaled score 1/sqrt(2) of keys 0 and 2


class TestCheckSource:
    def test_a_source_as_wide_as_X_passes(self):
        np.testing.assert_array_equal(cross.check_source(X1, SOURCE.tolist()), SOURCE)

    def test_a_source_of_the_wrong_width_is_refused(self):
        with pytest.raises(ValueError, match=r"source must have d_model = 2 columns, like X, got 3"):
            cross.check_source(X1, np.ones((2, 3)))

    @pytest.mark.parametrize("source", [np.ones(2), np.ones((0, 2))])
    def test_a_source_that_is_not_a_matrix_is_refused(self, source):
        with pytest.raises(ValueError, match=r"source must be a matrix of at least one row"):
            cross.check_source(X1, source)


class TestCrossVisibility:
    def test_causal_needs_as_many_source_rows_as_queries(self):
        with pytest.raises(
            ValueError, match=r"causal cross-attention needs as many source rows as queries \(1\), got 3"
        ):
            cross.cross_visibility(1, 3, causal=True)

    def test_source_padding(self):
        np.testing.assert_array_equal(cross.cross_visibility(2, 3, key_length=2), [[True, True, False]] * 2)

    def test_a_source_length_longer_than_the_source_is_refused(self):
        with pytest.raises(ValueError, match=r"key_length must be between 1 and the number of keys \(3\), got 4"):
            cross.cross_visibility(1, 3, key_length=4)


class TestCrossAttention:
    def test_one_query_three_source_rows_by_hand(self):
        # weights (A, 1, A) / (2A + 1); reading (A*1 + 2 + A*3) / (2A + 1) = 2 exactly in exact arithmetic
        trace = cross.cross_attention(X1, SOURCE, [(EYE, EYE, W_V)])
        head = trace.heads[0]
        assert head.scores.shape == (1, 3)  # n x m, not square
        np.testing.assert_array_equal(head.scores, [[1.0, 0.0, 1.0]])
        np.testing.assert_allclose(head.weights, [[A / (2 * A + 1), 1 / (2 * A + 1), A / (2 * A + 1)]], rtol=1e-15)
        np.testing.assert_allclose(trace.output, [[2.0]], rtol=1e-15)

    def test_source_padding_by_hand(self):
        # key_length 2 hides source row 2: reading (A*1 + 1*2) / (A + 1), with
        # A = exp(0.707107) ~ 2.028115, so ~ 4.028115 / 3.028115 ~ 1.330238
        trace = cross.cross_attention(X1, SOURCE, [(EYE, EYE, W_V)], key_length=2)
        np.testing.assert_allclose(trace.output, [[(A + 2) / (A + 1)]], rtol=1e-15)
        assert trace.output[0, 0] == pytest.approx(1.330238, abs=1e-6)
        assert trace.heads[0].weights[0, 2] == 0.0

    @settings(max_examples=25)
    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 5), m=st.integers(1, 6), h=st.integers(1, 3))
    def test_weights_sum_to_one_over_the_source(self, seed, n, m, h):
        rng = np.random.default_rng(seed)
        X, source = rng.normal(size=(n, 3)), rng.normal(size=(m, 3))
        projections = [tuple(rng.normal(size=(3, 2)) for _ in range(3)) for _ in range(h)]
        W_O = rng.normal(size=(2 * h, 3))
        trace = cross.cross_attention(X, source, projections, W_O=W_O)
        for head in trace.heads:
            assert head.weights.shape == (n, m)
            np.testing.assert_allclose(head.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)
        assert trace.output.shape == (n, 3)

    @settings(max_examples=25)
    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 5), h=st.integers(1, 3), causal=st.booleans())
    def test_source_equal_to_X_is_self_attention(self, seed, n, h, causal):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(n, 3))
        projections = [tuple(rng.normal(size=(3, 2)) for _ in range(3)) for _ in range(h)]
        W_O = rng.normal(size=(2 * h, 3))
        mine = cross.cross_attention(X, X.copy(), projections, causal=causal, W_O=W_O)
        theirs = attention.self_attention(X, projections, causal=causal, W_O=W_O)
        np.testing.assert_array_equal(mine.output, theirs.output)
