"""Grouped-query and multi-query attention (macros/engine/groups.py).

Identities: g = h is multi-head; grouped-query equals multi-head with K/V projections
copied across each group; mean-pooling a group of equal projections gives them back.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from macros.engine import attention, groups


def layer(seed, n_heads, n=4, d_model=3, d=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d_model))
    projections = [tuple(rng.normal(size=(d_model, d)) for _ in range(3)) for _ in range(n_heads)]
    return X, projections, rng.normal(size=(n_heads * d, d_model))


divisors = st.sampled_from([(1, 1), (2, 1), (2, 2), (4, 1), (4, 2), (4, 4), (6, 2), (6, 3)])


class TestCheckGroups:
    @pytest.mark.parametrize("h, g, size", [(4, 2, 2), (4, 1, 4), (4, 4, 1), (6, 3, 2)])
    def test_group_size(self, h, g, size):
        assert groups.check_groups(h, g) == size

    @pytest.mark.parametrize("h, g", [(4, 3), (4, 0), (2, 4), (3, 2)])
    def test_a_group_count_that_does_not_divide_is_refused(self, h, g):
        with pytest.raises(ValueError, match=rf"must divide the number of query heads \({h}\), got {g}"):
            groups.check_groups(h, g)


class TestKvHeadFor:
    @pytest.mark.parametrize(
        "i, h, g, expected", [(0, 4, 2, 0), (1, 4, 2, 0), (2, 4, 2, 1), (3, 4, 2, 1), (5, 6, 3, 2)]
    )
    def test_by_hand(self, i, h, g, expected):
        # query head i reads kv head i // (h / g)
        assert groups.kv_head_for(i, h, g) == expected


class TestKvHeadMap:
    @pytest.mark.parametrize(
        "h, g, expected",
        [(4, 2, [0, 0, 1, 1]), (4, 1, [0, 0, 0, 0]), (4, 4, [0, 1, 2, 3]), (6, 3, [0, 0, 1, 1, 2, 2])],
    )
    def test_by_hand(self, h, g, expected):
        assert groups.kv_head_map(h, g) == expected


class TestMeanPool:
    def test_by_hand(self):
        # groups {2, 4} and {6, 8}: means 3 and 7
        pooled = groups.mean_pool([np.array([[x]]) for x in (2.0, 4.0, 6.0, 8.0)], 2)
        np.testing.assert_array_equal(pooled, [[[3.0]], [[7.0]]])

    def test_one_group_is_the_mean_of_all(self):
        pooled = groups.mean_pool([np.array([[1.0, 2.0]]), np.array([[3.0, 6.0]])], 1)
        np.testing.assert_array_equal(pooled, [[[2.0, 4.0]]])

    def test_refuses_a_count_that_does_not_divide(self):
        with pytest.raises(ValueError, match=r"must divide the number of query heads \(3\), got 2"):
            groups.mean_pool([np.eye(2)] * 3, 2)


class TestPoolKv:
    @given(seed=st.integers(0, 2**32 - 1), hg=divisors)
    def test_equal_projections_pool_to_themselves(self, seed, hg):
        h, g = hg
        _, projections, _ = layer(seed, g)
        copied = [(np.eye(3)[:, :2],) + projections[groups.kv_head_for(i, h, g)][1:] for i in range(h)]
        for (W_K, W_V), (_, K0, V0) in zip(groups.pool_kv(copied, g), projections, strict=True):
            np.testing.assert_allclose(W_K, K0, rtol=1e-15)
            np.testing.assert_allclose(W_V, V0, rtol=1e-15)


class TestCopyAcrossGroups:
    def test_by_hand(self):
        a, b = ("K0", "V0"), ("K1", "V1")
        assert groups.copy_across_groups([a, b], 4) == [a, a, b, b]


class TestGroupedAttention:
    @settings(max_examples=25)
    @given(seed=st.integers(0, 2**32 - 1), h=st.integers(1, 4), causal=st.booleans())
    def test_g_equal_h_is_multi_head(self, seed, h, causal):
        X, projections, W_O = layer(seed, h)
        grouped = groups.grouped_attention(X, [p[0] for p in projections], [p[1:] for p in projections], causal, W_O)
        np.testing.assert_array_equal(grouped.output, attention.self_attention(X, projections, causal, W_O).output)

    @settings(max_examples=25)
    @given(seed=st.integers(0, 2**32 - 1), hg=divisors, causal=st.booleans())
    def test_equals_multi_head_with_kv_copied_across_each_group(self, seed, hg, causal):
        h, g = hg
        X, projections, W_O = layer(seed, h)
        W_Qs = [p[0] for p in projections]
        shared = groups.pool_kv(projections, g)
        grouped = groups.grouped_attention(X, W_Qs, shared, causal, W_O)
        copies = [(W_Q, W_K, W_V) for W_Q, (W_K, W_V) in zip(W_Qs, groups.copy_across_groups(shared, h), strict=True)]
        multi = attention.self_attention(X, copies, causal, W_O)
        np.testing.assert_allclose(grouped.output, multi.output, rtol=0, atol=1e-12)

    def test_multi_query_heads_share_one_k_and_v(self):
        X, projections, _ = layer(2, 4)
        trace = groups.grouped_from_multi_head(X, projections, 1)
        for head in trace.heads[1:]:
            np.testing.assert_array_equal(head.K, trace.heads[0].K)
            np.testing.assert_array_equal(head.V, trace.heads[0].V)
        assert not np.array_equal(trace.heads[0].Q, trace.heads[1].Q)

    def test_grouped_heads_share_within_their_group_only(self):
        X, projections, _ = layer(3, 4)
        heads = groups.grouped_from_multi_head(X, projections, 2).heads
        np.testing.assert_array_equal(heads[0].K, heads[1].K)
        np.testing.assert_array_equal(heads[2].K, heads[3].K)
        assert not np.array_equal(heads[1].K, heads[2].K)

    def test_pooled_by_hand(self):
        # X = [[1]]: two heads with W_K = [[2]] and [[4]] pool to W_K = [[3]], so K = [[3]]
        one = np.array([[1.0]])
        projections = [(one, np.array([[2.0]]), one), (one, np.array([[4.0]]), one)]
        trace = groups.grouped_from_multi_head(one, projections, 1)
        np.testing.assert_array_equal(trace.heads[0].K, [[3.0]])

    def test_a_group_count_that_does_not_divide_is_refused(self):
        X, projections, _ = layer(0, 4)
        with pytest.raises(ValueError, match=r"must divide the number of query heads \(4\), got 3"):
            groups.grouped_attention(X, [p[0] for p in projections], [p[1:] for p in projections[:3]])
