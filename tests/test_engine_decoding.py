"""Decoding with a KV cache, and the cache's memory (macros/engine/decoding.py).

Identity: each step's reading equals row t of the full causal computation (1e-12).
"""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from macros.engine import attention, decoding

ONE = np.array([[1.0]])


class TestEmptyCache:
    def test_has_no_rows(self):
        assert decoding.empty_cache(3).shape == (0, 3)


class TestAppendToCache:
    def test_grows_by_one_row_and_keeps_the_rest(self):
        cache = decoding.append_to_cache(np.array([[1.0, 2.0]]), np.array([3.0, 4.0]))
        np.testing.assert_array_equal(cache, [[1.0, 2.0], [3.0, 4.0]])


class TestDecodeStep:
    def test_second_step_by_hand(self):
        # X row 1 = [2], all projections [[1]]: q = k = v = 2. The cache holds k = [1, 2],
        # v = [1, 2]; scores 2*1, 2*2 = [2, 4] (d_k = 1, scale 1); weights
        # [1, e^2] / (1 + e^2) ~ [0.119203, 0.880797]; reading 1*0.119203 + 2*0.880797 ~ 1.880797
        step = decoding.decode_step(1, np.array([2.0]), ONE, ONE, ONE, np.array([[1.0]]), np.array([[1.0]]))
        np.testing.assert_array_equal(step.K_cache, [[1.0], [2.0]])
        np.testing.assert_array_equal(step.scores, [2.0, 4.0])
        np.testing.assert_allclose(step.weights, [1 / (1 + np.e**2), np.e**2 / (1 + np.e**2)], rtol=1e-15)
        assert step.reading[0] == pytest.approx(1.880797, abs=5e-7)


class TestDecode:
    def test_first_step_reads_its_own_value(self):
        # at t = 0 the cache holds one key, whose weight is 1
        trace = decoding.decode(np.array([[1.0], [2.0]]), ONE, ONE, ONE)
        np.testing.assert_array_equal(trace.steps[0].weights, [1.0])
        np.testing.assert_array_equal(trace.steps[0].reading, [1.0])

    def test_the_cache_grows_one_row_per_step_and_never_changes_a_row(self):
        rng = np.random.default_rng(1)
        X, W = rng.normal(size=(4, 3)), [rng.normal(size=(3, 2)) for _ in range(3)]
        trace = decoding.decode(X, *W)
        for t, step in enumerate(trace.steps):
            assert step.t == t and step.K_cache.shape == (t + 1, 2) and step.V_cache.shape == (t + 1, 2)
            if t:
                np.testing.assert_array_equal(step.K_cache[:t], trace.steps[t - 1].K_cache)
                np.testing.assert_array_equal(step.V_cache[:t], trace.steps[t - 1].V_cache)

    @settings(max_examples=30)
    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 7), d_k=st.integers(1, 4), d_v=st.integers(1, 3))
    def test_each_step_is_row_t_of_the_causal_computation(self, seed, n, d_k, d_v):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(n, 3)) * 2
        W_Q, W_K, W_V = rng.normal(size=(3, d_k)), rng.normal(size=(3, d_k)), rng.normal(size=(3, d_v))
        trace = decoding.decode(X, W_Q, W_K, W_V)
        full = attention.self_attention(X, [(W_Q, W_K, W_V)], causal=True).heads[0]
        for t, step in enumerate(trace.steps):
            assert np.max(np.abs(step.reading - full.output[t])) <= 1e-12
            assert np.max(np.abs(step.weights - full.weights[t, : t + 1])) <= 1e-12
        np.testing.assert_allclose(trace.readings, full.output, rtol=0, atol=1e-12)

    def test_json_form(self):
        trace = decoding.decode(np.array([[1.0], [2.0]]), ONE, ONE, ONE)
        record = json.loads(json.dumps(trace.to_dict(), allow_nan=False))
        assert [step["t"] for step in record["steps"]] == [0, 1]
        assert record["steps"][1]["K_cache"] == [[1.0], [2.0]]
        assert record["readings"][0] == [1.0]


class TestKvBytesPerToken:
    @pytest.mark.parametrize(
        "layers, kv_heads, d_k, bytes_per_number, expected",
        [
            # a 7B-class model: 32 layers, 32 heads of 128, 2-byte numbers:
            # 2 (key and value) * 32 * 32 * 128 * 2 = 524288 bytes = 0.5 MiB per token
            (32, 32, 128, 2, 524288),
            # the same with 8 key/value heads (grouped-query): a quarter, 131072
            (32, 8, 128, 2, 131072),
            (1, 1, 2, 8, 32),  # one layer, one head of 2, float64: 2 * 2 * 8
        ],
    )
    def test_by_hand(self, layers, kv_heads, d_k, bytes_per_number, expected):
        assert decoding.kv_bytes_per_token(layers, kv_heads, d_k, bytes_per_number) == expected

    def test_values_of_another_width(self):
        assert decoding.kv_bytes_per_token(1, 1, 2, 4, d_v=3) == (2 + 3) * 4

    @pytest.mark.parametrize("field", ["layers", "kv_heads", "d_k", "bytes_per_number"])
    def test_zero_is_refused(self, field):
        sizes = {"layers": 1, "kv_heads": 1, "d_k": 2, "bytes_per_number": 2, field: 0}
        with pytest.raises(ValueError, match=rf"{field} must be a whole number of at least 1, got 0"):
            decoding.kv_bytes_per_token(**sizes)


class TestKvCacheBytes:
    def test_linear_in_length(self):
        assert decoding.kv_cache_bytes(1024, 32, 32, 128, 2) == 1024 * 524288  # 512 MiB

    def test_zero_length_is_refused(self):
        with pytest.raises(ValueError, match="n must be a whole number of at least 1, got 0"):
            decoding.kv_cache_bytes(0, 1, 1, 2, 2)


class TestKvCacheTable:
    def test_by_hand(self):
        # per token 2 * 2 * 1 * 4 * 2 = 32 bytes
        assert decoding.kv_cache_table([1, 10, 100], 2, 1, 4, 2) == [(1, 32), (10, 320), (100, 3200)]
