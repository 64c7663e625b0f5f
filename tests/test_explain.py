"""The shared step partials render a lesson's own numbers, and their claims still fail."""

import dataclasses

import numpy as np
import pytest

from macros import explain as shared_partials
from macros.errors import ClaimError
from tests import computed


@pytest.fixture(scope="module")
def seed_lesson():
    # Seed 000: two causal heads; head 1's last row has weights 0.248, 0.248, 0.503.
    return computed.lesson("two-heads-separate-projections")


def explain(lesson):
    return computed.names(lesson)["explain"]


def test_softmax_for_one_row_shows_shift_exponentials_sum_and_weights(seed_lesson):
    head = seed_lesson.trace.heads[0]
    text = str(explain(seed_lesson).softmax(head, 2))
    assert "[0.248, 0.248, 0.503]" in text  # seed 000, the weights
    assert "1.986" in text  # seed 000, the sum of the exponentials
    assert "a_3^{(1)}" in text


def test_the_mask_sentence_follows_the_mask(seed_lesson):
    head = seed_lesson.trace.heads[0]
    steps = explain(seed_lesson)
    assert "may see every key" in str(steps.mask(head, 2))
    assert "hides keys 2 and 3" in str(steps.mask(head, 0))  # causal: position 1 sees itself only


def test_scores_write_out_the_dot_products(seed_lesson):
    head = seed_lesson.trace.heads[0]
    text = str(explain(seed_lesson).scores(head))
    assert r"1\cdot 1+1\cdot 1" in text and "Q^{(1)} K^{(1)\\top}" in text


def test_a_claim_inside_a_partial_fails(seed_lesson):
    # Give head 1 a value projection of its own: the projections no longer produce one matrix
    # for queries, keys and values, but the lesson would still say they do.
    head = seed_lesson.trace.heads[0]
    forged = dataclasses.replace(head, V=head.V + 1)
    heads = (forged, *seed_lesson.trace.heads[1:])
    trace = dataclasses.replace(seed_lesson.trace, heads=heads)
    names = {**computed.names(seed_lesson), "heads": heads, "trace": trace}
    steps = shared_partials.partials(computed.book().environment, names)
    with pytest.raises(ClaimError, match="the three results coincide"):
        str(steps.projections(forged))


def test_one_head_has_no_superscripts():
    lesson = computed.lesson("attention-by-hand")
    text = str(explain(lesson).softmax(lesson.trace.heads[0], 0))
    assert "^{(" not in text and np.isfinite(lesson.trace.heads[0].sums[0])


def test_a_partial_refuses_a_layer_it_does_not_model(tmp_path):
    """The masks lesson pads its batch; the one-sentence mask rule knows no padding, so it
    must not say 'no mask is used' there: the build stops at the line that called it."""
    import shutil

    from macros.pages.book import PageError
    from tests.sitebuild import PROJECT, edit

    shutil.copytree(PROJECT / "lessons", tmp_path / "lessons")
    src = tmp_path / "lessons" / "masks" / "lesson.md"
    edit(src, "## The causal mask, row by row", "{{ explain.mask_rule() }}\n\n## The causal mask, row by row")
    line = 1 + src.read_text(encoding="utf-8").split("explain.mask_rule()")[0].count("\n")
    with pytest.raises(PageError) as caught:
        computed.book_over(tmp_path).render("lessons/masks/lesson.md", src)
    assert str(caught.value) == (
        f"lessons/masks/lesson.md:{line}: explain.mask_rule() is written for plain attention with a causal mask "
        "or position encodings; this lesson's layer has padding (key_length): say it in the lesson's own words"
    )
