"""Suggestions for a misspelt name (macros/lookup.py, macros/sources/found.py)."""

import pytest

from macros.lookup import mapping_message, suggestion
from macros.sources.found import closest_name


class TestClosestName:
    @pytest.mark.parametrize(
        ("typed", "names", "meant"),
        [
            # difflib's ratio: twice the letters in common over the letters in both
            ("nmu", ["num", "vec"], "num"),  # 2·2/6 = 0.67: neighbours swapped
            ("weigths", ["weights", "output"], "weights"),  # 2·6/14 = 0.86
            ("Tokenz", ["tokens"], "tokens"),  # case ignored
            ("x", ["y"], None),  # nothing in common
            ("abc", ["xyz"], None),
            ("weights", ["weights", "weight"], "weight"),  # the typed name itself is never suggested
        ],
    )
    def test_closest(self, typed, names, meant):
        assert closest_name(typed, names) == meant


class TestSuggestion:
    @pytest.mark.parametrize(
        ("message", "names", "hint"),
        [
            ("'nmu' is undefined", ["num", "vec"], "; did you mean 'num'?"),
            ("'tolerence' is undefined", ["tolerance", "trace"], "; did you mean 'tolerance'?"),
            ("'X' is undefined", ["h", "exp"], ""),  # too short to guess
            ("'qwerty' is undefined", ["num", "trace"], ""),
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

    def test_keys_that_are_not_names_are_listed_but_not_suggested(self):
        assert (
            mapping_message({1: "a", "seed": 2}, "sed") == "no value 'sed' (the values are seed); did you mean 'seed'?"
        )
