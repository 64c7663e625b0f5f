"""Sinusoidal encodings and rotary rotation (macros/engine/positions.py).

Hand values are worked in the comments; identities: attention without positions is
permutation-equivariant, rotary scores depend only on the offset, rotations keep lengths.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from macros.engine import attention, positions


class TestCheckEncoding:
    @pytest.mark.parametrize("name", ["sinusoidal", "rotary"])
    def test_known(self, name):
        assert positions.check_encoding(name) == name

    @pytest.mark.parametrize("name", ["sinusoid", "Rotary", "alibi", ""])
    def test_unknown_is_refused(self, name):
        with pytest.raises(ValueError, match=rf"encoding must be one of sinusoidal, rotary, got {name!r}"):
            positions.check_encoding(name)


class TestSinusoidalFrequencies:
    def test_by_hand(self):
        # d_model = 4: pairs i = 0, 1 turn at 1/10000^0 = 1 and 1/10000^(2/4) = 1/100
        np.testing.assert_allclose(positions.sinusoidal_frequencies(4), [1.0, 0.01], rtol=1e-15)

    def test_zero_width_is_refused(self):
        with pytest.raises(ValueError, match="d_model must be at least 1, got 0"):
            positions.sinusoidal_frequencies(0)


class TestSinusoidal:
    def test_two_by_two_by_hand(self):
        # PE[0] = [sin 0, cos 0] = [0, 1]; PE[1] = [sin 1, cos 1] ~ [0.841471, 0.540302]
        np.testing.assert_allclose(positions.sinusoidal(2, 2), [[0.0, 1.0], [0.841471, 0.540302]], atol=5e-7)

    def test_second_pair_turns_a_hundred_times_slower(self):
        # d_model = 4, p = 1: [sin 1, cos 1, sin 0.01, cos 0.01]
        PE = positions.sinusoidal(2, 4)
        np.testing.assert_allclose(PE[1], [np.sin(1), np.cos(1), np.sin(0.01), np.cos(0.01)], rtol=1e-15)

    def test_odd_width_keeps_the_last_sine(self):
        # d_model = 3: pair 1 has frequency 1/10000^(2/3) ~ 0.00215443, and no cosine column
        PE = positions.sinusoidal(2, 3)
        assert PE.shape == (2, 3)
        assert PE[1, 2] == pytest.approx(np.sin(10000 ** (-2 / 3)), rel=1e-15)
        assert PE[1, 2] == pytest.approx(0.00215443, abs=5e-9)

    @given(n=st.integers(1, 8), d_model=st.integers(1, 8))
    def test_every_pair_lies_on_the_unit_circle(self, n, d_model):
        PE = positions.sinusoidal(n, d_model)
        pairs = d_model // 2
        radii = PE[:, 0 : 2 * pairs : 2] ** 2 + PE[:, 1 : 2 * pairs : 2] ** 2
        np.testing.assert_allclose(radii, 1.0, rtol=0, atol=1e-15)


class TestAddPositions:
    def test_adds(self):
        # [[1, 2] + [0, 1], [3, 4] + [sin 1, cos 1]] ~ [[1, 3], [3.841471, 4.540302]]
        encoded = positions.add_positions(np.array([[1.0, 2.0], [3.0, 4.0]]), positions.sinusoidal(2, 2))
        np.testing.assert_allclose(encoded, [[1.0, 3.0], [3.841471, 4.540302]], atol=5e-7)

    def test_wrong_shape_is_refused(self):
        with pytest.raises(ValueError, match=r"the encodings must be 2x2 like X, got 3x2"):
            positions.add_positions(np.ones((2, 2)), np.ones((3, 2)))

    @settings(max_examples=25)
    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 6))
    def test_attention_alone_does_not_see_order_positions_do(self, seed, n):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(n, 4))
        projections = [tuple(rng.normal(size=(4, 2)) for _ in range(3))]
        order = np.roll(np.arange(n), 1)  # a permutation that moves every row
        plain = attention.self_attention(X, projections).output
        # permuting the input rows permutes the output rows exactly
        np.testing.assert_allclose(attention.self_attention(X[order], projections).output, plain[order], atol=1e-12)
        # with the encodings added, the permuted input no longer gives the permuted output
        PE = positions.sinusoidal(n, 4)
        encoded = attention.self_attention(positions.add_positions(X, PE), projections).output
        moved = attention.self_attention(positions.add_positions(X[order], PE), projections).output
        assert not np.allclose(moved, encoded[order], atol=1e-6)


class TestRotaryFrequencies:
    def test_by_hand(self):
        # d_k = 4, base 100: theta_0 = 100^0 = 1, theta_1 = 100^(-2/4) = 0.1
        np.testing.assert_allclose(positions.rotary_frequencies(4, 100), [1.0, 0.1], rtol=1e-15)

    @pytest.mark.parametrize("d_k", [1, 3, 5, 0])
    def test_odd_d_k_is_refused(self, d_k):
        with pytest.raises(ValueError, match=rf"rotary needs an even d_k .*got d_k = {d_k}"):
            positions.rotary_frequencies(d_k)

    @pytest.mark.parametrize("base", [0, -10])
    def test_a_base_that_is_not_positive_is_refused(self, base):
        with pytest.raises(ValueError, match=rf"the rotary base must be a positive number, got {base}"):
            positions.rotary_frequencies(2, base)


class TestRotaryAngles:
    def test_by_hand(self):
        # positions 0, 3 with theta = [1, 0.1]: angles [[0, 0], [3, 0.3]]
        np.testing.assert_allclose(positions.rotary_angles([0, 3], 4, base=100), [[0, 0], [3, 0.3]], rtol=1e-15)


class TestRotatePairs:
    def test_a_quarter_turn_by_hand(self):
        # (1, 0) turned by pi/2 is (0, 1); (0, 1) turned by pi/2 is (-1, 0)
        turned = positions.rotate_pairs(np.array([[1.0, 0.0], [0.0, 1.0]]), np.full((2, 1), np.pi / 2))
        np.testing.assert_allclose(turned, [[0.0, 1.0], [-1.0, 0.0]], atol=1e-16)

    def test_angles_of_the_wrong_shape_are_refused(self):
        with pytest.raises(ValueError, match=r"angles must be 1x2 \(rows x pairs\), got \(1, 1\)"):
            positions.rotate_pairs(np.ones((1, 4)), np.ones((1, 1)))

    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 5), pairs=st.integers(1, 4))
    def test_a_rotation_keeps_each_pairs_length(self, seed, n, pairs):
        rng = np.random.default_rng(seed)
        M, angles = rng.normal(size=(n, 2 * pairs)), rng.normal(size=(n, pairs)) * 10
        turned = positions.rotate_pairs(M, angles)
        before = M[:, 0::2] ** 2 + M[:, 1::2] ** 2
        np.testing.assert_allclose(turned[:, 0::2] ** 2 + turned[:, 1::2] ** 2, before, rtol=1e-12)


class TestRotary:
    def test_four_wide_by_hand(self):
        # q = [1, 0, 1, 0] at position 3, base 100: angles [3, 0.3] -> [cos 3, sin 3, cos 0.3, sin 0.3]
        turned = positions.rotary(np.array([[1.0, 0.0, 1.0, 0.0]]), [3], base=100)
        np.testing.assert_allclose(turned, [[np.cos(3), np.sin(3), np.cos(0.3), np.sin(0.3)]], rtol=1e-15)

    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 4))
    def test_position_zero_is_no_rotation(self, seed, n):
        M = np.random.default_rng(seed).normal(size=(n, 4))
        np.testing.assert_array_equal(positions.rotary(M, np.zeros(n)), M)


class TestRotaryScore:
    def test_two_by_two_by_hand(self):
        # d_k = 2, theta_0 = 1. q = (1, 0) at position 1 -> (cos 1, sin 1); k = (0, 1) at
        # position 2 -> (-sin 2, cos 2). Score: -cos 1 sin 2 + sin 1 cos 2 = sin(1 - 2) = -sin 1 ~ -0.841471
        value = positions.rotary_score([1.0, 0.0], [0.0, 1.0], 1, 2)
        assert value == pytest.approx(-np.sin(1.0), abs=1e-15)
        assert value == pytest.approx(-0.841471, abs=5e-7)

    def test_same_vector_three_apart(self):
        # q = k = (1, 0), offset 2 with theta 1: cos 2 ~ -0.416147
        assert positions.rotary_score([1.0, 0.0], [1.0, 0.0], 1, 3) == pytest.approx(np.cos(2.0), abs=1e-15)

    def test_the_lessons_offset_identity(self):
        # q at 1 and k at 3 give the score of q at 4 and k at 6 (issue 11, to 1e-12)
        rng = np.random.default_rng(11)
        q, k = rng.normal(size=8), rng.normal(size=8)
        assert abs(positions.rotary_score(q, k, 1, 3) - positions.rotary_score(q, k, 4, 6)) <= 1e-12

    @settings(max_examples=40)
    @given(
        seed=st.integers(0, 2**32 - 1),
        pairs=st.integers(1, 4),
        p_q=st.integers(0, 50),
        p_k=st.integers(0, 50),
        shift=st.integers(0, 50),
    )
    def test_depends_only_on_the_offset(self, seed, pairs, p_q, p_k, shift):
        rng = np.random.default_rng(seed)
        q, k = rng.normal(size=2 * pairs), rng.normal(size=2 * pairs)
        here = positions.rotary_score(q, k, p_q, p_k)
        there = positions.rotary_score(q, k, p_q + shift, p_k + shift)
        assert abs(here - there) <= 1e-12

    def test_odd_d_k_is_refused(self):
        with pytest.raises(ValueError, match="rotary needs an even d_k"):
            positions.rotary_score([1.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0, 1)


class TestRotaryHead:
    def test_rotates_q_and_k_not_v(self):
        rng = np.random.default_rng(5)
        Q, K, V = rng.normal(size=(3, 4)), rng.normal(size=(3, 4)), rng.normal(size=(3, 2))
        trace = positions.rotary_head(Q, K, V, causal=True)
        np.testing.assert_array_equal(trace.head.Q, positions.rotary(Q, [0, 1, 2]))
        np.testing.assert_array_equal(trace.head.K, positions.rotary(K, [0, 1, 2]))
        np.testing.assert_array_equal(trace.head.V, V)
        np.testing.assert_array_equal(trace.Q, Q)
        assert trace.head.weights[0, 1] == 0.0  # causal

    def test_given_positions_by_hand(self):
        # one query at position 1, one key at position 2 of the 2x2 case above: raw score -sin 1
        trace = positions.rotary_head(
            np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]]), np.ones((1, 1)), q_positions=[1], k_positions=[2]
        )
        assert trace.head.scores[0, 0] == pytest.approx(-np.sin(1.0), abs=1e-15)
        np.testing.assert_array_equal(trace.q_angles, [[1.0]])
        np.testing.assert_array_equal(trace.k_angles, [[2.0]])

    def test_json_form(self):
        trace = positions.rotary_head(np.eye(2), np.eye(2), np.eye(2), causal=True)
        record = trace.to_dict()
        assert set(record) == {"Q", "K", "q_angles", "k_angles", "head"}
        assert record["head"]["scaled"][0][1] is None  # masked, as in trace.py
        assert record["k_angles"] == [[0.0], [1.0]]


class TestRotateHalf:
    def test_by_hand(self):
        # d_k = 4, one row [1, 2, 3, 4] at angles (a, b): pairs (1, 3) and (2, 4) turn.
        a, b = 0.5, 0.25
        got = positions.rotate_half(np.array([[1.0, 2.0, 3.0, 4.0]]), np.array([[a, b]]))[0]
        want = [
            np.cos(a) - 3 * np.sin(a),
            2 * np.cos(b) - 4 * np.sin(b),
            np.sin(a) + 3 * np.cos(a),
            2 * np.sin(b) + 4 * np.cos(b),
        ]
        assert np.allclose(got, want, atol=1e-15)

    def test_the_two_layouts_agree_on_reordered_columns_and_not_otherwise(self):
        rng = np.random.default_rng(3)
        Q, K = rng.normal(size=(3, 6)), rng.normal(size=(3, 6))
        order = positions.half_order(6)
        interleaved = positions.rotary(Q, [0, 1, 2], 100.0) @ positions.rotary(K, [0, 1, 2], 100.0).T
        half = (
            positions.rotary(Q[:, order], [0, 1, 2], 100.0, "half")
            @ positions.rotary(K[:, order], [0, 1, 2], 100.0, "half").T
        )
        assert np.allclose(interleaved, half, atol=1e-12)
        plain_half = positions.rotary(Q, [0, 1, 2], 100.0, "half") @ positions.rotary(K, [0, 1, 2], 100.0, "half").T
        assert not np.allclose(interleaved, plain_half, atol=1e-3)
