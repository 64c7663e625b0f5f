"""The sets of new numbers a lesson's practice ships: new, well posed, about the lesson's idea,
and worked so that a reader can redo every step (macros/practice/draw.py, build.py, worked.py).

The build refuses, each at its fixture's line: a block whose draw space cannot give its sets,
sets that keep repeating one another, a worked solution whose shown sum misses with no note,
and one whose last line does not reach the value asked. Each refusal has its test here with
its whole message; the rules of ``require:`` are tried on hand-made layers whose numbers the
docstrings work out; and every lesson's sets are held to what the book promises of them.
"""

import json
import re
import shutil
from types import SimpleNamespace

import numpy as np
import pytest
import yaml

from macros import lessons
from macros.errors import PracticeError
from macros.practice import draw, record, spec, worked, worked_lines
from macros.render import practice as render_practice
from tests import computed
from tests.sitebuild import PROJECT

WITH_PRACTICE = computed.WITH_PRACTICE
TWO_HEADS = PROJECT / "lessons" / "two-heads-separate-projections"


def with_block(tmp_path, block, source=TWO_HEADS):
    """A copy of a lesson whose fixture's practice block is ``block``, written as YAML (so the
    build's errors can name its lines); the copy's folder and the fixture's lines."""
    folder = shutil.copytree(source, tmp_path / source.name)
    path = folder / "fixture.yaml"
    text = path.read_text(encoding="utf-8")
    text = text[: text.index("practice:")] + yaml.safe_dump({"practice": block}, sort_keys=False)
    path.write_text(text, encoding="utf-8")
    return folder, text.split("\n")


def line_of(lines, field):
    """The line (from 1) of a key under practice: in the written fixture."""
    start = next(i for i, line in enumerate(lines) if line.startswith("practice:"))
    return next(i + 1 for i, line in enumerate(lines) if i > start and line.strip().startswith(f"{field}:"))


def refusal(tmp_path, block, monkeypatch=None):
    folder, lines = with_block(tmp_path, block)
    with pytest.raises(PracticeError) as caught:
        lessons.load(folder)
    message = str(caught.value).replace(str(tmp_path) + "/", "lessons/")
    return message, lines


class TestRefusedAtTheirLine:
    def test_sets_that_keep_repeating_are_refused_at_the_draw(self, tmp_path):
        """Drawing only W_O, which the asked weight never reads: every set asks what the
        lesson's own numbers ask, so no set is new."""
        block = {"draw": {"heads[1].W_V": {"ints": [-1, 1]}}, "answer": "heads.0.weights.2.0"}
        message, lines = refusal(tmp_path, block)
        assert message == (
            f"lessons/two-heads-separate-projections/fixture.yaml:{line_of(lines, 'draw')}: practice.draw: expected "
            "numbers satisfying distinct (a set that repeats an earlier one) within 200 draws (variant 1), "
            "got 200 of 200 draws failing it"
        )

    def test_a_draw_space_too_small_is_refused_at_the_draw(self, tmp_path):
        """X's 3 × 4 entries drawn from {0} and {1} alike: one set of numbers, for 20 sets."""
        block = {"draw": {"X": {"ints": [1, 1]}}, "answer": "heads.0.weights.2.0"}
        message, lines = refusal(tmp_path, block)
        assert message == (
            f"lessons/two-heads-separate-projections/fixture.yaml:{line_of(lines, 'draw')}: practice.draw: expected "
            "a draw space of more than 20 sets of numbers, so that the 20 sets differ from each other and from the "
            "lesson's own, got 1 (X: 1)"
        )

    def test_a_space_just_large_enough_passes(self, tmp_path):
        """The control: W_O-free weights drawn from X's last row alone, 3^4 = 81 > 3 sets."""
        block = {"variants": 3, "draw": {"X": {"ints": [-1, 1]}}, "answer": "heads.0.weights.2.0"}
        folder, _ = with_block(tmp_path, block)
        assert len(lessons.load(folder).practice.variants) == 4

    def test_a_silent_miss_in_a_worked_solution_stops_the_build_at_the_answer(self, tmp_path, monkeypatch):
        """With the rounding note taken away, a sum whose rounded terms give another result is a
        silent miss: two-heads-separate-projections' own reading (set 0), 0.248·1 + 0.248·0 +
        0.503·1 ≈ 0.752 unrounded, which the shown numbers make 0.751 (hand sum)."""
        for module in (worked, worked_lines):  # every module that writes rounding notes
            monkeypatch.setattr(module, "note", lambda *args, **kwargs: "")
        block = {"draw": {"X": {"ints": [-2, 2]}}, "answer": "heads.0.output.2.0"}
        message, lines = refusal(tmp_path, block)
        head = f"lessons/two-heads-separate-projections/fixture.yaml:{line_of(lines, 'answer')}: practice.answer: "
        assert message.startswith(head + "expected worked solutions whose shown sums give their shown results, got ")
        assert (
            "the first, in set 0: 0.248·1 + 0.248·0 + 0.503·1 gives 0.751 from the numbers as shown, but the "
            "solution shows 0.752 ('The reading, the weights times those coordinates: 0.248·1 + 0.248·0 + 0.503·1 "
            "≈ 0.752.')"
        ) in message

    def test_a_solution_that_stops_short_of_the_value_asked_is_refused(self, tmp_path, monkeypatch):
        """A worked solution whose last step is cut off does not show the answer: refused."""
        whole = worked.solution
        monkeypatch.setattr(worked, "solution", lambda *args: whole(*args)[:-1])
        block = {"draw": {"X": {"ints": [-2, 2]}}, "answer": "heads.0.output.2.0"}
        message, lines = refusal(tmp_path, block)
        assert message.startswith(
            f"lessons/two-heads-separate-projections/fixture.yaml:{line_of(lines, 'answer')}: practice.answer: "
            "expected a worked solution for heads.0.output.2.0 whose last line shows the value asked (0.752), got "
            "in set 0: 'Coordinate 1 of each value row: [1, 0, 1].'"
        )


