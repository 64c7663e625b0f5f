"""Padding masks, sliding windows, combined masks and the row that sees no key (macros/engine/masks.py).

Hand-worked values are computed in the comments beside them; identities: a window of n is
plain causal attention, a full key length is no mask, a batch's traces are each
sequence's own attention.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from macros.engine import attention, masks, steps

T, F = True, False


def random_layer(seed, n, d_model=3, n_heads=2, d=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d_model))
    projections = [tuple(rng.normal(size=(d_model, d)) for _ in range(3)) for _ in range(n_heads)]
    return X, projections


class TestKeyPadding:
    @pytest.mark.parametrize(
        "n_q, n_k, key_length, expected",
        [
            (2, 3, 2, [[T, T, F], [T, T, F]]),  # keys 0, 1 valid, key 2 padding, for every query
            (1, 3, 3, [[T, T, T]]),  # the whole sequence is valid: no mask
            (3, 2, 1, [[T, F], [T, F], [T, F]]),  # one valid key
        ],
    )
    def test_by_hand(self, n_q, n_k, key_length, expected):
        np.testing.assert_array_equal(masks.key_padding(n_q, n_k, key_length), expected)

    @pytest.mark.parametrize("key_length", [0, 4, -1])
    def test_a_length_outside_the_sequence_is_refused(self, key_length):
        with pytest.raises(
            ValueError, match=rf"key_length must be between 1 and the number of keys \(3\), got {key_length}"
        ):
            masks.key_padding(2, 3, key_length)

    def test_padded_keys_get_exactly_zero_weight(self):
        # scores [0, 0, 100] with d_k = 1 (scale 1); the third key is padding, so the
        # weights are [1/2, 1/2, 0] and the reading (2 + 4) / 2 = 3: the 1000 never enters.
        Q, K, V = np.array([[1.0]]), np.array([[0.0], [0.0], [100.0]]), np.array([[2.0], [4.0], [1000.0]])
        head = masks.attend_visible(Q, K, V, masks.key_padding(1, 3, 2))
        np.testing.assert_array_equal(head.weights, [[0.5, 0.5, 0.0]])
        np.testing.assert_array_equal(head.output, [[3.0]])


class TestCombine:
    def test_causal_and_padding_by_hand(self):
        # causal (row p sees keys <= p) and key_length 2 (keys 0, 1): row 2 loses key 2.
        both = masks.combine(steps.visibility(3, 3, True), masks.key_padding(3, 3, 2))
        np.testing.assert_array_equal(both, [[T, F, F], [T, T, F], [T, T, F]])

    def test_one_mask_is_itself(self):
        mask = masks.key_padding(2, 3, 2)
        np.testing.assert_array_equal(masks.combine(mask), mask)


class TestSlidingWindow:
    @pytest.mark.parametrize(
        "n, window, expected",
        [
            # query p sees keys p - 1 and p
            (4, 2, [[T, F, F, F], [T, T, F, F], [F, T, T, F], [F, F, T, T]]),
            # each query sees only itself
            (3, 1, [[T, F, F], [F, T, F], [F, F, T]]),
        ],
    )
    def test_by_hand(self, n, window, expected):
        np.testing.assert_array_equal(masks.sliding_window(n, window), expected)

    @given(n=st.integers(1, 7), extra=st.integers(0, 3))
    def test_a_window_of_n_or_more_is_plain_causal(self, n, extra):
        np.testing.assert_array_equal(masks.sliding_window(n, n + extra), steps.visibility(n, n, True))

    @settings(max_examples=25)
    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 6))
    def test_a_window_of_n_gives_the_causal_layer(self, seed, n):
        X, projections = random_layer(seed, n)
        windowed = masks.masked_self_attention(X, projections, masks.sliding_window(n, n))
        causal = attention.self_attention(X, projections, causal=True)
        np.testing.assert_array_equal(windowed.output, causal.output)

    def test_a_window_of_one_reads_each_rows_own_value(self):
        # one visible key per row: weight 1 on itself, so the reading is V's own row
        X, projections = random_layer(3, 4, n_heads=1)
        head = masks.masked_self_attention(X, projections, masks.sliding_window(4, 1)).heads[0]
        np.testing.assert_array_equal(head.weights, np.eye(4))
        np.testing.assert_allclose(head.output, head.V, rtol=0, atol=1e-15)

    @pytest.mark.parametrize("window", [0, -2])
    def test_a_window_of_zero_is_refused(self, window):
        with pytest.raises(ValueError, match=rf"window must be at least 1 .*got {window}"):
            masks.sliding_window(3, window)


class TestBatchKeyPadding:
    def test_two_sequences_by_hand(self):
        # a batch padded to n = 3: the first sequence has 3 tokens, the second 2
        first, second = masks.batch_key_padding(3, [3, 2])
        np.testing.assert_array_equal(first, np.ones((3, 3), bool))
        np.testing.assert_array_equal(second, [[T, T, F]] * 3)

    def test_with_causal(self):
        (mask,) = masks.batch_key_padding(3, [2], causal=True)
        np.testing.assert_array_equal(mask, [[T, F, F], [T, T, F], [T, T, F]])

    def test_an_empty_batch_is_refused(self):
        with pytest.raises(ValueError, match="key_lengths must name at least one sequence"):
            masks.batch_key_padding(3, [])


class TestCheckEveryRowSeesAKey:
    def test_a_row_with_a_key_passes(self):
        visible = np.array([[T, F], [F, T]])
        assert masks.check_every_row_sees_a_key(visible) is visible

    def test_a_fully_masked_row_is_named(self):
        # row 1 sees nothing: its softmax would be 0 / 0
        with pytest.raises(ValueError, match=r"query row\(s\) 1 see no key.*0/0"):
            masks.check_every_row_sees_a_key(np.array([[T, F], [F, F]]))

    def test_every_empty_row_is_named(self):
        with pytest.raises(ValueError, match=r"query row\(s\) 0, 2 see no key"):
            masks.check_every_row_sees_a_key(np.array([[F, F], [T, F], [F, F]]))


class TestAttendVisible:
    @settings(max_examples=25)
    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 6), causal=st.booleans())
    def test_same_as_attend_with_the_same_mask(self, seed, n, causal):
        rng = np.random.default_rng(seed)
        Q, K, V = rng.normal(size=(n, 2)), rng.normal(size=(n, 2)), rng.normal(size=(n, 3))
        mine = masks.attend_visible(Q, K, V, steps.visibility(n, n, causal))
        np.testing.assert_array_equal(mine.weights, attention.attend(Q, K, V, causal).weights)
        np.testing.assert_array_equal(mine.output, attention.attend(Q, K, V, causal).output)

    def test_a_fully_masked_row_is_refused_before_any_nan(self):
        Q = K = V = np.ones((2, 1))
        with pytest.raises(ValueError, match=r"row\(s\) 0 see no key"):
            masks.attend_visible(Q, K, V, np.array([[F, F], [T, T]]))

    def test_a_mask_of_the_wrong_shape_is_refused(self):
        with pytest.raises(ValueError, match=r"the mask must be 2x2"):
            masks.attend_visible(np.ones((2, 1)), np.ones((2, 1)), np.ones((2, 1)), np.ones((2, 3), bool))

    @settings(max_examples=25)
    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 6), data=st.data())
    def test_padded_keys_do_not_change_the_reading(self, seed, n, data):
        # Attending over the first L keys with the rest masked equals attending over only those L keys.
        length = data.draw(st.integers(1, n))
        rng = np.random.default_rng(seed)
        Q, K, V = rng.normal(size=(3, 2)), rng.normal(size=(n, 2)), rng.normal(size=(n, 2))
        padded = masks.attend_visible(Q, K, V, masks.key_padding(3, n, length))
        short = attention.attend(Q, K[:length], V[:length])
        np.testing.assert_allclose(padded.output, short.output, rtol=0, atol=1e-12)
        assert np.all(padded.weights[:, length:] == 0.0)


class TestBatchAttention:
    @settings(max_examples=20)
    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 5), causal=st.booleans(), data=st.data())
    def test_each_sequence_is_its_own_trace(self, seed, n, causal, data):
        lengths = data.draw(st.lists(st.integers(1, n), min_size=1, max_size=3))
        rng = np.random.default_rng(seed)
        batch = rng.normal(size=(len(lengths), n, 3))
        _, projections = random_layer(seed, n)
        traces = masks.batch_attention(batch, projections, lengths, causal)
        assert len(traces) == len(lengths)
        for X, length, trace in zip(batch, lengths, traces, strict=True):
            # the valid rows' readings equal the unpadded sequence's own attention
            alone = attention.self_attention(X[:length], projections, causal)
            np.testing.assert_allclose(trace.output[:length], alone.output, rtol=0, atol=1e-12)

    def test_one_length_per_sequence(self):
        X, projections = random_layer(0, 3)
        with pytest.raises(ValueError, match=r"one length per sequence \(2\), got 1"):
            masks.batch_attention(np.stack([X, X]), projections, [2])
