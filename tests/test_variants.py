"""Variants of a computed layer: head order, W_O's row blocks, the head-averaged map.

Hand-computed cases say where each number comes from. Two small layers are used:

- ``uniform_layer``: one query that scores 0 against both keys in both heads, so every
  weight is 1/2 and each head's reading is the plain mean of its two value rows.
- ``three_quarter_layer``: two heads of d_k = 1 whose single query scores ln 3 against
  one key and 0 against the other, so softmax gives e^ln3 / (e^ln3 + e^0) = 3/4 and 1/4.
"""

import itertools

import numpy as np
import pytest

from macros.engine import attention, steps
from macros.engine.variants import (
    head_average,
    head_contributions,
    reorder_heads,
    reorder_row_blocks,
    row_blocks,
)

# Rows 1-2 act on head 1's reading, rows 3-4 on head 2's.
# Output column 1 adds the heads' first coordinates; column 2 is head 1's second minus head 2's.
W_O = np.array([[1, 0], [0, 1], [1, 0], [0, -1]], dtype=float)


def uniform_layer(W_O=W_O):
    Q = np.zeros((1, 2))  # two heads of d_k = 1; a zero query scores 0 against every key
    K = np.array([[1, 2], [3, 4]], dtype=float)
    # head 1's values are [2, 0] and [0, 2]; head 2's are [4, 6] and [0, 2]
    V = np.array([[2, 0, 4, 6], [0, 2, 0, 2]], dtype=float)
    return attention.split_attention(Q, K, V, n_heads=2, W_O=W_O)


def three_quarter_layer():
    Q = np.full((1, 2), np.log(3))  # each head's query is ln 3
    K = np.array([[1, 0], [0, 1]], dtype=float)  # head 1 matches key 1, head 2 matches key 2
    V = np.eye(2).repeat(2, axis=1)  # any values; the weights are what is tested
    return attention.split_attention(Q, K, V, n_heads=2)


