"""Suggestions for a misspelt name (macros/missing.py): hand-counted edit distances."""

import pytest

from macros.missing import mapping_message, suggestion
from macros.sources.fixture import edit_distance


class TestEditDistance:
    @pytest.mark.parametrize(
        ("a", "b", "edits"),
        [
            ("kitten", "sitting", 3),  # the textbook case: k→s, e→i, +g
            ("nmu", "num", 1),  # neighbours swapped: one typo
            ("ab", "ba", 1),
            ("", "abc", 3),
            ("abc", "", 3),
            ("weigths", "weights", 1),
            ("ca", "abc", 3),  # a swap is not combined with a later insertion (restricted distance)
        ],
    )
    def test_edits_with_swaps(self, a, b, edits):
        assert edit_distance(a, b, swaps=True) == edits

    @pytest.mark.parametrize(("a", "b", "edits"), [("kitten", "sitting", 3), ("nmu", "num", 2), ("", "ab", 2)])
    def test_plain_levenshtein_counts_a_swap_as_two(self, a, b, edits):
        assert edit_distance(a, b) == edits


class TestSuggestion:
    @pytest.mark.parametrize(
        ("message", "names", "hint"),
        [
            ("'nmu' is undefined", ["num", "vec"], "; did you mean 'num'?"),
            ("'tolerence' is undefined", ["tolerance", "trace"], "; did you mean 'tolerance'?"),
            ("'X' is undefined", ["h", "exp"], ""),  # too short to guess
            ("'qwerty' is undefined", ["num", "trace"], ""),
            ("'abc' is undefined", ["abd", "abcde"], "; did you mean 'abd'?"),  # 3 letters: one typo allowed
            ("'abc' is undefined", ["abcde"], ""),
            ("something else went wrong", ["num"], ""),
        ],
    )
    def test_hints(self, message, names, hint):
        assert suggestion(message, names) == hint


class TestMappingMessage:
    def test_a_small_mapping_is_listed(self):
        assert mapping_message({"seed": 7, "temperatures": [1]}, "sed") == (
            "no value 'sed' (the values are seed, temperatures); did you mean 'seed'?"
        )

    def test_a_large_mapping_is_counted(self):
        keys = {f"k{i:02}": i for i in range(25)}
        assert mapping_message(keys, "zz").startswith("no value 'zz' (25 values, such as k00, k01, ")

    def test_keys_that_are_not_names_are_not_suggested(self):
        assert mapping_message({1: "a", "y": 2}, "x") == "no value 'x' (the values are y); did you mean 'y'?"
