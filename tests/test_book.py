"""Pages rendered by the book's own environment: what an author reads when a template is wrong.

Each case breaks a copy of the project's lessons (no MkDocs involved: ``macros.book``
is the same code the site and ``python -m macros render`` call) and asserts the whole
located line.
"""

import pytest

from macros.book import Book, PageError
from tests.sitebuild import copy_project, edit

SLUG = "attention-by-hand"
SRC = f"lessons/{SLUG}/lesson.md"


@pytest.fixture
def project(tmp_path):
    return copy_project(tmp_path)


def render(project, slug=SLUG):
    src = f"lessons/{slug}/lesson.md"
    return Book(project, cache=False).render(src, project / src)


def line_of(path, text):
    return 1 + path.read_text(encoding="utf-8").split(text)[0].count("\n")


def error_for(project, slug=SLUG):
    with pytest.raises(PageError) as caught:
        render(project, slug)
    return str(caught.value)


def test_the_untouched_lesson_renders_without_template_syntax(project):
    # negative control: the cases below fail only because of their edit
    markdown = render(project)
    assert "{{" not in markdown and "{%" not in markdown and markdown.startswith("# Attention by hand")


def test_a_misspelt_trace_value_names_the_line_and_the_likely_name(project):
    template = project / SRC
    edit(template, "## Step 1: scores", "## Step 1: scores {{ trace.heads[0].weigths }}")
    line = line_of(template, "weigths")
    assert error_for(project) == f"{SRC}:{line}: head has no value 'weigths'; did you mean 'weights'?"


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
def test_other_lesson_objects_speak_the_same_way(project, expression, message):
    template = project / SRC
    edit(template, "## Step 1: scores", f"## Step 1: scores {{{{ {expression} }}}}")
    assert error_for(project) == f"{SRC}:{line_of(template, expression)}: {message}"


def test_a_typed_decimal_in_prose_is_refused_with_its_line(project):
    template = project / SRC
    edit(template, "## Step 1: scores", "## Step 1: scores\n\nThe weight is 0.768 here.")
    line = line_of(template, "0.768")
    assert error_for(project) == f"{SRC}:{line}: typed number 0.768; show it with a helper"


def test_a_misspelt_name_the_template_set_itself_is_suggested(project):
    template = project / SRC
    edit(template, "## Step 1: scores", "{% set tolerance = 0 %}## Step 1: scores {{ tolerence }}")
    line = line_of(template, "tolerence")
    assert error_for(project) == f"{SRC}:{line}: 'tolerence' is undefined; did you mean 'tolerance'?"


def test_params_are_read_in_either_form_of_fixture(project):
    """why-scale gives Q, K and V directly; its params (a seed among them) are still ``params``."""
    import yaml

    seed = yaml.safe_load((project / "lessons" / "why-scale" / "fixture.yaml").read_text())["params"]["seed"]
    edit(project / "lessons" / "why-scale" / "lesson.md", "\n## ", "\nSEED={{ params.seed }}\n\n## ")
    assert f"SEED={seed}" in render(project, "why-scale")


def test_every_typed_decimal_is_named_at_once(project):
    template = project / SRC
    edit(template, "## Step 1: scores", "## Step 1: scores\n\nThe weight is 0.768 here.\n\nAt T = 0.5 it is 0.944.")
    first, second = line_of(template, "0.768"), line_of(template, "0.944")
    assert error_for(project) == (
        f"{SRC}:{first}: typed number 0.768; show it with a helper (also 0.5 on line {second}, 0.944 on line {second})"
    )


def test_a_pasted_table_of_decimals_is_counted_beyond_ten(project):
    rows = "\n".join(f"| {i}.25 |" for i in range(13))
    edit(project / SRC, "## Step 1: scores", f"## Step 1: scores\n\n{rows}\n")
    assert error_for(project).endswith(f"10.25 on line {line_of(project / SRC, '| 10.25 |')}, 2 more)")


def test_a_decimal_inside_a_helper_call_is_code_not_prose(project):
    edit(project / SRC, "## Step 1: scores", "## Step 1: scores {{ num(0.768) }}")
    assert "0.768" in render(project)


def test_a_template_syntax_error_names_its_line(project):
    template = project / SRC
    edit(template, "## Step 1: scores", "## Step 1: scores {% if %}")
    line = line_of(template, "{% if %}")
    assert error_for(project).startswith(f"{SRC}:{line}: ")


def test_a_fixture_mistake_names_the_fixture_its_line_and_the_row_as_prose_counts(project):
    fixture = project / "lessons" / SLUG / "fixture.yaml"
    edit(fixture, "  - [1, 1]\n", "  - [1, 1, 5]\n")  # K's third row, line 8 of the file
    message = error_for(project).replace(str(project) + "/", "")
    assert message == f"lessons/{SLUG}/fixture.yaml:8: K[2] (row 3): expected 2 numbers like the first row, got 3"