def random_layer(seed, d_vs=(1, 2, 3), n=4, d_model=3):
    """A layer whose heads have different value widths, so blocks of W_O differ in size."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d_model))
    heads = [
        (rng.normal(size=(d_model, 2)), rng.normal(size=(d_model, 2)), rng.normal(size=(d_model, d))) for d in d_vs
    ]
    return attention.self_attention(X, heads, W_O=rng.normal(size=(sum(d_vs), d_model)))


class TestUniformLayerByHand:
    def test_the_readings_are_the_means_of_the_value_rows(self):
        trace = uniform_layer()
        np.testing.assert_array_equal(trace.heads[0].output, [[1, 1]])  # ([2, 0] + [0, 2]) / 2
        np.testing.assert_array_equal(trace.heads[1].output, [[2, 4]])  # ([4, 6] + [0, 2]) / 2
        np.testing.assert_array_equal(trace.output, [[3, -3]])  # [1 + 2, 1 - 4]


class TestRowBlocks:
    def test_equal_blocks(self):
        top, bottom = row_blocks(W_O, [2, 2])
        np.testing.assert_array_equal(top, [[1, 0], [0, 1]])  # rows 1-2 of W_O
        np.testing.assert_array_equal(bottom, [[1, 0], [0, -1]])  # rows 3-4 of W_O

    def test_unequal_blocks(self):
        first, rest = row_blocks(W_O, [1, 3])
        np.testing.assert_array_equal(first, [[1, 0]])
        np.testing.assert_array_equal(rest, [[0, 1], [1, 0], [0, -1]])

    def test_sizes_must_cover_the_rows(self):
        with pytest.raises(ValueError, match="do not add up to W_O's 4 rows"):
            row_blocks(W_O, [2, 1])


class TestHeadContributions:
    def test_by_hand(self):
        first, second = head_contributions(uniform_layer())
        np.testing.assert_array_equal(first, [[1, 1]])  # [1, 1] times the identity block
        np.testing.assert_array_equal(second, [[2, -4]])  # [2, 4] times diag(1, -1)

    @pytest.mark.parametrize("seed", range(5))
    def test_the_contributions_add_up_to_the_output(self, seed):
        trace = random_layer(seed)
        np.testing.assert_allclose(sum(head_contributions(trace)), trace.output, rtol=0, atol=1e-12)


class TestReorderHeads:
    def test_swapped_by_hand(self):
        np.testing.assert_array_equal(reorder_heads(uniform_layer(), [1, 0]), [[2, 4, 1, 1]])

    def test_head_order_is_the_concatenation(self):
        trace = uniform_layer()
        np.testing.assert_array_equal(reorder_heads(trace, [0, 1]), trace.concat)

    def test_swapped_heads_with_the_same_W_O_change_the_output(self):
        swapped = steps.output_projection(reorder_heads(uniform_layer(), [1, 0]), W_O)
        np.testing.assert_array_equal(swapped, [[3, 3]])  # [2 + 1, 4 - 1], not [3, -3]

    @pytest.mark.parametrize("order", [[0], [0, 0], [1, 2]])
    def test_an_order_names_every_head_once(self, order):
        with pytest.raises(ValueError, match="expected an order of the 2 heads"):
            reorder_heads(uniform_layer(), order)


class TestReorderRowBlocks:
    def test_swapped_by_hand(self):
        swapped = reorder_row_blocks(W_O, [2, 2], [1, 0])
        np.testing.assert_array_equal(swapped, [[1, 0], [0, -1], [1, 0], [0, 1]])  # rows 3-4, then 1-2

    def test_unequal_blocks_move_whole(self):
        # sizes [1, 3]: block 1 is row 1, block 2 is rows 2-4; swapped, row 1 goes last
        swapped = reorder_row_blocks(W_O, [1, 3], [1, 0])
        np.testing.assert_array_equal(swapped, [[0, 1], [1, 0], [0, -1], [1, 0]])

    def test_swapping_heads_and_blocks_together_restores_the_output_by_hand(self):
        trace = uniform_layer()
        both = steps.output_projection(reorder_heads(trace, [1, 0]), reorder_row_blocks(W_O, [2, 2], [1, 0]))
        np.testing.assert_array_equal(both, [[3, -3]])  # [2, 4] diag(1, -1) + [1, 1] I = [3, -3]

    @pytest.mark.parametrize("seed", range(3))
    @pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
    def test_any_order_of_heads_and_blocks_together_leaves_the_output(self, seed, order):
        trace = random_layer(seed)
        sizes = [head.d_v for head in trace.heads]
        moved = steps.output_projection(reorder_heads(trace, order), reorder_row_blocks(trace.W_O, sizes, order))
        np.testing.assert_allclose(moved, trace.output, rtol=0, atol=1e-12)

    @pytest.mark.parametrize("seed", range(5))
    def test_the_change_from_swapping_two_heads_factorises(self, seed):
        # Concat(Z2, Z1) W_O - Concat(Z1, Z2) W_O = Z2 B1 + Z1 B2 - Z1 B1 - Z2 B2 = (Z2 - Z1)(B1 - B2)
        trace = random_layer(seed, d_vs=(2, 2))
        (z1, z2), (b1, b2) = (h.output for h in trace.heads), row_blocks(trace.W_O, [2, 2])
        change = steps.output_projection(reorder_heads(trace, [1, 0]), trace.W_O) - trace.output
        np.testing.assert_allclose(change, (z2 - z1) @ (b1 - b2), rtol=0, atol=1e-12)


class TestHeadAverage:
    def test_each_head_by_hand(self):
        trace = three_quarter_layer()
        np.testing.assert_allclose(trace.heads[0].weights, [[3 / 4, 1 / 4]], atol=1e-15)  # 3 / (3 + 1)
        np.testing.assert_allclose(trace.heads[1].weights, [[1 / 4, 3 / 4]], atol=1e-15)

    def test_two_confident_heads_average_to_an_even_split(self):
        # (3/4 + 1/4) / 2 = 1/2 on each key: a split that neither head makes
        np.testing.assert_allclose(head_average(three_quarter_layer()), [[1 / 2, 1 / 2]], atol=1e-15)

    def test_one_head_is_its_own_average(self):
        trace = attention.split_attention(np.array([[1.0, 2.0]]), np.eye(2), np.eye(2))
        np.testing.assert_array_equal(head_average(trace), trace.heads[0].weights)

    @pytest.mark.parametrize("seed", range(3))
    def test_rows_still_sum_to_one(self, seed):
        np.testing.assert_allclose(head_average(random_layer(seed)).sum(axis=1), 1, rtol=0, atol=1e-12)
