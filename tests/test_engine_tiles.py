"""FlashAttention's tiles (macros/engine/tiles.py): a case worked by hand, and the identities the
tiled pass must keep: ordinary attention's reading, the log-sum-exp of the visible scaled scores,
and exactly the tiles a causal mask empties skipped."""

import math

import numpy as np
import pytest

from macros.engine import attention, tiles
from macros.errors import FixtureError
from macros.sources.fixture import load


def test_by_hand():
    # d_k = 1 (scale 1), causal, one query and one key per tile. Query 1 sees key 1 only:
    # score 2·0 = 0, so m = 0, l = 1, log-sum-exp 0. Query 2 sees scores 0 and 2·2 = 4: after
    # key 1, m = 0 and l = 1; after key 2, m = 4 and l = 1·e^(0−4) + 1; log-sum-exp log(1 + e^4).
    Q, K, V = np.array([[2.0], [2.0]]), np.array([[0.0], [2.0]]), np.array([[1.0], [0.0]])
    visible = np.tril(np.ones((2, 2), dtype=bool))
    tiled = tiles.flash_attention(Q, K, V, 1, 1, visible)
    assert [(t.query_block, t.key_block, t.skipped) for t in tiled.tiles] == [
        ((0, 1), (0, 1), False),
        ((0, 1), (1, 2), True),
        ((1, 2), (0, 1), False),
        ((1, 2), (1, 2), False),
    ]
    assert tiled.tiles[3].running_max[0] == 4.0
    assert math.isclose(tiled.tiles[3].running_sum[0], math.exp(-4) + 1, rel_tol=1e-15)
    assert np.allclose(tiled.logsumexp, [0.0, math.log(1 + math.exp(4))], rtol=1e-15, atol=0)
    # the reading: query 2 weighs key 1's value 1 by 1 / (1 + e^4)
    assert np.allclose(tiled.output[:, 0], [1.0, 1 / (1 + math.exp(4))], rtol=1e-14)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("causal", [False, True])
def test_the_tiles_give_ordinary_attention_and_its_log_sum_exp(seed, causal):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(2, 8)), int(rng.integers(1, 4))
    Q, K, V = (rng.normal(size=(n, d)) for _ in range(3))
    head = attention.attend(Q, K, V, causal)
    b_q, b_k = int(rng.integers(1, n + 1)), int(rng.integers(1, n + 1))
    tiled = tiles.flash_attention(Q, K, V, b_q, b_k, head.visible)
    assert np.allclose(tiled.output, head.output, rtol=1e-12, atol=1e-14)
    lse = np.log(np.where(head.visible, np.exp(head.scaled), 0.0).sum(axis=1))
    assert np.allclose(tiled.logsumexp, lse, rtol=1e-12)
    # a weight is recomputed from the saved log-sum-exp alone
    assert np.allclose(np.where(head.visible, np.exp(head.scaled - tiled.logsumexp[:, None]), 0), head.weights)


@pytest.mark.parametrize(("n", "b"), [(4, 1), (4, 2), (6, 2), (6, 3), (8, 4)])
def test_a_causal_mask_empties_the_tiles_above_the_diagonal(n, b):
    # With square tiles of b along n = k·b positions, the tiles above the diagonal blocks, k(k−1)/2
    # of k², see no key; no other tile is skipped.
    k = n // b
    visible = np.tril(np.ones((n, n), dtype=bool))
    tiled = tiles.flash_attention(np.ones((n, 1)), np.ones((n, 1)), np.ones((n, 1)), b, b, visible)
    skipped = [t for t in tiled.tiles if t.skipped]
    assert len(tiled.tiles) == k * k and len(skipped) == k * (k - 1) // 2
    assert all(t.key_block[0] >= t.query_block[1] for t in skipped)


def test_no_tile_is_skipped_without_a_mask():
    tiled = tiles.flash_attention(np.ones((4, 1)), np.ones((4, 1)), np.ones((4, 1)), 2, 2, np.ones((4, 4), bool))
    assert not any(t.skipped for t in tiled.tiles)


FIXTURE = """X: [[1, 0], [0, 1], [1, 1]]
causal: true
heads:
  - {W_Q: [[1, 0], [0, 1]], W_K: [[1, 0], [0, 1]], W_V: [[1, 0], [0, 1]]}
block_size: 2
"""


def test_the_fixture_key_puts_the_tiles_in_each_head(tmp_path):
    path = tmp_path / "fixture.yaml"
    path.write_text(FIXTURE + "query_block_size: 2\n")
    trace = load(path).run()
    head = trace.heads[0]
    assert len(head.tiles) == 4 and [t.skipped for t in head.tiles] == [False, True, False, False]
    assert head.logsumexp.shape == (3,)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (FIXTURE.replace("block_size: 2\n", "") + "query_block_size: 2\n", "query_block_size: expected block_size"),
        (
            FIXTURE + "query_block_size: 4\n",
            "query_block_size: expected a whole number from 1 to the number of tokens (3)",
        ),
        (FIXTURE + "query_block_size: 1\nalibi: [0.5]\n", "query_block_size: expected plain dot-product scores"),
    ],
)
def test_mistakes_are_located(tmp_path, text, message):
    path = tmp_path / "fixture.yaml"
    path.write_text(text)
    with pytest.raises(FixtureError) as caught:
        load(path)
    assert message in str(caught.value) and str(caught.value).startswith(str(path))
