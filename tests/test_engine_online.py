"""Online softmax by key blocks (macros/engine/online.py).

Hand case: one query q = [1] (d_k = 1, scale 1), keys [1], [0], [2], values 1, 2, 3,
blocks of 2 ({0, 1} then {2}):
  block 1: scores [1, 0], m = 1, rescale exp(-inf - 1) = 0, exps [1, e^-1],
           l = 1 + e^-1 ~ 1.367879, acc = 1*1 + 2*e^-1 ~ 1.735759
  block 2: score [2], m = 2, rescale exp(1 - 2) = e^-1 ~ 0.367879, exps [1],
           l = (1 + e^-1) e^-1 + 1 = 1 + e^-1 + e^-2 ~ 1.503215,
           acc = (1 + 2 e^-1) e^-1 + 3 = 3 + e^-1 + 2 e^-2 ~ 3.638550
  output acc / l ~ 2.420512, the one-pass softmax reading (e^1*1 + e^0*2 + e^2*3) / (e + 1 + e^2).
Identity: any block size gives the one-pass result (1e-12).
"""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from macros.engine import attention, masks, online, steps

E1, E2 = np.exp(-1.0), np.exp(-2.0)
Q = np.array([[1.0]])
K = np.array([[1.0], [0.0], [2.0]])
V = np.array([[1.0], [2.0], [3.0]])


class TestKeyBlocks:
    @pytest.mark.parametrize(
        "n_k, b, expected",
        [
            (3, 2, [(0, 2), (2, 3)]),
            (3, 3, [(0, 3)]),
            (3, 1, [(0, 1), (1, 2), (2, 3)]),
            (5, 2, [(0, 2), (2, 4), (4, 5)]),
        ],
    )
    def test_by_hand(self, n_k, b, expected):
        assert online.key_blocks(n_k, b) == expected

    @pytest.mark.parametrize("b", [0, 4, -1])
    def test_a_block_size_of_zero_or_more_than_n_is_refused(self, b):
        with pytest.raises(ValueError, match=rf"block_size must be between 1 and the number of keys \(3\), got {b}"):
            online.key_blocks(3, b)


class TestBlockMax:
    def test_masked_keys_are_ignored(self):
        np.testing.assert_array_equal(online.block_max(np.array([[5.0, 1.0]]), np.array([[False, True]])), [1.0])

    def test_a_block_with_no_visible_key_gives_minus_infinity(self):
        assert online.block_max(np.array([[5.0]]), np.array([[False]]))[0] == -np.inf


class TestRunningMax:
    def test_by_hand(self):
        np.testing.assert_array_equal(online.running_max(np.array([1.0, 3.0]), np.array([2.0, -1.0])), [2.0, 3.0])


class TestRescaleFactor:
    @pytest.mark.parametrize(
        "m_old, m_new, expected",
        [
            (1.0, 2.0, E1),  # the maximum grew by 1: old terms shrink by e^-1
            (2.0, 2.0, 1.0),  # unchanged maximum: nothing to rescale
            (-np.inf, 1.0, 0.0),  # first visible block: nothing accumulated yet
            (-np.inf, -np.inf, 1.0),  # still no visible key
        ],
    )
    def test_by_hand(self, m_old, m_new, expected):
        assert online.rescale_factor(np.array([m_old]), np.array([m_new]))[0] == expected


class TestBlockExponentials:
    def test_by_hand(self):
        exps = online.block_exponentials(np.array([[1.0, 0.0, 9.0]]), np.array([[True, True, False]]), np.array([1.0]))
        np.testing.assert_array_equal(exps, [[1.0, E1, 0.0]])


class TestUpdateSum:
    def test_by_hand(self):
        # block 2 of the hand case
        l_new = online.update_sum(np.array([1 + E1]), np.array([E1]), np.array([[1.0]]))
        np.testing.assert_allclose(l_new, [1 + E1 + E2], rtol=1e-15)


class TestUpdateReading:
    def test_by_hand(self):
        acc = online.update_reading(np.array([[1 + 2 * E1]]), np.array([E1]), np.array([[1.0]]), np.array([[3.0]]))
        np.testing.assert_allclose(acc, [[3 + E1 + 2 * E2]], rtol=1e-15)


class TestNeverStored:
    def test_the_score_matrix(self):
        assert online.never_stored(4, 7) == 28


