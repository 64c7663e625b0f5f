"""Named facts on hand-made matrices: each fact holds where it should and fails where it should not."""

from types import SimpleNamespace

import numpy as np
import pytest

from macros.errors import ClaimError, LessonError
from macros.vocabulary import facts


def head(Q, K, V, visible=None):
    Q, K, V = (np.asarray(M, dtype=float) for M in (Q, K, V))
    seen = np.ones((Q.shape[0], K.shape[0]), bool) if visible is None else np.asarray(visible, bool)
    return SimpleNamespace(Q=Q, K=K, V=V, visible=seen, d_k=Q.shape[1], d_v=V.shape[1])


# A single head of width 2 on three positions, and its two columns as heads of width 1.
Q = [[1, 2], [3, 4], [5, 6]]
K = [[0, 1], [1, 0], [1, 1]]
V = [[7, 8], [9, 10], [11, 12]]
SINGLE = head(Q, K, V)
LEFT = head([[1], [3], [5]], [[0], [1], [1]], [[7], [9], [11]])
RIGHT = head([[2], [4], [6]], [[1], [0], [1]], [[8], [10], [12]])


class TestMatrices:
    def test_columns_follow_slices(self):
        M = [[1, 2, 3], [4, 5, 6]]
        assert facts.columns(M, 0, 2).tolist() == [[1, 2], [4, 5]]
        assert facts.columns(M, 2).tolist() == [[3], [6]]

    def test_identity(self):
        assert facts.is_identity(np.eye(3))
        assert not facts.is_identity([[1, 0], [0, 2]])  # a diagonal, not the identity
        assert not facts.is_identity([[1, 0, 0], [0, 1, 0]])  # not square
        assert not facts.is_identity([[1, 1], [0, 1]])  # an off-diagonal entry

    def test_equal_rows_needs_every_pair_to_agree(self):
        A, B = [[1, 0], [0, 1], [1, 1]], [[1, 0], [0, 1], [-1, 1]]
        assert facts.equal_rows((A, B)) == [0, 1]
        assert facts.equal_rows((A, B), ([[1], [2], [3]], [[1], [5], [3]])) == [0]

    def test_selects_columns(self):
        X = [[1, 2, 3, 4], [5, 6, 7, 8]]
        assert facts.selects_columns([[3, 4], [7, 8]], X, 2, 4)
        assert not facts.selects_columns([[3, 4], [7, 8]], X, 0, 2)
        assert not facts.selects_columns([[3], [7]], X, 2, 4)  # one column short

    def test_same_projection(self):
        W = [[1, 0], [0, 1]]
        assert facts.same_projection(W, W, W)
        assert facts.same_projection(W, [[1.0, 0.0], [0.0, 1.0]])
        assert not facts.same_projection(W, W, [[0, 1], [1, 0]])

    def test_all_differ(self):
        assert facts.all_differ(([1], [2]), ([3], [4]))
        assert not facts.all_differ(([1], [2]), ([3], [3]))

    def test_mixes_coordinates(self):
        assert not facts.mixes_coordinates(np.eye(2), [[0, 1], [1, 0]])
        assert facts.mixes_coordinates(np.eye(2), [[1, 1], [0, 1]])  # column 2 reads both inputs

    def test_sum_and_difference(self):
        eye = np.eye(2)
        assert facts.is_sum_and_difference(np.block([[eye, eye], [eye, -eye]]), 2)
        assert not facts.is_sum_and_difference(np.block([[eye, eye], [-eye, eye]]), 2)
        assert not facts.is_sum_and_difference(np.eye(4), 2)

    def test_equal_and_unequal_columns(self):
        A, B = [[1, 2, 3], [4, 5, 6]], [[1, 0, 3], [4, 5, 0]]
        assert facts.equal_columns(A, B) == [0]
        assert facts.unequal_columns(A, B) == [1, 2]

    def test_transpose(self):
        assert facts.transpose([["a", "b"], [1, 2]]) == [["a", 1], ["b", 2]]
        with pytest.raises(ValueError):
            facts.transpose([["a", "b"], [1]])


