"""``python -m macros trace``: JSON by default (the contract), a readable form, one path.

Numbers are from hand calculation on lessons/attention-by-hand/fixture.yaml (seed 001):
q = (2, −1) against keys (1, 0), (0, 1), (1, 1), (−1, 1) gives scores 2, −1, 1, −3, and
scaled by 1/√2: 1.414, −0.707, 0.707, −2.121.
"""

import json
import re

import pytest

from macros.__main__ import main

FIXTURE = "lessons/attention-by-hand/fixture.yaml"


def run(capsys, *args):
    code = main(["trace", FIXTURE, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_default_is_the_whole_trace_as_json(capsys):
    code, out, _ = run(capsys)
    data = json.loads(out)
    assert code == 0 and set(data) == {"heads", "concat", "W_O", "output"}
    assert data["heads"][0]["scores"] == [[2.0, -1.0, 1.0, -3.0]]


def test_a_path_selects_one_value_still_as_json(capsys):
    code, out, _ = run(capsys, "--path", "heads.0.scores")
    assert code == 0 and json.loads(out) == [[2.0, -1.0, 1.0, -3.0]]


def test_decimals_print_one_row_per_line_rounded_as_pages_round(capsys):
    code, out, _ = run(capsys, "--path", "heads.0.scaled", "--decimals", "3")
    assert code == 0 and out.split() == ["1.414", "\u22120.707", "0.707", "\u22122.121"]
    assert len(out.strip().splitlines()) == 1  # one query: one row


def test_decimals_on_the_whole_trace_name_each_value(capsys):
    code, out, _ = run(capsys, "--decimals", "2")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "heads:" and "    scores:" in lines and "       2  \u22121   1  \u22123" in lines


def test_decimals_print_a_stack_of_matrices_one_block_each(capsys):
    # Grouped-query attention with g = 2: four query heads' readings, each 3 tokens × d_v = 2.
    # Head 2 at "keys" weighs the shared values [1, 0.5], [0, 0], [1, 1] by 0.188, 0.268, 0.544.
    fixture = "lessons/grouped-query-attention/fixture.yaml"
    code, out, _ = (main(["trace", fixture, "--path", "groups.1.readings", "--decimals", "3"]), *capsys.readouterr())
    lines = out.splitlines()
    assert code == 0 and [lines[i] for i in (0, 4, 8, 12)] == ["[0]", "[1]", "[2]", "[3]"]
    assert lines[7].split() == ["0.732", "0.638"]  # both coordinates, not the first alone


def test_decimals_print_the_mask_as_true_and_false(capsys):
    # Two heads with separate projections is causal over 3 positions: row 1 sees key 1 only.
    code, out, _ = (
        main(["trace", "lessons/two-heads-separate-projections/fixture.yaml", "--decimals", "2"]),
        *capsys.readouterr(),
    )
    lines = out.splitlines()
    at = lines.index("    visible:")
    assert code == 0 and lines[at + 1].split() == ["true", "false", "false"]


@pytest.mark.parametrize(
    "path, message",
    [
        ("heads.0.weigths", "--path heads.0.weigths: head has no value 'weigths'; did you mean 'weights'?"),
        ("hedas", "--path hedas: trace has no value 'hedas'; did you mean 'heads'?"),
        ("heads.3", "--path heads.3: expected a position from 0 to 0, got '3'"),
    ],
)
def test_a_path_that_names_nothing_is_one_line(capsys, path, message):
    code, out, err = run(capsys, "--path", path)
    assert code == 1 and out == "" and err == f"error: {message}\n"


def test_a_bound_path_that_names_nothing_is_a_located_lesson_error():
    # bound("heads.0.weigths") in a template walks the page's published numbers the same way.
    from macros.lookup import PathError
    from macros.render.lesson_widgets import resolve

    expected = "heads.0.weigths: no value 'weigths' (the values are output, weights); did you mean 'weights'?"
    with pytest.raises(PathError, match=f"^{re.escape(expected)}$"):
        resolve({"heads": [{"weights": [[1.0]], "output": [[2.0]]}]}, "heads.0.weigths")
