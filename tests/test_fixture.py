"""Every kind of bad fixture is refused with its file, the field's path, what was expected
and what was found. Messages are asserted whole: they are part of the author's interface."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from macros.errors import FixtureError
from macros.sources import fixture, yamlfile
from tests import command

ROOT = Path(__file__).resolve().parent.parent
GOOD = """\
tokens: [a, b, c]
X: [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
causal: false
heads:
  - W_Q: [[1, 0], [0, 1], [0, 0], [0, 0]]
    W_K: [[1, 0], [0, 1], [0, 0], [0, 0]]
    W_V: [[0, 0], [0, 0], [1, 0], [0, 1]]
"""


def write(tmp_path, text, name="fixture.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_for(tmp_path, text):
    path = write(tmp_path, text)
    with pytest.raises(FixtureError) as caught:
        fixture.load(path)
    return str(caught.value).replace(str(path), "F")


class TestGoodFixtures:
    def test_self_attention_form(self, tmp_path):
        data = fixture.load(write(tmp_path, GOOD))
        assert data.X.shape == (3, 4) and data.X.dtype == np.float64
        assert data.tokens == ("a", "b", "c") and data.W_O is None and not data.causal

    def test_direct_form(self, tmp_path):
        data = fixture.load(write(tmp_path, "Q: [[2, -1]]\nK: [[1, 0], [0, 1]]\nV: [[1, 0], [0, 2]]\nn_heads: 2\n"))
        assert data.X is None and data.n_heads == 2 and data.Q.shape == (1, 2)

    def test_extends_takes_the_parent_and_overrides(self, tmp_path):
        (tmp_path / "parent").mkdir()
        (tmp_path / "child").mkdir()
        write(tmp_path / "parent", "Q: [[2, -1]]\nK: [[1, 0], [0, 1]]\nV: [[1, 0], [0, 2]]\n")
        child = fixture.load(write(tmp_path / "child", "extends: parent\nn_heads: 2\n"))
        assert child.n_heads == 2 and child.Q.tolist() == [[2, -1]]

    def test_a_mistake_in_the_parent_is_reported_under_the_parent(self, tmp_path):
        (tmp_path / "parent").mkdir()
        (tmp_path / "child").mkdir()
        parent = write(tmp_path / "parent", "Q: [[2, -1]]\nK: [[1, 0], [0, 1]]\nV: [[1, 0], [0, 2], [3, 3]]\n")
        child = write(tmp_path / "child", "extends: parent\nn_heads: 2\n")
        with pytest.raises(FixtureError, match="V: expected 2 rows") as caught:
            fixture.load(child)
        assert caught.value.file == parent

    def test_an_extends_loop_is_refused(self, tmp_path):
        (tmp_path / "a").mkdir()
        with pytest.raises(FixtureError, match="a loop back to 'a'"):
            fixture.load(write(tmp_path / "a", "extends: a\n"))

    def test_a_file_that_is_not_utf8(self, tmp_path):
        path = tmp_path / "fixture.yaml"
        path.write_bytes(b"X: [[1]]\n\xff")
        with pytest.raises(FixtureError, match="expected text in UTF-8, got byte 0xff"):
            fixture.load(path)


BAD = [
    pytest.param(
        GOOD.replace("W_K: [[1, 0], [0, 1], [0, 0], [0, 0]]", "W_K: [[1, 0, 0], [0, 1, 0], [0, 0, 0], [0, 0, 0]]"),
        "F:6: heads[0].W_K: expected a 4×2 matrix (d_model × d_k), got 4×3",
        id="wrong-shape",
    ),
    pytest.param(
        GOOD.replace("[0, 1, 0, 1]", "[0, 1, 0]"),
        "F:2: X[1] (row 2): expected 4 numbers like the first row, got 3",
        id="ragged-row",
    ),
    pytest.param(
        GOOD.replace("[1, 1, 0, 0]", "[1, one, 0, 0]"),
        "F:2: X[2][1] (row 3, column 2): expected a number, got 'one'",
        id="text-entry",
    ),
    pytest.param(
        GOOD.replace("[1, 1, 0, 0]", "[1, .nan, 0, 0]"),
        "F:2: X[2][1] (row 3, column 2): expected a finite number, got .nan",
        id="nan",
    ),
    pytest.param(
        GOOD.replace("[1, 1, 0, 0]", "[1, .inf, 0, 0]"),
        "F:2: X[2][1] (row 3, column 2): expected a finite number, got .inf",
        id="inf",
    ),
    pytest.param(
        GOOD.replace("[1, 1, 0, 0]", "[1, true, 0, 0]"),
        "F:2: X[2][1] (row 3, column 2): expected a number, got true",
        id="boolean",
    ),
    pytest.param(
        GOOD.replace("X: [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]", "X: []"),
        "F:2: X: expected a matrix written as a list of rows, got an empty list",
        id="empty-matrix",
    ),
    pytest.param(
        GOOD.replace("[0, 1, 0, 1],", "[],"),
        "F:2: X[1] (row 2): expected a row: a non-empty list of numbers, got an empty list",
        id="empty-row",
    ),
    pytest.param(
        GOOD.replace("X: [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]\n", ""),
        "F: X: expected this field, or embedding (token ids and their embedding matrix), got nothing: it is missing",
        id="missing-X",
    ),
    pytest.param(
        GOOD.replace("    W_V: [[0, 0], [0, 0], [1, 0], [0, 1]]\n", ""),
        "F:5: heads[0].W_V: expected this field, got nothing: it is missing",
        id="missing-W_V",
    ),
    pytest.param(
        GOOD.replace("causal: false", "casual: false"),
        # The list is the reader's own (a new key joins it without an edit here); the words around it are fixed.
        f"F:3: casual: expected one of the fields {', '.join(sorted(fixture.SELF_FIELDS))}, got an unknown field"
        " (did you mean causal?)",
        id="unknown-key",
    ),
    pytest.param(
        GOOD.replace("W_K:", "W_k:"),
        "F:6: heads[0].W_k: expected one of the fields W_K, W_Q, W_V, got an unknown field (did you mean W_K?)",
        id="unknown-head-key",
    ),
    pytest.param(
        GOOD.replace("causal: false", "causal: 'no'"), "F:3: causal: expected true or false, got 'no'", id="causal-text"
    ),
    pytest.param(
        GOOD.replace("causal: false", "causal: 1"), "F:3: causal: expected true or false, got 1", id="causal-number"
    ),
    pytest.param(
        GOOD.replace("causal: false", "causal: [false"),
        "F:4: column 6: expected well-formed YAML, got expected ',' or ']', but got ':'",
        id="broken-yaml",
    ),
    pytest.param(
        GOOD + "causal: true\n",
        "F:8: column 1: expected well-formed YAML, got the field 'causal' written twice",
        id="duplicate-key",
    ),
    pytest.param(
        "- just\n- a list\n",
        "F: expected a mapping of fields (X, heads, ... or Q, K, V), got a list of 2",
        id="not-a-mapping",
    ),
    pytest.param("", "F: expected a mapping of fields (X, heads, ... or Q, K, V), got nothing", id="empty-file"),
    pytest.param(
        GOOD.replace("tokens: [a, b, c]", "tokens: [a, b]"),
        "F:1: tokens: expected 3 labels, one per row of X, got 2",
        id="tokens",
    ),
    pytest.param(
        GOOD + "W_O: [[1, 0], [0, 1]]\n",
        "F:8: W_O: expected a 2×4 matrix (heads · d_v × d_model), got 2×2",
        id="W_O-shape",
    ),
    pytest.param(
        "Q: [[2, -1]]\nK: [[1, 0], [0, 1]]\nV: [[1, 0], [0, 2], [1, 1]]\n",
        "F:3: V: expected 2 rows, one value per key, got 3×2",
        id="direct-V-rows",
    ),
    pytest.param(
        "Q: [[2, -1, 0]]\nK: [[1, 0, 0], [0, 1, 0]]\nV: [[1, 0], [0, 2]]\nn_heads: 2\n",
        "F:4: n_heads: expected a number of heads that divides the width of Q (3), got 2",
        id="n_heads-divides",
    ),
    pytest.param(
        "Q: [[2, -1]]\nK: [[1, 0], [0, 1]]\nV: [[1, 0], [0, 2]]\ncausal: true\n",
        "F:4: causal: expected false when there are not as many queries as keys, got true",
        id="causal-needs-square",
    ),
    pytest.param(
        GOOD + "Q: [[1]]\n",
        "F:8: Q: expected either X with heads (self-attention) or Q, K and V (given directly), got both forms",
        id="both-forms",
    ),
    pytest.param(
        "tokens: [a]\n",
        "F: expected X with heads (self-attention), or Q, K and V (given directly), got neither",
        id="neither",
    ),
    pytest.param(
        "extends: nowhere\n",
        "F:1: extends: expected the folder name of another lesson that has a fixture.yaml, got 'nowhere'",
        id="extends",
    ),
]


@pytest.mark.parametrize("text, message", BAD)
def test_bad_fixture_is_refused_with_a_located_message(tmp_path, text, message):
    assert error_for(tmp_path, text) == message


class TestTraceCommand:
    """``python -m macros trace``, run in process (tests/command.py), and once as a real process."""

    def test_prints_the_trace_as_json(self, tmp_path):
        result = command.run("trace", str(write(tmp_path, GOOD)))
        trace = json.loads(result.stdout)
        assert result.returncode == 0
        assert set(trace) >= {"heads", "concat", "output"}
        assert set(trace["heads"][0]) >= {"Q", "K", "V", "scores", "scaled", "weights", "output"}

    def test_masked_scaled_scores_are_null(self, tmp_path):
        trace = json.loads(
            command.run("trace", str(write(tmp_path, GOOD.replace("causal: false", "causal: true")))).stdout
        )
        assert trace["heads"][0]["scaled"][0][1:] == [None, None]

    def test_bad_fixture_exits_non_zero_with_the_message_and_no_traceback(self, tmp_path):
        path = write(tmp_path, GOOD.replace("[1, 1, 0, 0]", "[1, one, 0, 0]"))
        result = command.run("trace", str(path))
        assert result.returncode == 1 and result.stdout == ""
        assert result.stderr == f"error: {path}:2: X[2][1] (row 3, column 2): expected a number, got 'one'\n"
        assert "Traceback" not in result.stderr

    def test_overflow_is_refused_not_printed_as_nan(self, tmp_path):
        path = write(tmp_path, "Q: [[1.0e+200]]\nK: [[1.0e+200], [1]]\nV: [[1], [2]]\n")
        result = command.run("trace", str(path))
        assert result.returncode == 1 and "Traceback" not in result.stderr
        expected = "expected numbers small enough for attention to stay finite, got an overflow in heads[0].scores"
        assert result.stderr == f"error: {path}: {expected}\n"

    @pytest.mark.slow
    def test_the_real_command_exits_non_zero_with_the_message_and_no_traceback(self, tmp_path):
        """The same bad fixture through ``python -m macros`` in its own process, as an author runs it."""
        path = write(tmp_path, GOOD.replace("[1, 1, 0, 0]", "[1, one, 0, 0]"))
        result = subprocess.run([sys.executable, "-m", "macros", "trace", str(path)], capture_output=True, text=True)
        assert result.returncode == 1 and result.stdout == ""
        assert result.stderr == f"error: {path}:2: X[2][1] (row 3, column 2): expected a number, got 'one'\n"

    def test_missing_file(self, tmp_path):
        result = command.run("trace", str(tmp_path / "nope.yaml"))
        assert result.returncode == 1 and "expected a readable file" in result.stderr


class TestYamlParsers:
    """macros/sources/yamlfile.py reads with libyaml's parser where PyYAML has it, and words
    every mistake with the pure-Python one: the data must be the same either way."""

    BOOK = [
        *sorted((ROOT / "lessons").glob("*/fixture.yaml")),
        ROOT / "lessons" / "track.yaml",
        ROOT / "macros" / "tools" / "scaffold" / "fixture.yaml",
    ]

    @staticmethod
    def both(text):
        return [yaml.load(text, Loader=loader) for loader in (yamlfile._FastStrictLoader, yamlfile._StrictLoader)]

    @staticmethod
    def places(node):
        """Each node's kind and place (line, column), depth first: the lines of located messages."""
        inner = node.value if isinstance(node.value, list) else []
        children = [part for item in inner for part in (item if isinstance(item, tuple) else (item,))]
        return (
            type(node).__name__,
            node.start_mark.line,
            node.start_mark.column,
            [*map(TestYamlParsers.places, children)],
        )

    @pytest.mark.parametrize("path", BOOK, ids=lambda path: path.relative_to(ROOT).as_posix())
    def test_every_yaml_file_of_the_book_reads_the_same(self, path):
        """The same data, and every node at the same place (yamlfile.field_lines reads libyaml's tree)."""
        text = path.read_text(encoding="utf-8")
        strict = yaml.compose(text, Loader=yamlfile._StrictLoader)  # the slow parser, once
        fast = yaml.compose(text, Loader=yamlfile._FastStrictLoader)
        assert self.places(fast) == self.places(strict)
        data = yaml.load(text, Loader=yamlfile._FastStrictLoader)
        assert data == yamlfile._StrictLoader("").construct_document(strict) and data

    def test_every_front_matter_reads_the_same(self):
        for path in sorted((ROOT / "lessons").glob("*/lesson.md")):
            front = path.read_text(encoding="utf-8").split("---\n")[1]
            fast, strict = (
                yaml.load(front, Loader=loader) for loader in (yamlfile._FastStrictLoader, yamlfile._StrictLoader)
            )
            assert fast == strict and fast, path

    def test_a_key_written_twice_is_refused_by_both(self):
        for loader in (yamlfile._FastStrictLoader, yamlfile._StrictLoader):
            with pytest.raises(yaml.constructor.ConstructorError, match="the field 'a' written twice"):
                yaml.load("a: 1\nb: 2\na: 3\n", Loader=loader)


class TestPlainMatrix:
    """The quick reading of a matrix (fixture.plain_matrix) takes only what the entry-by-entry
    reading accepts; anything else goes to that reading, which names the entry."""

    def test_whole_numbers_and_decimals_become_floats(self):
        array = fixture.plain_matrix([[1, 0.5], [-2, 3]])
        assert array.dtype == np.float64 and array.tolist() == [[1.0, 0.5], [-2.0, 3.0]]

    @pytest.mark.parametrize(
        "value",
        [[], [[]], [1, 2], [[1, 2], [3]], [[1, True]], [[1, "2"]], [[1, None]], [(1, 2)]]
        + [[[float("inf")]], [[float("nan")]], [[10**400]]],
    )
    def test_anything_else_is_left_to_the_entry_by_entry_reading(self, value):
        assert fixture.plain_matrix(value) is None

    def test_a_whole_number_too_large_for_a_float_is_named(self, tmp_path):
        path = tmp_path / "fixture.yaml"
        path.write_text(f"X: [[1, {10**400}]]\nheads: [{{W_Q: [[1], [0]], W_K: [[1], [0]], W_V: [[1], [0]]}}]\n")
        with pytest.raises(FixtureError) as caught:
            fixture.load(path)
        assert "X[0][1] (row 1, column 2): expected a finite number, got a whole number of 401 digits" in str(
            caught.value
        )

    def test_a_boolean_entry_is_still_named(self, tmp_path):
        path = tmp_path / "fixture.yaml"
        path.write_text("X: [[1, true]]\nheads: [{W_Q: [[1], [0]], W_K: [[1], [0]], W_V: [[1], [0]]}]\n")
        with pytest.raises(FixtureError) as caught:
            fixture.load(path)
        assert "X[0][1]" in str(caught.value) and "a number" in str(caught.value)
