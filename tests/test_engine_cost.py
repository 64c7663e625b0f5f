"""Cost counts of one attention layer (macros/engine/cost.py).

Hand case: n = 4, d_model = 8, h = 2, d_k = 4:
  projections 3 * 4 * 8 * (2 * 4) = 768; scores 2 * 4 * 4 * 4 = 128; weighting 128;
  W_O 4 * 8 * 8 = 256; score numbers 2 * 16 = 32 (weights as many); Q, K, V 3 * 4 * 8 = 96;
  KV cache 2 * 4 * 8 = 64 (the K and V among those 96, not more numbers).
  Causal, hidden pairs skipped: 1 + 2 + 3 + 4 = 10 pairs, so scores 2 * 10 * 4 = 80 and
  weighting 80. A window of 2 keys: 1 + 2 + 2 + 2 = 7 pairs, scores and weighting
  2 * 2 * 7 * 4 = 112.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from macros.engine import cost, masks
from macros.render import cost_chart


class TestCounts:
    def test_each_count_by_hand(self):
        assert cost.projection_macs(4, 8, 2, 4) == 768
        assert cost.score_macs(4, 2, 4) == 128
        assert cost.weighting_macs(4, 2, 4) == 128
        assert cost.output_macs(4, 8, 2, 4) == 256
        assert cost.score_numbers(4, 2) == 32
        assert cost.projected_numbers(4, 2, 4) == 96
        assert cost.kv_cache_numbers(4, 2, 4) == 64
        assert cost.causal_score_macs(4, 2, 4) == 80
        assert cost.causal_weighting_macs(4, 2, 4) == 80

    def test_score_macs_match_the_matrix_product(self):
        # (n, d_k) @ (d_k, n) per head: n * n entries, each a sum of d_k products
        Q = np.ones((5, 3))
        assert (Q @ Q.T).size * Q.shape[1] == cost.score_macs(5, 1, 3)


class TestLayerCost:
    def test_by_hand(self):
        layer = cost.layer_cost(4, 8, 2, 4)
        assert layer.quadratic_macs == 256 and layer.linear_macs == 1024
        assert layer.quadratic_numbers == 64 and layer.linear_numbers == 96
        assert layer.causal_quadratic_macs == 160 and layer.window_macs(2) == 112
        assert layer.quadratic_share == 0.2  # 256 / (256 + 1024)
        record = layer.to_dict()
        assert record["n"] == 4 and record["score_macs"] == 128 and record["linear_macs"] == 1024
        assert record["causal_quadratic_macs"] == 160 and record["linear_numbers"] == 96

    def test_the_kv_cache_is_counted_once(self):
        # The cache is K and V: two of the three projected matrices, inside linear_numbers.
        layer = cost.layer_cost(4, 8, 2, 4)
        assert layer.linear_numbers == layer.projected_numbers
        assert 3 * layer.kv_cache_numbers == 2 * layer.projected_numbers

    def test_the_lesson_sizes_by_hand(self):
        # n = 32768, h = 32, d_k = 128, window 4096: 4096 * 4097 / 2 + 28672 * 4096
        # = 8390656 + 117440512 = 125831168 pairs; times 2 * 32 * 128 = 8192 multiply-adds
        # per pair (score and weighting) = 1030808928256. Causal: 32768 * 32769 / 2 =
        # 536887296 pairs, times 8192 = 4398180728832.
        layer = cost.layer_cost(32768, 4096, 32, 128)
        assert layer.window_macs(4096) == 1030808928256
        assert layer.causal_quadratic_macs == 4398180728832
        assert layer.window_macs(4096) == 2 * cost.window_score_macs(32768, 4096, 32, 128)

    @given(n=st.integers(1, 200), h=st.integers(1, 4), d_k=st.integers(1, 8))
    def test_a_window_as_long_as_the_text_is_the_causal_layer(self, n, h, d_k):
        layer = cost.layer_cost(n, 8, h, d_k)
        assert layer.window_macs(n) == layer.causal_quadratic_macs
        assert layer.window_macs(n + 5) == layer.causal_quadratic_macs

    @given(n=st.integers(1, 200), window=st.integers(1, 50))
    def test_a_window_scores_at_most_n_times_window_pairs(self, n, window):
        layer = cost.layer_cost(n, 8, 2, 4)
        assert layer.window_macs(window) <= 2 * 2 * n * window * 4
        assert layer.window_macs(window) <= layer.causal_quadratic_macs <= layer.quadratic_macs

    @given(n=st.integers(1, 500), d_model=st.integers(1, 64))
    def test_the_quadratic_share_is_n_over_n_plus_twice_the_width(self, n, d_model):
        # 2 h n^2 d_k / (2 h n^2 d_k + 4 n d_model h d_k) = n / (n + 2 d_model), any h and d_k
        assert cost.layer_cost(n, d_model, 3, 5).quadratic_share == pytest.approx(n / (n + 2 * d_model))

    @given(n=st.integers(1, 500), d_model=st.integers(1, 64), h=st.integers(1, 8), d_k=st.integers(1, 16))
    def test_doubling_n_quadruples_the_quadratic_part_and_doubles_the_linear(self, n, d_model, h, d_k):
        one, two = cost.layer_cost(n, d_model, h, d_k), cost.layer_cost(2 * n, d_model, h, d_k)
        assert two.quadratic_macs == 4 * one.quadratic_macs and two.quadratic_numbers == 4 * one.quadratic_numbers
        assert two.linear_macs == 2 * one.linear_macs and two.linear_numbers == 2 * one.linear_numbers

    def test_the_quadratic_part_overtakes_past_the_width(self):
        # quadratic 2 h n^2 d_k vs linear 4 n d_model h d_k: equal at n = 2 d_model
        d_model, h, d_k = 64, 4, 16
        at = cost.layer_cost(2 * d_model, d_model, h, d_k)
        assert at.quadratic_macs == at.linear_macs
        assert (
            cost.layer_cost(4 * d_model, d_model, h, d_k).quadratic_macs
            > cost.layer_cost(4 * d_model, d_model, h, d_k).linear_macs
        )

    @pytest.mark.parametrize("field", ["n", "d_model", "h", "d_k"])
    def test_zero_sizes_are_refused(self, field):
        sizes = {"n": 4, "d_model": 8, "h": 2, "d_k": 4, field: 0}
        with pytest.raises(ValueError, match=rf"{field} must be a whole number of at least 1, got 0"):
            cost.layer_cost(**sizes)

    def test_a_fraction_is_refused(self):
        with pytest.raises(ValueError, match=r"n must be a whole number of at least 1, got 2.5"):
            cost.layer_cost(2.5, 8, 2, 4)


class TestCostTable:
    def test_one_row_per_length(self):
        table = cost.cost_table([1, 2, 4], 8, 2, 4)
        assert [row.n for row in table] == [1, 2, 4]
        assert [row.score_macs for row in table] == [8, 32, 128]  # 2 * n^2 * 4


class TestWindowPairs:
    @pytest.mark.parametrize("n, window, expected", [(4, 2, 7), (4, 1, 4), (3, 5, 6)])  # 1+2+2+2; 1+1+1+1; 1+2+3
    def test_by_hand(self, n, window, expected):
        assert cost.window_pairs(n, window) == expected

    @given(n=st.integers(1, 9), window=st.integers(1, 9))
    def test_counts_the_visible_entries_of_the_mask(self, n, window):
        assert cost.window_pairs(n, window) == int(masks.sliding_window(n, window).sum())

    @given(n=st.integers(1, 50))
    def test_a_window_of_n_is_causal(self, n):
        assert cost.window_pairs(n, n) == cost.causal_pairs(n)

    def test_a_window_of_zero_is_refused(self):
        with pytest.raises(ValueError, match="window must be a whole number of at least 1, got 0"):
            cost.window_pairs(4, 0)


class TestCausalPairs:
    def test_by_hand(self):
        assert cost.causal_pairs(4) == 10  # 1 + 2 + 3 + 4


class TestWindowScoreMacs:
    def test_by_hand(self):
        assert cost.window_score_macs(4, 2, 2, 4) == 2 * 7 * 4

    def test_linear_in_n_once_past_the_window(self):
        # each extra query past the window adds exactly window dot products
        assert cost.window_score_macs(101, 8, 1, 1) - cost.window_score_macs(100, 8, 1, 1) == 8


class TestHeadSplitCounts:
    def test_by_hand(self):
        # n = 4, d_model = 8: W_Q, W_K, W_V, W_O hold 4 * 64 = 256 numbers either way; the
        # work is 3*4*64 + 4*64 (linear) + 2*16*8 (quadratic) = 1280 either way; two heads
        # hold two 4x4 score matrices, one head one.
        counts = cost.head_split_counts(4, 8, 2)
        assert counts["split"] == {"heads": 2, "d_k": 4, "parameters": 256, "macs": 1280, "score_numbers": 32}
        assert counts["single"] == {"heads": 1, "d_k": 8, "parameters": 256, "macs": 1280, "score_numbers": 16}

    @given(n=st.integers(1, 64), d_k=st.integers(1, 16), h=st.integers(1, 8))
    def test_same_parameters_and_work_for_any_split(self, n, d_k, h):
        counts = cost.head_split_counts(n, h * d_k, h)
        assert counts["split"]["parameters"] == counts["single"]["parameters"]
        assert counts["split"]["macs"] == counts["single"]["macs"]
        assert counts["split"]["score_numbers"] == h * counts["single"]["score_numbers"]

    def test_heads_that_do_not_divide_the_width_are_refused(self):
        with pytest.raises(ValueError, match=r"the number of heads must divide d_model \(8\), got 3"):
            cost.head_split_counts(4, 8, 3)


class TestLineChart:
    def test_every_series_is_drawn(self):
        svg = cost_chart.line_chart([1, 2], [("a", [1, 2]), ("b", [2, 4]), ("c", [3, 6])], "t", "n", "count")
        assert svg.count("<polyline") == 3

    def test_more_series_than_line_styles_are_refused(self):
        series = [(name, [1, 2]) for name in "abcd"]
        with pytest.raises(ValueError, match="a line chart draws at most 3 series, got 4"):
            cost_chart.line_chart([1, 2], series, "t", "n", "count")
