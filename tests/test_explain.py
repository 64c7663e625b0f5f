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
        "or position encodings or a transformer block around it (its heads read the normalised rows, not X) or "
        "keys and values rebuilt from a shared latent (multi-head latent attention);"
        " this lesson's layer has padding (key_length): say it in the lesson's own words"
    )


def test_the_scaling_sentence_says_what_grows_with_the_width(seed_lesson):
    """The spread of the dot products grows (variance d_k for unit-variance entries), not each score."""
    head = seed_lesson.trace.heads[0]
    for text in (
        str(explain(seed_lesson).scaling(head, full=True)),
        str(explain(seed_lesson).scaling(head, 2, full=True)),
    ):
        assert "variance $d_k$" in text and "back to 1" in text
        assert "Dot products grow" not in text and "keeps the\nscores from growing" not in text


def test_the_scaling_reason_is_given_in_full_once_and_linked_after(seed_lesson):
    """A lesson after the first that scales says it in one sentence and links the lesson on it."""
    short = str(explain(seed_lesson).scaling(seed_lesson.trace.heads[0], 2))
    assert "variance" not in short and "keeps their spread about the same" in short
    assert "[Why divide by √d_k](../why-scale/lesson.md)" in short


def test_a_masked_row_of_softmax_shows_its_hidden_keys_as_exact_zeros(seed_lesson):
    """Causal position 2 sees keys 1 and 2: the third exponential and weight are 0, not 0.000, and
    the shift is the largest score among the keys it may see."""
    head = seed_lesson.trace.heads[0]
    text = str(explain(seed_lesson).softmax(head, 1))
    assert "among the keys it may see" in text
    assert text.count(", 0]") == 2 and ", 0.000]" not in text


def test_a_masked_rows_reading_adds_the_keys_it_may_see(seed_lesson):
    head = seed_lesson.trace.heads[0]
    text = str(explain(seed_lesson).reading(head, 1))
    assert "value rows of the keys it may see" in text and r"0.000\," not in text
    assert text.count(r"\,[") == 2  # two visible keys, two terms


def test_the_whole_softmax_says_hidden_weights_are_zero_under_a_mask(seed_lesson):
    head = seed_lesson.trace.heads[0]
    assert "exactly 0 on the keys the mask hides" in str(explain(seed_lesson).softmax(head))
    plain = computed.lesson("tracing-two-heads")
    assert "The weights in a row are positive and add up to one" in str(explain(plain).softmax(plain.trace.heads[0]))


def test_the_output_projection_does_not_claim_to_mix(seed_lesson):
    """W_O weights the concatenated coordinates column by column; whether it mixes heads depends on W_O."""
    lesson = computed.lesson("cross-attention")
    text = str(explain(lesson).output_projection(0))
    assert "mixes" not in text and "one column of $W_O$" in text


def test_heads_of_different_widths_are_not_said_to_be_alike(seed_lesson):
    """'Each head produced a 3 × 2 matrix' held only while every head had head 1's width."""
    second = seed_lesson.trace.heads[1]
    narrow = dataclasses.replace(second, V=second.V[:, :1], output=second.output[:, :1])
    heads = (seed_lesson.trace.heads[0], narrow)
    names = {**computed.names(seed_lesson), "heads": heads}
    text = str(shared_partials.partials(computed.book().environment, names).concatenation())
    assert "Each head produced" not in text and "matrices of 3 rows and widths 2 and 1, in head order" in text
