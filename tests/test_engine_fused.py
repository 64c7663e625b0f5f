"""The fused, batched form of multi-head attention (macros/engine/fused.py).

Hand case (the lesson "From hand to code"): X row 1 = [1, 0, 1, 0]; head 1's W_Q has
columns [1, 0, 1, 0] and [0, 1, 1, 0], so its query is [1 + 1, 0 + 1] = [2, 1]; head 2's W_Q
has columns [0, 1, 0, 1] and [1, 0, 0, -1], so its query is [0, 1]. The fused row is
[2, 1, 0, 1]. The layer's values are checked against the separate-heads loop
(macros/engine/attention.py), which the earlier lessons' seeds check by hand.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from macros import lessons
from macros.engine import attention, fused
from macros.render import head_costs, tensors
from tests import computed

LESSON = lessons.LESSONS / "from-hand-to-code"


class TestSteps:
    def test_stack_heads_puts_blocks_side_by_side(self):
        A, B = np.array([[1, 2], [3, 4]]), np.array([[5], [6]])
        assert fused.stack_heads([A, B]).tolist() == [[1, 2, 5], [3, 4, 6]]

    def test_split_heads_by_hand(self):
        M = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])  # (n=3, h*d=4)
        assert fused.by_position(M, 2).tolist() == [[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[9, 10], [11, 12]]]
        assert fused.split_heads(M, 2).tolist() == [[[1, 2], [5, 6], [9, 10]], [[3, 4], [7, 8], [11, 12]]]

    @given(st.integers(1, 5), st.integers(1, 4), st.integers(1, 4))
    def test_merge_heads_undoes_split_heads(self, n, h, d):
        M = np.arange(n * h * d, dtype=float).reshape(n, h * d)
        assert np.array_equal(fused.merge_heads(fused.split_heads(M, h)), M)

    def test_batched_scores_are_each_heads_product(self):
        rng = np.random.default_rng(3)
        Q, K = rng.normal(size=(3, 4, 2)), rng.normal(size=(3, 5, 2))
        scores = fused.batched_scores(Q, K)
        assert scores.shape == (3, 4, 5)
        for i in range(3):
            np.testing.assert_allclose(scores[i], Q[i] @ K[i].T, rtol=0, atol=1e-14)

    def test_masked_keys_get_exactly_zero_weight_and_rows_sum_to_one(self):
        visible = np.tril(np.ones((3, 3), dtype=bool))
        weights = fused.batched_softmax(fused.mask_scores(np.ones((2, 3, 3)), visible))
        assert np.all(weights[:, ~visible] == 0.0)
        np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=0, atol=1e-15)
        assert weights[0, 1].tolist() == [0.5, 0.5, 0.0]  # two equal visible scores

    def test_torch_layout_is_out_by_in(self):
        W = np.arange(8.0).reshape(4, 2)  # (in, out) as the book writes it
        assert fused.torch_layout(W).shape == (2, 4) and fused.torch_layout(W)[1].tolist() == [1, 3, 5, 7]


class TestSameAsSeparateHeads:
    def test_the_lessons_first_query_row_by_hand(self):
        trace = fused.run(computed.lesson(LESSON.name).fixture)
        assert trace.XW_Q[0].tolist() == [2, 1, 0, 1]
        assert trace.Q[0, 0].tolist() == [2, 1] and trace.Q[1, 0].tolist() == [0, 1]

    def test_the_lesson(self):
        lesson = computed.lesson(LESSON.name)
        trace = fused.run(lesson.fixture)
        np.testing.assert_allclose(trace.output, lesson.trace.output, rtol=0, atol=1e-12)
        np.testing.assert_allclose(trace.concat, lesson.trace.concat, rtol=0, atol=1e-12)
        for i, head in enumerate(lesson.trace.heads):
            np.testing.assert_allclose(trace.weights[i], head.weights, rtol=0, atol=1e-12)

    @pytest.mark.parametrize("causal", [False, True])
    @given(st.integers(1, 4), st.sampled_from([(1, 4), (2, 2), (4, 1), (2, 3)]), st.integers(0, 2**32 - 1))
    def test_random_layers(self, causal, n, heads_and_width, seed):
        h, d = heads_and_width
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(n, 5))
        projections = [tuple(rng.normal(size=(5, d)) for _ in range(3)) for _ in range(h)]
        W_O = rng.normal(size=(h * d, 5))
        looped = attention.self_attention(X, projections, causal, W_O)
        batched = fused.fused_attention(X, projections, causal, W_O)
        np.testing.assert_allclose(batched.output, looped.output, rtol=1e-12, atol=1e-12)

    def test_a_changed_head_changes_the_result(self):
        # Negative control: the comparison above can fail.
        X = np.eye(3)
        projections = [(np.eye(3)[:, :1], np.eye(3)[:, :1], np.eye(3)[:, :1])] * 2
        other = [projections[0], (np.eye(3)[:, 1:2],) * 3]
        assert not np.allclose(fused.fused_attention(X, projections).output, attention.self_attention(X, other).output)


class TestHeadCosts:
    def test_rows_by_hand(self):
        # n = 3, d_model = 4: parameters 4 * 4^2 = 64; multiply-adds 3*3*16 + 3*16 + 2*9*4 = 264.
        rows = head_costs.rows(3, 4, [1, 2, 4])
        assert [(r["heads"], r["d_k"], r["parameters"], r["macs"]) for r in rows] == [
            (1, 4, 64, 264),
            (2, 2, 64, 264),
            (4, 1, 64, 264),
        ]

    def test_table(self):
        lines = [line for line in head_costs.table(3, 4, [1, 2]).splitlines() if line.startswith("|")]
        # score entries: h · n · n = 9, then 18
        assert lines[2] == "| 1 | 4 | 64 | 264 | 9 |" and lines[3] == "| 2 | 2 | 64 | 264 | 18 |"


class TestTensorLatex:
    def test_one_form_for_the_whole_array_and_minus_infinity(self):
        T = np.array([[[1.0, -np.inf]], [[0.5, 2.0]]])
        assert tensors.tensor(T, 2) == (
            r"\left[\; \begin{bmatrix} 1.00 & -\infty \end{bmatrix},\; "
            r"\begin{bmatrix} 0.50 & 2.00 \end{bmatrix} \;\right]"
        )

    def test_whole_numbers_stay_whole(self):
        assert tensors.tensor(np.ones((1, 1, 2)), 3) == r"\left[\; \begin{bmatrix} 1 & 1 \end{bmatrix} \;\right]"

    def test_stacked_puts_the_matrices_one_under_the_other(self):
        assert tensors.tensor(np.ones((2, 1, 1)), 2, stacked=True) == (
            r"\left[\; \begin{matrix} \begin{bmatrix} 1 \end{bmatrix}, \\ {} \\ "
            r"\begin{bmatrix} 1 \end{bmatrix} \end{matrix} \;\right]"
        )

    def test_shape(self):
        assert tensors.shape(np.zeros((2, 3, 2))) == "(2, 3, 2)"

    def test_refuses_a_matrix(self):
        with pytest.raises(ValueError, match=r"expected an array of 3 axes, got shape \(2, 2\)"):
            tensors.tensor(np.eye(2), 2)

    def test_a_hidden_weight_is_an_exact_zero_beside_a_small_one(self):
        """From-hand-to-code's weights: a masked weight reads 0, a real small one 0.011."""
        T = np.array([[[1.0, 0.0], [0.989, 0.011]], [[1.0, 0.0], [0.5, 0.5]]])
        assert tensors.tensor(T, 3, visible=[[True, False], [True, True]]) == (
            r"\left[\; \begin{bmatrix} 1.000 & 0 \\ 0.989 & 0.011 \end{bmatrix},\; "
            r"\begin{bmatrix} 1.000 & 0 \\ 0.500 & 0.500 \end{bmatrix} \;\right]"
        )
        # 0 is 0, mask or not
        assert tensors.tensor(T, 3) == tensors.tensor(T, 3, visible=[[True, False], [True, True]])

    def test_a_hidden_score_is_minus_infinity_and_takes_no_part_in_the_form(self):
        T = np.array([[[2.0, -np.inf], [1.0, 3.0]]])
        assert tensors.tensor(T, 3, visible=np.array([[[True, False], [True, True]]])) == (
            r"\left[\; \begin{bmatrix} 2 & -\infty \\ 1 & 3 \end{bmatrix} \;\right]"
        )

    def test_a_mask_of_another_shape_is_refused(self):
        with pytest.raises(ValueError, match=r"tensor\(\): visible= has shape \(3, 3\), the array \(1, 2, 2\)"):
            tensors.tensor(np.zeros((1, 2, 2)), 3, visible=np.ones((3, 3)))
