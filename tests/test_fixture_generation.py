"""The generation keys (kv_heads, window, block_size, params) refused with their file, line,
field path, what was expected and what was found. Messages are asserted whole."""

import pytest

from macros.errors import FixtureError
from macros.sources import fixture

BASE = """\
X: [[1, 0], [0, 1], [1, 1]]
causal: true
heads:
  - W_Q: [[1, 0], [0, 1]]
    W_K: [[1, 0], [0, 1]]
    W_V: [[1, 0], [0, 1]]
"""

GROUPED = """\
X: [[1, 0], [0, 1], [1, 1]]
heads:
  - W_Q: [[1, 0], [0, 1]]
  - W_Q: [[0, 1], [1, 0]]
  - W_Q: [[1, 1], [0, 1]]
  - W_Q: [[1, 0], [1, 1]]
kv_heads:
  - W_K: [[1, 0], [0, 1]]
    W_V: [[1, 0], [0, 1]]
  - W_K: [[0, 1], [1, 0]]
    W_V: [[2, 0], [0, 2]]
"""


def error_for(tmp_path, text):
    path = tmp_path / "fixture.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FixtureError) as caught:
        fixture.load(path)
    return str(caught.value).replace(str(path), "F")


def load(tmp_path, text):
    path = tmp_path / "fixture.yaml"
    path.write_text(text, encoding="utf-8")
    return fixture.load(path)


class TestGoodKeys:
    def test_shared_heads_are_copied_to_their_group(self, tmp_path):
        data = load(tmp_path, GROUPED)
        # Query heads 1-2 read key/value head 1, heads 3-4 head 2 (i // (4 / 2)).
        assert [int(h.W_V[0][0]) for h in data.heads] == [1, 1, 2, 2]
        assert data.generation.kv_heads == 2

    def test_window_block_size_and_params_are_kept(self, tmp_path):
        data = load(tmp_path, BASE + "window: 2\nblock_size: 3\nparams:\n  layers: 32\n  lengths: [1, 2.5]\n")
        keys = data.generation
        assert (keys.window, keys.block_size, keys.params) == (2, 3, {"layers": 32, "lengths": (1, 2.5)})

    def test_without_the_keys_nothing_is_asked(self, tmp_path):
        assert not load(tmp_path, BASE).generation.any


class TestBadKeys:
    def test_a_group_count_that_does_not_divide_the_head_count(self, tmp_path):
        three = GROUPED + "  - W_K: [[1, 0], [0, 1]]\n    W_V: [[1, 0], [0, 1]]\n"
        assert error_for(tmp_path, three) == (
            "F:7: kv_heads: expected a number of key/value heads that divides the number of query heads (4), got 3"
        )

    def test_a_query_head_with_its_own_keys_when_they_are_shared(self, tmp_path):
        text = GROUPED.replace("  - W_Q: [[0, 1], [1, 0]]\n", "  - W_Q: [[0, 1], [1, 0]]\n    W_K: [[1, 0], [0, 1]]\n")
        assert error_for(tmp_path, text) == (
            "F:5: heads[1].W_K: expected only W_Q here: keys and values come from kv_heads, got W_K as well"
        )

    def test_a_shared_key_head_of_the_wrong_height(self, tmp_path):
        text = GROUPED.replace("  - W_K: [[0, 1], [1, 0]]", "  - W_K: [[0, 1]]")
        assert error_for(tmp_path, text) == "F:10: kv_heads[1].W_K: expected a matrix with 2 rows (d_model), got 1×2"

    def test_a_block_size_of_0(self, tmp_path):
        assert error_for(tmp_path, BASE + "block_size: 0\n") == (
            "F:7: block_size: expected a whole number from 1 to the number of tokens (3), got 0"
        )

    def test_a_block_size_larger_than_n(self, tmp_path):
        assert error_for(tmp_path, BASE + "block_size: 4\n") == (
            "F:7: block_size: expected a whole number from 1 to the number of tokens (3), got 4"
        )

    def test_a_window_of_0(self, tmp_path):
        assert error_for(tmp_path, BASE + "window: 0\n") == (
            "F:7: window: expected a whole number of at least 1 (a token always sees itself), got 0"
        )

    def test_a_window_without_the_causal_mask(self, tmp_path):
        text = BASE.replace("causal: true", "causal: false") + "window: 2\n"
        assert error_for(tmp_path, text) == (
            "F:7: window: expected causal: true alongside it (a sliding window looks back only), got causal: false"
        )

    @pytest.mark.parametrize(
        ("params", "message"),
        [
            ("params: 3", "F:7: params: expected a mapping of names to numbers or lists of numbers, got 3"),
            ("params:\n  layers: many", "F:8: params.layers: expected a number, got 'many'"),
            (
                "params:\n  lengths: []",
                "F:8: params.lengths: expected a number or a non-empty list of numbers, got an empty list",
            ),
            ("params:\n  lengths: [1, two]", "F:8: params.lengths[1]: expected a number, got 'two'"),
            ("params:\n  seed: true", "F:8: params.seed: expected a number, got true"),
        ],
    )
    def test_bad_params(self, tmp_path, params, message):
        assert error_for(tmp_path, BASE + params + "\n") == message

    def test_a_typo_in_a_key_is_named(self, tmp_path):
        assert "block_size?" in error_for(tmp_path, BASE + "blok_size: 2\n")