# ---------------------------------------------------------------- the rules, by hand


def rec_of(plain):
    return record.computed(plain, "x.yaml")


EYE = [[1.0, 0.0], [0.0, 1.0]]


class TestRules:
    """Queries, keys and values given directly (no projection), one head of width 2 unless said."""

    def test_uniform_weights_are_refused(self):
        """q = [0, 0] scores 0 against both keys: weights 1/2 and 1/2, uniform. q = [1, 0]
        scores 1 and 0: weights e/(e + 1) and 1/(e + 1), not."""
        flat = rec_of({"Q": [[0.0, 0.0]], "K": EYE, "V": EYE})
        sharp = rec_of({"Q": [[1.0, 0.0]], "K": EYE, "V": EYE})
        assert not draw.no_uniform_weights(flat, None, {})
        assert draw.no_uniform_weights(sharp, None, {})

    def test_a_causal_first_row_is_not_uniform(self):
        """The first query of a causal head sees one key: one weight, 1, which is no tie."""
        assert draw.no_uniform_weights(
            rec_of({"Q": [[1.0, 0.0], [1.0, 0.0]], "K": EYE, "V": EYE, "causal": True}), None, {}
        )

    def test_a_tie_at_the_last_place_top_k_keeps_is_refused(self):
        """Probabilities 0.4, 0.2, 0.2, 0.2 with k = 2: second place is tied with third and fourth,
        so which token top-2 keeps would need a tie rule; 0.4, 0.3, 0.2, 0.1 needs none."""

        def sampled(probs, k):
            sampling = SimpleNamespace(probs=np.array(probs), kept=range(k))
            return SimpleNamespace(trace=SimpleNamespace(sampling=sampling))

        assert not draw.no_tie_at_top_k(sampled([0.4, 0.2, 0.2, 0.2], 2), 0.01, {})
        assert draw.no_tie_at_top_k(sampled([0.4, 0.3, 0.2, 0.1], 2), 0.01, {})

    def test_a_zero_row_of_the_named_matrix_is_refused(self):
        zero_value = rec_of({"Q": [[1.0, 0.0]], "K": EYE, "V": [[0.0, 0.0], [1.0, 2.0]]})
        assert not draw.no_zero_row(zero_value, "V", {})
        assert draw.no_zero_row(zero_value, "K", {})

    def test_an_answer_a_guess_would_pass_is_refused(self):
        """The weight of key 2 for q = [5, 0]: 1/(e^(5/√2) + 1) ≈ 0.0283, more than 0.01 from 0;
        for q = [9, 0], 1/(e^(9/√2) + 1) ≈ 0.0017, within 0.01 of 0."""
        near = rec_of({"Q": [[9.0, 0.0]], "K": EYE, "V": EYE})
        far = rec_of({"Q": [[5.0, 0.0]], "K": EYE, "V": EYE})
        asked = {"heads.0.weights.0.1": 0.01}
        assert not draw.answer_not(near, (0.0, 1.0), asked)
        assert draw.answer_not(far, (0.0, 1.0), asked)

    def test_answers_that_should_differ_but_tie_are_refused(self):
        """With K = the identity, q = [1, 1] scores 1 against both keys: a tie; [2, 1] does not."""
        tie = rec_of({"Q": [[1.0, 1.0]], "K": EYE, "V": EYE})
        apart = rec_of({"Q": [[2.0, 1.0]], "K": EYE, "V": EYE})
        asked = {"heads.0.scores.0.0": 0.01, "heads.0.scores.0.1": 0.01}
        assert not draw.answers_differ(tie, None, asked)
        assert draw.answers_differ(apart, None, asked)

    def test_the_sets_take_the_kinds_in_turn(self):
        parsed = spec.Spec(seed=1, variants=6, draws=(), require=(), kinds=(("a",), ("b", "c"), ("d",)))
        assert [parsed.kind_of(n) for n in range(7)] == [0, 0, 1, 2, 0, 1, 2]


