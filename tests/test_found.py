"""How a found value is quoted in an error message (macros/sources/found.py).

Hand cases: LONGEST is 40, so a quoted text of 40 characters is shown whole and one of 41
is cut to 39 and an ellipsis.
"""

import pytest

from macros.errors import FixtureError
from macros.sources import fixture
from macros.sources.found import LONGEST, describe, shortened

HEADS = "heads: [{W_Q: [[1], [0]], W_K: [[1], [0]], W_V: [[1], [0]]}]\n"


class TestDescribe:
    @pytest.mark.parametrize(
        ("value", "words"),
        [
            (None, "nothing"),
            (True, "true"),
            ([], "an empty list"),
            ([1, 2], "a list of 2"),
            ({"a": 1}, "a mapping"),
            (float("nan"), ".nan"),
            (float("-inf"), "-.inf"),
            (2.5, "2.5"),
            ("it's", '"it\'s"'),  # Python's repr picks the other quote
            ("x" * 38, "'" + "x" * 38 + "'"),  # 40 characters with its quotes: whole
            ("x" * 39, "'" + "x" * 38 + "…"),  # 41: cut to 39 and an ellipsis
            (10**39, "1" + "0" * 39),  # 40 digits: shown
            (10**40, "a whole number of 41 digits"),
            (-(10**39), "a whole number of 40 digits"),  # 41 characters with its sign
        ],
    )
    def test_words(self, value, words):
        assert describe(value) == words

    def test_what_is_shown_is_never_longer_than_longest(self):
        assert len(describe("y" * 1000)) == LONGEST == len(shortened("z" * 41))


class TestInMessages:
    def test_a_long_text_for_a_matrix(self, tmp_path):
        path = tmp_path / "fixture.yaml"
        path.write_text("X: " + "a" * 200 + "\n" + HEADS)
        with pytest.raises(FixtureError) as caught:
            fixture.load(path)
        assert str(caught.value).endswith("got '" + "a" * 38 + "…")

    def test_a_long_number_written_as_text(self, tmp_path):
        path = tmp_path / "fixture.yaml"
        path.write_text("X: [[1, " + "1" * 60 + "e-3]]\n" + HEADS)
        with pytest.raises(FixtureError) as caught:
            fixture.load(path)
        assert "X[0][1] (row 1, column 2): expected a number, got '" + "1" * 38 + "…, which YAML reads as text" in str(
            caught.value
        )

    def test_a_whole_number_beyond_what_python_reads(self, tmp_path):
        """Python refuses to convert more than 4300 digits; the build says where, not a traceback."""
        path = tmp_path / "fixture.yaml"
        path.write_text("X: [[1, " + "9" * 5000 + "]]\n" + HEADS)
        with pytest.raises(FixtureError) as caught:
            fixture.load(path)
        assert str(caught.value) == (
            f"{path}:1: column 9: expected well-formed YAML, got a whole number of 5000 digits, more than Python reads"
        )
