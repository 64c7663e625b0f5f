"""Prefill against a decode step, with and without the cache (macros/engine/decode_cost.py).

Hand case: d_model = 4, h = 2, d_k = 2, 2 bytes a number (the lesson's small layer).
  Weights: W_Q, W_K, W_V of each head 4 x 2 = 8 numbers, 3 * 2 * 8 = 48; W_O 4 x 4 = 16;
  64 numbers, 128 bytes.
  Prefill of p = 3: projections 3 * 3 * 4 * (2 * 2) = 144; causal pairs 1 + 2 + 3 = 6, so
  scores 2 * 6 * 2 = 24 and weighting 24; W_O 3 * 4 * 4 = 48; 240 in all. The cache it fills:
  2 * 3 * 2 * 2 = 24 numbers; read 64 + 24 = 88 numbers = 176 bytes; 240 / 176 per byte.
  Cached step at n = 4: projections 3 * 1 * 4 * 4 = 48; scores 2 * 4 * 2 = 16; weighting 16;
  W_O 1 * 4 * 4 = 16; 96 in all. Cache 2 * 4 * 2 * 2 = 32 numbers; read 64 + 32 = 96 numbers
  = 192 bytes: 96 / 192 = 0.5 multiply-adds per byte.
  Cached step at n = 5: 48 + 20 + 20 + 16 = 104.
  Uncached step at n = 4, the layer over all 4 tokens: 3 * 4 * 16 = 192; 10 pairs, so 40 and
  40; W_O 4 * 16 = 64; 336 in all.
  Prefill of 5: 240 + 60 + 60 + 80 = 440 = 240 + 96 + 104 (prefill of 3, then steps 4 and 5).
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from macros.engine import cost, decode_cost, decoding

SMALL = (4, 2, 2, 2)  # d_model, h, d_k, bytes per number
SIZES = dict(n=st.integers(1, 300), d_model=st.integers(1, 64), h=st.integers(1, 8), d_k=st.integers(1, 16))


class TestByHand:
    def test_the_weights(self):
        assert decode_cost.weight_numbers(4, 2, 2) == 64

    def test_prefill(self):
        p = decode_cost.prefill(3, *SMALL)
        parts = (p.projection_macs, p.score_macs, p.weighting_macs, p.output_macs)
        assert parts == (144, 24, 24, 48) and p.macs == 240
        assert (p.tokens, p.keys, p.cache_numbers, p.numbers_read, p.bytes_read) == (3, 3, 24, 88, 176)
        assert p.intensity == 240 / 176

    def test_cached_step(self):
        s = decode_cost.cached_step(4, *SMALL)
        assert (s.projection_macs, s.score_macs, s.weighting_macs, s.output_macs) == (48, 16, 16, 16)
        assert (s.macs, s.tokens, s.keys, s.cache_numbers, s.numbers_read, s.bytes_read) == (96, 1, 4, 32, 96, 192)
        assert (s.weight_bytes, s.cache_bytes, s.intensity) == (128, 64, 0.5)
        assert decode_cost.cached_step(5, *SMALL).macs == 104

    def test_uncached_step(self):
        u = decode_cost.uncached_step(4, *SMALL)
        assert (u.projection_macs, u.score_macs, u.weighting_macs, u.output_macs, u.macs) == (192, 40, 40, 64, 336)

    def test_a_prompt_then_two_steps_is_the_prefill_of_the_whole_text(self):
        steps = decode_cost.cached_step(4, *SMALL).macs + decode_cost.cached_step(5, *SMALL).macs
        assert decode_cost.prefill(3, *SMALL).macs + steps == decode_cost.prefill(5, *SMALL).macs == 440

    def test_the_realistic_layer(self):
        # d_model 4096 = 32 heads of 128, 2 bytes. Weights 4 * 4096^2 = 67108864 numbers.
        # Step at n = 4096: 67108864 + 2 * 4096 * 4096 = 100663296 multiply-adds, as many
        # numbers read, 201326592 bytes. Prefill of 4096: 4 * 4096^3 = 274877906944 plus
        # 4096 * 4097 * 4096 = 68736253952, 343614160896 multiply-adds; the same 201326592 bytes.
        row = decode_cost.at_length(4096, 4096, 32, 128, 2)
        assert row.step.macs == row.step.numbers_read == 100663296 and row.step.bytes_read == 201326592
        assert row.prefill.macs == 343614160896 and row.prefill.bytes_read == 201326592
        assert row.uncached.macs == row.prefill.macs


class TestIdentities:
    @given(**SIZES)
    def test_the_cached_steps_of_a_text_add_up_to_its_prefill(self, n, d_model, h, d_k):
        # the cache repeats no work, and doing it all at once saves none
        steps = [decode_cost.cached_step(t, d_model, h, d_k, 2) for t in range(1, n + 1)]
        whole = decode_cost.prefill(n, d_model, h, d_k, 2)
        for part in ("projection_macs", "score_macs", "weighting_macs", "output_macs"):
            assert sum(getattr(s, part) for s in steps) == getattr(whole, part)

    @given(**SIZES)
    def test_a_step_without_the_cache_is_the_prefill_of_the_text_so_far(self, n, d_model, h, d_k):
        assert decode_cost.uncached_step(n, d_model, h, d_k, 2) == decode_cost.prefill(n, d_model, h, d_k, 2)

    @given(**SIZES, b=st.integers(1, 4))
    def test_a_cached_step_does_one_multiply_add_per_number_it_reads(self, n, d_model, h, d_k, b):
        step = decode_cost.cached_step(n, d_model, h, d_k, b)
        assert step.macs == step.numbers_read and step.intensity == pytest.approx(1 / b)

    @given(**SIZES)
    def test_prefill_does_at_least_one_multiply_add_per_number_read(self, n, d_model, h, d_k):
        # each weight is used by all n rows: n times as often as in a step
        p = decode_cost.prefill(n, d_model, h, d_k, 1)
        assert p.linear_macs == n * p.weight_numbers and p.macs >= p.numbers_read

    @given(**SIZES)
    def test_doubling_the_cache_doubles_a_steps_scores(self, n, d_model, h, d_k):
        one, two = (decode_cost.cached_step(k, d_model, h, d_k, 2) for k in (n, 2 * n))
        assert two.score_macs == 2 * one.score_macs and two.linear_macs == one.linear_macs

    @given(d_model=st.integers(1, 64), h=st.integers(1, 8), d_k=st.integers(1, 16))
    def test_a_steps_attention_equals_its_projections_at_twice_the_width(self, d_model, h, d_k):
        # 2 h n d_k against 4 d_model h d_k: equal at n = 2 d_model, as in cost.py's layer
        step = decode_cost.cached_step(2 * d_model, d_model, h, d_k, 2)
        assert step.attention_macs == step.linear_macs and step.cache_bytes == step.weight_bytes

    @given(n=st.integers(1, 300), h=st.integers(1, 8), d_k=st.integers(1, 16))
    def test_a_steps_scores_are_the_last_row_of_the_causal_scores(self, n, h, d_k):
        previous = cost.causal_score_macs(n - 1, h, d_k) if n > 1 else 0
        assert decode_cost.step_score_macs(n, h, d_k) == cost.causal_score_macs(n, h, d_k) - previous


class TestTheComputation:
    def test_a_decode_steps_products_are_the_counted_ones(self):
        # step t of one head (n = t + 1 keys): q is (1, d_model) @ (d_model, d_k); the scores
        # are n dot products of d_k; the reading n weights times rows of d_v = d_k
        rng = np.random.default_rng(3)
        d_model, d_k = 4, 2
        X, W = rng.normal(size=(5, d_model)), [rng.normal(size=(d_model, d_k)) for _ in range(3)]
        for step in decoding.decode(X, *W).steps:
            n = step.K_cache.shape[0]
            counted = decode_cost.cached_step(n, d_model, 1, d_k, 2)
            assert step.scores.size * step.q.size == counted.score_macs
            assert step.weights.size * step.V_cache.shape[1] == counted.weighting_macs
            assert 3 * d_model * step.q.size == counted.projection_macs


class TestTable:
    def test_one_row_per_length(self):
        rows = decode_cost.table([1, 4], *SMALL)
        assert [r.n for r in rows] == [1, 4] and rows[1].step.macs == 96
        record = rows[1].to_dict()
        assert record["step"]["macs"] == 96 and record["prefill"]["tokens"] == 4
        assert record["step"]["intensity"] == 0.5 and record["uncached"]["bytes_read"] == 192

    @pytest.mark.parametrize("field", ["n", "d_model", "h", "d_k", "bytes_per_number"])
    def test_zero_sizes_are_refused(self, field):
        sizes = {"n": 4, "d_model": 4, "h": 2, "d_k": 2, "bytes_per_number": 2, field: 0}
        with pytest.raises(ValueError, match=rf"{field} must be a whole number of at least 1, got 0"):
            decode_cost.at_length(**sizes)