# ---------------------------------------------------------------- every lesson's sets


@pytest.mark.parametrize("slug", WITH_PRACTICE)
def test_no_set_repeats_another(slug):
    """Sets 0 to 20 differ in their drawn numbers, and no two sets of one kind ask the same
    answers with the same worked solutions."""
    practice = computed.lesson(slug).practice
    keys = [draw.drawn_key(practice.spec, v.fixture) for v in practice.variants]
    assert len(set(keys)) == len(keys)
    asked = [(v.kind, tuple((q.answer, q.solution) for q in v.questions)) for v in practice.variants]
    assert len(set(asked)) == len(asked)


@pytest.mark.parametrize("slug", WITH_PRACTICE)
def test_the_refusals_are_counted_by_rule(slug):
    """Every draw is a set kept or a draw refused by a rule the block names (or distinct)."""
    practice = computed.lesson(slug).practice
    assert practice.tries == practice.spec.variants + sum(practice.refused.values())
    named = {draw.label(practice.spec, i) for i in range(len(practice.spec.require))} | {draw.DISTINCT, draw.FINITE}
    assert set(practice.refused) <= named


# The lessons whose idea has two sides, which their sets take in turn (issue: practice on the idea).
TWO_SIDED = [
    "alibi",
    "attention-by-hand",
    "attention-cost",
    "cross-attention",
    "decoding-cost",
    "flash-attention-tiles",
    "from-hand-to-code",
    "grouped-query-attention",
    "kv-cache",
    "masks",
    "one-head-with-projections",
    "online-softmax",
    "order-and-position",
    "rotary-by-hand",
    "tracing-two-heads",
    "transformer-block",
    "two-heads-of-dimension-one",
    "two-heads-separate-projections",
    "why-attention",
    "why-scale",
    # the model around attention: where the rows come from and what they become
    "tokens-to-vectors",
    "next-token",
    "tiny-model-step",
    "induction-head",
]


@pytest.mark.parametrize("slug", TWO_SIDED)
def test_a_two_sided_idea_alternates_its_kinds(slug):
    practice = computed.lesson(slug).practice
    k = len(practice.spec.kinds)
    assert k >= 2
    assert [v.kind for v in practice.variants] == [0] + [(n - 1) % k for n in range(1, len(practice.variants))]


# What each lesson named by the issue asks, by the paths of its kinds.
ON_THE_IDEA = {
    "why-scale": ("unscaled.", "tempered."),
    "kv-cache": ("kv_cache.gib", "kv_cache.tokens"),
    "from-hand-to-code": ("fused.Q.", "fused.head.", "fused.column."),
    "transformer-block": ("block.ffn.", "block.output."),
    "flash-attention-tiles": ("tiles.skipped", "tiles.running_sum."),
    "alibi": ("heads.0.biased.", "heads.0.weights."),
    "tokens-to-vectors": ("embedding.X.", "heads.0.weights."),
    "next-token": ("probs.", "sampling.renormalised."),
    "tiny-model-step": ("d_logits.", "backward.upstream."),
    "induction-head": ("layers.1.heads.0.weights.", "probs."),
}


