"""A trace field's masked entries read as its kind says (macros/vocabulary/display.py): a score the softmax
is given is −∞, a weight or an exponential is an exact 0. Values written by hand: a causal
head over two positions, scaled scores [[1.0, 2.5], [0.5, 1.0]]."""

import numpy as np
import pytest

from macros.engine import attention
from macros.errors import LessonError
from macros.vocabulary.display import shown

Q = np.array([[1.0, 0.0], [0.5, 0.5]])


@pytest.fixture(scope="module")
def head():
    # scores Q K^T = [[1, 0], [0.5, 0.5]]; scale 1/sqrt(2); the causal mask hides key 2 from query 1.
    return attention.attend(Q, np.eye(2), np.eye(2), causal=True)


def test_a_masked_score_is_minus_infinity(head):
    assert shown(head, "scaled", 3) == r"\begin{bmatrix} 0.707 & -\infty \\ 0.354 & 0.354 \end{bmatrix}"


def test_a_masked_weight_is_an_exact_zero(head):
    # query 1 sees key 1 alone: weight exactly 1; query 2 sees both with equal scores: 0.5 each
    assert shown(head, "weights", 1) == r"\begin{bmatrix} 1.0 & 0 \\ 0.5 & 0.5 \end{bmatrix}"


def test_one_row_and_a_mask_applied_by_hand(head):
    assert shown(head, "scaled", 3, row=1) == "[0.354, 0.354]"
    assert shown(head, "scaled", 3, row=1, visible=[True, False]) == r"[0.354, -\infty]"


def test_numbers_the_lesson_derived_are_shown_as_their_field_is(head):
    assert (
        shown(head, "weights", 2, value=[[0.25, 0.0], [0.5, 0.5]])
        == r"\begin{bmatrix} 0.25 & 0 \\ 0.50 & 0.50 \end{bmatrix}"
    )


def test_a_field_with_nothing_hidden_is_a_plain_matrix(head):
    assert shown(head, "V", 0) == r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}"


def test_an_unknown_field_is_refused():
    with pytest.raises(LessonError, match="shown\\(\\): no trace field 'weigths'"):
        shown(object(), "weigths", 3)