class TestOnlineAttention:
    def test_three_keys_two_blocks_by_hand(self):
        trace = online.online_attention(Q, K, V, 2)
        first, second = trace.blocks
        assert (first.start, first.stop, second.start, second.stop) == (0, 2, 2, 3)
        np.testing.assert_array_equal(first.m, [1.0])
        np.testing.assert_array_equal(first.rescale, [0.0])
        np.testing.assert_allclose(first.exps, [[1.0, E1]], rtol=1e-15)
        np.testing.assert_allclose(first.l, [1.367879], atol=5e-7)
        np.testing.assert_allclose(first.acc, [[1.735759]], atol=5e-7)
        np.testing.assert_array_equal(second.m, [2.0])
        np.testing.assert_allclose(second.rescale, [0.367879], atol=5e-7)
        np.testing.assert_allclose(second.l, [1.503215], atol=5e-7)
        np.testing.assert_allclose(second.acc, [[3.638550]], atol=5e-7)
        np.testing.assert_allclose(trace.output, [[2.420512]], atol=5e-7)
        assert trace.never_stored == 3

    def test_the_hand_case_is_the_one_pass_reading(self):
        one_pass = attention.attend(Q, K, V).output
        for b in (1, 2, 3):
            assert abs(online.online_attention(Q, K, V, b).output[0, 0] - one_pass[0, 0]) <= 1e-12

    @settings(max_examples=40)
    @given(
        seed=st.integers(0, 2**32 - 1),
        n_q=st.integers(1, 4),
        n_k=st.integers(1, 8),
        size=st.sampled_from([0.5, 3.0, 30.0]),
        data=st.data(),
    )
    def test_any_block_size_gives_the_one_pass_result(self, seed, n_q, n_k, size, data):
        b = data.draw(st.integers(1, n_k))
        rng = np.random.default_rng(seed)
        Qr, Kr, Vr = rng.normal(size=(n_q, 3)) * size, rng.normal(size=(n_k, 3)) * size, rng.normal(size=(n_k, 2))
        trace = online.online_attention(Qr, Kr, Vr, b)
        assert np.max(np.abs(trace.output - attention.attend(Qr, Kr, Vr).output)) <= 1e-12
        assert len(trace.blocks) == -(-n_k // b)

    @settings(max_examples=30)
    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 7), data=st.data())
    def test_with_a_mask_any_block_size_gives_the_masked_result(self, seed, n, data):
        b, window = data.draw(st.integers(1, n)), data.draw(st.integers(1, n))
        rng = np.random.default_rng(seed)
        Qr, Kr, Vr = rng.normal(size=(n, 2)), rng.normal(size=(n, 2)), rng.normal(size=(n, 2))
        visible = masks.sliding_window(n, window)
        trace = online.online_attention(Qr, Kr, Vr, b, visible)
        assert np.max(np.abs(trace.output - masks.attend_visible(Qr, Kr, Vr, visible).output)) <= 1e-12

    def test_running_max_never_decreases_and_ends_at_the_row_max(self):
        rng = np.random.default_rng(4)
        Qr, Kr, Vr = rng.normal(size=(3, 2)), rng.normal(size=(6, 2)), rng.normal(size=(6, 2))
        trace = online.online_attention(Qr, Kr, Vr, 2)
        ms = np.array([block.m for block in trace.blocks])
        assert np.all(np.diff(ms, axis=0) >= 0)
        full = attention.attend(Qr, Kr, Vr)
        np.testing.assert_array_equal(ms[-1], full.shift)
        np.testing.assert_allclose(trace.blocks[-1].l, full.sums, rtol=1e-12)

    def test_a_row_that_sees_no_key_is_refused(self):
        visible = np.array([[True, False, False], [False, False, False]])
        with pytest.raises(ValueError, match=r"query row\(s\) 1 see no key"):
            online.online_attention(np.ones((2, 1)), K, V, 2, visible)

    def test_a_block_size_of_zero_is_refused(self):
        with pytest.raises(ValueError, match=r"block_size must be between 1 and the number of keys \(3\), got 0"):
            online.online_attention(Q, K, V, 0)

    def test_json_form(self):
        visible = steps.visibility(2, 2, True)
        trace = online.online_attention(np.ones((2, 1)), np.ones((2, 1)), np.ones((2, 1)), 1, visible)
        record = json.loads(json.dumps(trace.to_dict(), allow_nan=False))
        assert record["block_size"] == 1 and record["never_stored"] == 4
        assert record["blocks"][1]["scaled"] == [[None], [1.0]]  # masked entries are null, as in trace.py
        assert record["blocks"][0]["rescale"] == [0.0, 0.0]
        assert record["blocks"][1]["m"] == [1.0, 1.0]