@pytest.mark.parametrize("slug", sorted(ON_THE_IDEA))
def test_the_named_lessons_ask_about_their_idea(slug):
    paths = [path for kind in computed.lesson(slug).practice.spec.kinds for path in kind]
    for start in ON_THE_IDEA[slug]:
        assert any(path.startswith(start) for path in paths), (slug, start, paths)


def texts_of(lesson):
    """Every text a reader meets in a lesson's practice: labels, tolerances, solutions, panels."""
    for variant in lesson.practice.variants:
        for q in variant.questions:
            yield q.quantity.label
            yield q.quantity.stated
            yield from q.solution
        tables, notes = render_practice.inputs(
            variant.fixture, lesson.decimals, render_practice.uses_params(variant.questions), variant.given
        )
        yield from (caption for caption, _ in tables)
        yield from notes


@pytest.mark.parametrize("slug", WITH_PRACTICE)
def test_every_text_writes_its_symbols_with_subscripts_and_counts_from_one(slug):
    """Shown through ``marked``, no underscore is left (W_O reads W with subscript O); no text
    counts positions from 0 or hands over a bare computed value."""
    for text in texts_of(computed.lesson(slug)):
        shown = render_practice.marked(text)
        assert "_" not in re.sub(r"<sub>[^<]*</sub>", "", shown), text
        assert "counted from 0 here" not in text and "The computed value" not in text, text


@pytest.mark.parametrize("slug", WITH_PRACTICE)
def test_every_solution_ends_with_the_value_asked(slug):
    lesson = computed.lesson(slug)
    for variant in lesson.practice.variants:
        for q in variant.questions:
            worked.check_reaches(q.solution, q.answer, q.quantity, lesson.decimals, q.path, variant.number, "x")


@pytest.mark.parametrize("slug", WITH_PRACTICE)
def test_no_count_is_asked_in_more_than_six_digits(slug):
    """Large counts are asked in millions, billions, MiB or GiB (decoding-cost asked 9- to
    12-digit integers)."""
    for variant in computed.lesson(slug).practice.variants:
        assert all(abs(q.answer) < 10**6 for q in variant.questions if q.quantity.whole)


def test_the_marked_texts_control():
    """The control for the subscript check: a name with an underscore inside a word is left."""
    assert render_practice.marked("W_O and d_model") == "W<sub>O</sub> and d<sub>model</sub>"
    assert "_" in render_practice.marked("key_length")


def test_the_named_cases_of_the_issue():
    """rotary no longer counts from 0 in its panel; grouped-query-attention says g and who reads
    which key/value head; two-heads-of-dimension-one's panel says two heads of width one;
    why-attention's additive scores are not called scaled."""
    rotary = computed.lesson("rotary-by-hand").practice.variants[1]
    notes = render_practice.inputs(rotary.fixture, 3)[1]
    assert any("(p − 1)·θ_i" in note for note in notes)
    grouped = computed.lesson("grouped-query-attention").practice.variants[1].questions[0]
    assert "g = 2 key/value heads (query heads 1 and 2 read key/value head 1" in grouped.quantity.words
    dim_one = computed.lesson("two-heads-of-dimension-one").practice.variants[1]
    assert "2 heads of width 1" in " ".join(render_practice.inputs(dim_one.fixture, 4)[1])
    why = computed.lesson("why-attention")
    texts = list(texts_of(why))
    assert texts and not any("scaled" in text for text in texts), [t for t in texts if "scaled" in t][:2]


def test_the_listing_says_which_rule_refused_how_many(capsys):
    from macros.__main__ import main

    main(["practice", "backward-pass"])
    out = capsys.readouterr().out
    found = computed.lesson("backward-pass").practice.refused
    assert f"refused by rule: {', '.join(f'{rule}: {n}' for rule, n in found.items())}" in out
    assert "kind 1 (sets 1, 2, 3," in out and "require: no_fully_masked_row, scores_within: 4" in out


def test_the_data_file_carries_each_sets_own_questions():
    data = json.loads(render_practice.data_script(computed.lesson("why-scale")).split("] = ", 1)[1].rstrip(";\n"))
    kinds = [[q["path"] for q in v["questions"]] for v in data["variants"][:3]]
    assert kinds == [
        ["unscaled.heads.0.weights.0.0", "heads.0.weights.0.0"],
        ["unscaled.heads.0.weights.0.0", "heads.0.weights.0.0"],
        ["tempered.heads.0.weights.0.0"],
    ]
    assert np.isclose(data["variants"][2]["questions"][0]["tolerance"], 0.01)
