"""Pages rendered by the book's own environment: what an author reads when a template is wrong.

Each case breaks a copy of the project's lessons (no MkDocs involved: ``macros.pages.book``
is the same code the site and ``python -m macros render`` call) and asserts the whole
located line. tests/test_site.py shows that a build stops with the same line.
"""

import shutil

import pytest

from macros.pages.book import Book, PageError
from tests import computed
from tests.sitebuild import PROJECT, edit

SLUG = "attention-by-hand"
SRC = f"lessons/{SLUG}/lesson.md"


@pytest.fixture
def copied(tmp_path):
    """A copy of the project's lessons to break (rendered in this process, never built)."""
    shutil.copytree(PROJECT / "lessons", tmp_path / "lessons", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def render(copied, slug=SLUG):
    """The page as a build renders it; a lesson whose numbers are unchanged is not computed again."""
    src = f"lessons/{slug}/lesson.md"
    return computed.book_over(copied).render(src, copied / src).markdown


def line_of(path, text):
    return 1 + path.read_text(encoding="utf-8").split(text)[0].count("\n")


def error_for(copied, slug=SLUG):
    with pytest.raises(PageError) as caught:
        render(copied, slug)
    return str(caught.value)


def test_the_untouched_lesson_renders_without_template_syntax(copied):
    # negative control: the cases below fail only because of their edit
    markdown = render(copied)
    assert "{{" not in markdown and "{%" not in markdown and markdown.startswith("# Attention by hand")


def test_a_misspelt_trace_value_names_the_line_and_the_likely_name(copied):
    template = copied / SRC
    edit(template, "## Step 1: scores", "## Step 1: scores {{ trace.heads[0].weigths }}")
    line = line_of(template, "weigths")
    assert error_for(copied) == f"{SRC}:{line}: head has no value 'weigths'; did you mean 'weights'?"


@pytest.mark.parametrize(
    "expression, message",
    [
        ("trace.n_head", "trace has no value 'n_head'; did you mean 'n_heads'?"),
        ("lesson.decimal", "lesson has no value 'decimal'; did you mean 'decimals'?"),
        ("fixture.tokenz", "fixture has no value 'tokenz'; did you mean 'tokens'?"),
        ("trace.temperature", "trace has no value 'temperature'"),
        ("params.seed", "no value 'seed' (there are none)"),  # this lesson has no params
        (
            '{"temperatures": 1, "asked_temprature": 2}.asked_temperature',
            "no value 'asked_temperature' (the values are asked_temprature, temperatures); "
            "did you mean 'asked_temprature'?",
        ),
        ("nmu(1)", "'nmu' is undefined; did you mean 'num'?"),  # a helper's name
        ("traec.n_heads", "'traec' is undefined; did you mean 'trace'?"),  # a lesson value's name
        ("qwerty", "'qwerty' is undefined"),
        ("X", "'X' is undefined"),  # a short name: one edit at most, so not 'exp'
        ("numbr_word(2)", "'numbr_word' is undefined; did you mean 'number_word'?"),
    ],
)
def test_other_lesson_objects_speak_the_same_way(copied, expression, message):
    template = copied / SRC
    edit(template, "## Step 1: scores", f"## Step 1: scores {{{{ {expression} }}}}")
    assert error_for(copied) == f"{SRC}:{line_of(template, expression)}: {message}"


def test_a_typed_decimal_in_prose_is_refused_with_its_line(copied):
    template = copied / SRC
    edit(template, "## Step 1: scores", "## Step 1: scores\n\nThe weight is 0.768 here.")
    line = line_of(template, "0.768")
    assert error_for(copied) == f"{SRC}:{line}: typed number 0.768; show it with a helper"


def test_a_symbol_the_glossary_does_not_define_is_refused_at_its_line(copied):
    template = copied / SRC
    edit(template, "## Step 1: scores", "## Step 1: scores\n\nCall the score $f$ for now.")
    line = line_of(template, "$f$")
    assert error_for(copied) == (
        f"{SRC}:{line}: the math uses f, which the glossary does not define: add each to GLOSSARY and to a section"
        " of SECTIONS in macros/vocabulary/glossary.py (every symbol in a lesson's math has an entry, which the"
        " glossary page shows)"
    )


def test_a_misspelt_name_the_template_set_itself_is_suggested(copied):
    template = copied / SRC
    edit(template, "## Step 1: scores", "{% set tolerance = 0 %}## Step 1: scores {{ tolerence }}")
    line = line_of(template, "tolerence")
    assert error_for(copied) == f"{SRC}:{line}: 'tolerence' is undefined; did you mean 'tolerance'?"


def test_params_are_read_in_either_form_of_fixture(copied):
    """why-scale gives Q, K and V directly; its params (a seed among them) are still ``params``."""
    import yaml

    seed = yaml.safe_load((copied / "lessons" / "why-scale" / "fixture.yaml").read_text())["params"]["seed"]
    edit(copied / "lessons" / "why-scale" / "lesson.md", "\n## ", "\nSEED={{ params.seed }}\n\n## ")
    assert f"SEED={seed}" in render(copied, "why-scale")


def test_every_typed_decimal_is_named_at_once(copied):
    template = copied / SRC
    edit(template, "## Step 1: scores", "## Step 1: scores\n\nThe weight is 0.768 here.\n\nAt T = 0.5 it is 0.944.")
    first, second = line_of(template, "0.768"), line_of(template, "0.944")
    assert error_for(copied) == (
        f"{SRC}:{first}: typed number 0.768; show it with a helper (also 0.5 on line {second}, 0.944 on line {second})"
    )


def test_a_pasted_table_of_decimals_is_counted_beyond_ten(copied):
    rows = "\n".join(f"| {i}.25 |" for i in range(13))
    edit(copied / SRC, "## Step 1: scores", f"## Step 1: scores\n\n{rows}\n")
    assert error_for(copied).endswith(f"10.25 on line {line_of(copied / SRC, '| 10.25 |')}, 2 more)")


def test_a_decimal_inside_a_helper_call_is_code_not_prose(copied):
    edit(copied / SRC, "## Step 1: scores", "## Step 1: scores {{ num(0.768) }}")
    assert "0.768" in render(copied)


def test_a_template_syntax_error_names_its_line(copied):
    template = copied / SRC
    edit(template, "## Step 1: scores", "## Step 1: scores {% if %}")
    line = line_of(template, "{% if %}")
    assert error_for(copied).startswith(f"{SRC}:{line}: ")


def test_a_fixture_mistake_names_the_fixture_its_line_and_the_row_as_prose_counts(copied):
    fixture = copied / "lessons" / SLUG / "fixture.yaml"
    edit(fixture, "  - [1, 1]\n", "  - [1, 1, 5]\n")  # K's third row, line 8 of the file
    message = error_for(copied).replace(str(copied) + "/", "")
    assert message == f"lessons/{SLUG}/fixture.yaml:8: K[2] (row 3): expected 2 numbers like the first row, got 3"


TWO_HEADS = "lessons/two-heads-separate-projections"


def test_a_matrix_of_the_wrong_shape_names_the_fixture_line_and_shapes(copied):
    path = copied / TWO_HEADS / "fixture.yaml"
    edit(path, "W_K: *first_pair", "W_K: [[1, 0, 0], [0, 1, 0], [0, 0, 0], [0, 0, 0]]")
    message = error_for(copied, "two-heads-separate-projections").replace(str(copied) + "/", "")
    assert message == (
        f"{TWO_HEADS}/fixture.yaml:{line_of(path, 'W_K: [[1, 0, 0]')}: heads[0].W_K: "
        "expected a 4×2 matrix (d_model × d_k), got 4×3"
    )


def test_a_false_claim_names_the_lesson_line_and_quotes_the_claim(copied):
    # Give head 2 head 1's projections: the heads' weights no longer differ. The first claim
    # to fail is the reason of the prediction's first option, which says the two differ.
    path = copied / TWO_HEADS / "fixture.yaml"
    edit(path, "W_Q: &last_pair [[0, 0], [0, 0], [1, 0], [0, 1]]", "W_Q: *first_pair")
    edit(path, "W_K: *last_pair", "W_K: *first_pair")
    edit(path, "W_V: *last_pair", "W_V: *first_pair")
    message = error_for(copied, "two-heads-separate-projections")
    line = line_of(copied / TWO_HEADS / "lesson.md", "{% set r_same %}")
    assert message.startswith(
        f"{TWO_HEADS}/lesson.md:{line}: this claim is false for the fixture's numbers: Both heads read the same rows"
    )


# ---------------------------------------------------------------- predictions

PREDICTION = '{{ predict("favourite"'


def test_a_wrong_reason_that_names_the_right_option_is_refused_at_the_call(copied):
    template = copied / SRC
    edit(template, "top == 1, r2)", 'top == 1, r2 ~ " It is below key 1\'s score.")')
    assert error_for(copied) == (
        f"{SRC}:{line_of(template, PREDICTION)}: predict 'favourite': the reason of option 2 names the right option,"
        " “Key 1”; a wrong option's reason says why that option fails (it may say what to look at), not which one holds"
    )


def test_a_sentence_shared_by_two_reasons_is_refused_at_the_call(copied):
    template = copied / SRC
    edit(template, "top == 1, r2)", 'top == 1, r2 ~ " Compare the scores.")')
    edit(template, "top == 2, r3)", 'top == 2, r3 ~ " Compare the scores.")')
    assert error_for(copied) == (
        f"{SRC}:{line_of(template, PREDICTION)}: predict 'favourite': options 2 and 3 share the sentence"
        " “Compare the scores.”; give each option a reason of its own, why that option holds or fails"
    )


def test_a_prediction_with_nothing_folded_after_it_is_refused_at_the_call(copied):
    template = copied / SRC
    edit(template, '<div data-reveal-after="favourite" markdown>', "")
    assert error_for(copied) == (
        f"{SRC}:{line_of(template, PREDICTION)}: predict 'favourite': nothing after it waits for the lock-in; put the"
        ' display that settles it inside <div data-reveal-after="favourite" markdown> ... </div> (the author guide,'
        " section 6)"
    )


def test_a_prediction_written_over_several_lines_is_refused_at_its_first(copied):
    """two-heads-of-dimension-one writes ``{{ predict(`` on one line and its name on the next."""
    slug = "two-heads-of-dimension-one"
    template = copied / "lessons" / slug / "lesson.md"
    edit(template, '<div data-reveal-after="why" markdown>', "")
    line = line_of(template, '  "why",') - 1
    assert template.read_text(encoding="utf-8").splitlines()[line - 1] == "{{ predict("
    assert error_for(copied, slug).startswith(f"lessons/{slug}/lesson.md:{line}: predict 'why': nothing after it")


def test_a_tie_where_a_claim_needs_one_winner_names_the_place(copied):
    edit(copied / "lessons/tracing-two-heads/fixture.yaml", "[1, 1, 0, 0]", "[1, 0, 0, 0]")
    message = error_for(copied, "tracing-two-heads")
    assert message.startswith("lessons/tracing-two-heads/lesson.md:")
    assert message.endswith("is a tie as shown to 3 decimals, so no single position wins")


def test_an_expression_jinja_cannot_compile(copied):
    edit(copied / SRC, "## Step 1: scores", "## Step 1: scores {{ mat(fixture.K[:, 0]) }}")
    assert (
        error_for(copied) == f"{SRC}: an expression Jinja cannot compile (a slice such as M[:, 0] is one: write M.T[0])"
    )


def test_an_unknown_front_matter_field(copied):
    edit(copied / SRC, "decimals: 4", "decimal: 4")
    message = error_for(copied).replace(str(copied) + "/", "")
    assert message.startswith(f"{SRC}: front matter: decimal: expected one of ")


def test_a_lesson_missing_from_the_track_is_the_tracks_mistake(copied):
    edit(copied / "lessons/track.yaml", "      - compare-heads-before-averaging\n", "")
    book = Book(copied, cache=False)
    assert str(book.track_error).replace(str(copied) + "/", "") == (
        "lessons/track.yaml: chapters: expected every lesson folder listed, got not listed: "
        "compare-heads-before-averaging"
    )


def test_a_prerequisite_listed_after_the_lesson(copied):
    edit(copied / TWO_HEADS / "lesson.md", "requires: [attention-by-hand]", "requires: [tracing-two-heads]")
    message = str(Book(copied, cache=False).track_error).replace(str(copied) + "/", "")
    assert message == (
        f"{TWO_HEADS}/lesson.md: front matter: requires: expected lessons listed earlier in the track, "
        "got tracing-two-heads"
    )


def test_a_position_typed_in_a_claim_is_refused(copied):
    template = copied / "lessons/masks/lesson.md"
    edit(template, "The first position sees only itself", "Position 1 sees only itself")
    line = line_of(template, "Position 1 sees")
    assert error_for(copied, "masks").startswith(
        f"lessons/masks/lesson.md:{line}: a claim's sentence types 'Position 1'"
    )


def test_heads_typed_in_a_claim_are_refused(copied):
    """Grouped-query attention's claim as it was first written: the heads typed, not computed."""
    template = copied / "lessons/grouped-query-attention/lesson.md"
    edit(template, '{{ counted("head", [0, 1]) }} share the average', "heads 1 and 2 share the average")
    line = line_of(template, "heads 1 and 2 share")
    assert error_for(copied, "grouped-query-attention").startswith(
        f"lessons/grouped-query-attention/lesson.md:{line}: a claim's sentence types 'heads 1 and 2'"
    )


def test_a_token_label_typed_in_a_claim_is_refused(copied):
    template = copied / "lessons/tracing-two-heads/lesson.md"
    text = template.read_text(encoding="utf-8")
    start = text.index("{% call claim(")
    body = text.index("%}", start) + 2
    template.write_text(text[:body] + "“mouse” " + text[body:], encoding="utf-8")
    assert "a claim's sentence types '“mouse”'" in error_for(copied, "tracing-two-heads")


def test_a_lab_on_a_lesson_whose_heads_score_another_way_is_refused(copied):
    # The browser computes plain attention: with ALiBi its live numbers would not be the page's.
    slug = "two-heads-separate-projections"
    edit(copied / f"lessons/{slug}/fixture.yaml", "causal: true\n", "causal: true\nalibi: [0.5, 0.25]\n")
    template = copied / f"lessons/{slug}/lesson.md"
    front = template.read_text(encoding="utf-8").split("---\n")[1]
    template.write_text(f'---\n{front}---\n\n# Lab\n\n{{% call lab("projections") %}}x{{% endcall %}}\n')
    line = line_of(template, "call lab")
    assert error_for(copied, slug) == (
        f"lessons/{slug}/lesson.md:{line}: lab('projections'): the reader's browser cannot recompute this"
        " lesson's layer, which has a bias added to the scores (ALiBi);"
        " show the step with the page's own numbers instead"
    )