class TestHeads:
    def test_head_keeps_columns_of_the_single_head(self):
        assert facts.keeps_columns(LEFT, SINGLE, 0, 1)
        assert facts.keeps_columns(RIGHT, SINGLE, 1)
        assert not facts.keeps_columns(RIGHT, SINGLE, 0)

    def test_heads_split_the_single_head(self):
        assert facts.splits_columns([LEFT, RIGHT], SINGLE)
        assert not facts.splits_columns([RIGHT, LEFT], SINGLE)  # the wrong order
        assert not facts.splits_columns([LEFT], SINGLE)  # a column left over
        other = head([[2], [4], [6]], [[1], [0], [1]], [[8], [10], [0]])  # one value differs
        assert not facts.splits_columns([LEFT, other], SINGLE)

    def test_sees_every_key_and_hidden_keys(self):
        causal = head(Q, K, V, visible=np.tril(np.ones((3, 3), bool)))
        assert facts.sees_every_key(causal, 2) and not facts.sees_every_key(causal, 0)
        assert facts.hidden_keys(causal, 0) == [1, 2]
        assert facts.hidden_keys(causal, 2) == []

    def test_a_value_per_head(self):
        assert facts.per_head([LEFT, RIGHT], "d_k") == [1, 1]
        assert facts.per_head([LEFT, RIGHT], "V.2") == [[11], [12]]
        assert facts.per_head([LEFT, RIGHT], lambda h: h.Q.sum()) == [9, 12]


class TestWinners:
    # Row 1 ties, row 2 favours position 1 (the one before it), row 3 position 2.
    M = [[0.5, 0.5, 0.0], [0.9, 0.1, 0.0], [0.1, 0.8, 0.1]]

    def test_tops_refuse_a_tie(self):
        assert facts.tops(self.M[1:]) == [0, 1]
        with pytest.raises(ClaimError, match="tie"):
            facts.tops(self.M)

    def test_tops_judge_as_shown(self):
        with pytest.raises(ClaimError, match="as shown to 1 decimals"):
            facts.tops([[0.51, 0.49]], places=1)  # 0.5 and 0.5 on the page

    def test_rows_favouring_the_previous_position(self):
        assert facts.rows_favouring(self.M, -1, start=1) == [1, 2]
        assert facts.favours_everywhere(self.M, -1, start=1)
        assert not facts.favours_everywhere(self.M, 0, start=1)

    def test_disagree_everywhere(self):
        other = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        assert facts.disagree_everywhere(self.M, other, start=1)
        assert not facts.disagree_everywhere(self.M, [[1, 0, 0], [1, 0, 0], [0, 0, 1]], start=1)


class TestWords:
    def test_first_true(self):
        assert facts.first_true(False, True, True) == 2
        assert facts.first_true(False, False) == 0

    def test_number_word(self):
        assert facts.number_word(4) == "four" and facts.number_word(12) == "12"

    def test_counted(self):
        assert facts.counted("column", [1]) == "column 2"
        assert facts.counted("column", [0, 2]) == "columns 1 and 3"
        assert facts.counted("key", [0, 1, 3]) == "keys 1, 2 and 4"


class TestHeadLabel:
    def test_a_head_is_named_by_its_place_in_the_layer(self):
        assert [facts.head_label(h, [LEFT, RIGHT]) for h in (LEFT, RIGHT)] == ["head 1", "head 2"]

    def test_a_head_of_another_layer_is_refused(self):
        with pytest.raises(LessonError, match=r"head_label\(\): not a head of this lesson's layer"):
            facts.head_label(SINGLE, [LEFT, RIGHT])


class TestRowsAndFrequencies:
    def test_unequal_rows_are_the_rows_equal_rows_leaves_out(self):
        A, B = [[1, 2], [3, 4], [5, 6]], [[1, 2], [3, 0], [0, 6]]
        assert facts.unequal_rows(A, B) == [1, 2]
        assert facts.unequal_rows(A, B) + facts.equal_rows((A, B)) == [1, 2, 0]

    def test_unequal_rows_read_as_the_columns_of_the_transposes(self):
        """What rotary-by-hand wrote before this name existed gives the same rows."""
        A, B = [[0.5, 0.5], [0.2, 0.8], [1.0, 0.0]], [[0.5, 0.5], [0.3, 0.7], [0.9, 0.1]]
        assert facts.unequal_rows(A, B) == facts.unequal_columns(facts.transpose(A), facts.transpose(B)) == [1, 2]

    def test_sinusoidal_frequencies_are_the_encodings_own(self):
        from macros.engine import positions

        for d in (1, 4, 5):
            assert np.array_equal(facts.sinusoidal_frequencies(d), positions.sinusoidal_frequencies(d))
        assert facts.sinusoidal_frequencies(4, base=100).tolist() == [1.0, 0.1]

    def test_sinusoidal_frequencies_refuse_a_width_of_zero(self):
        with pytest.raises(ValueError, match=r"sinusoidal_frequencies\(\): expected d_model ≥ 1"):
            facts.sinusoidal_frequencies(0)
