"""The helpers that compute what a lesson template used to build in a loop, each on a small
case worked by hand or held to an identity."""

import math
from types import SimpleNamespace

import numpy as np

from macros.engine import cost, decoding, positions, tiles
from macros.vocabulary import costs, facts, scaling
from macros.vocabulary import positions as encodings
from macros.vocabulary import tiles as tile_facts


def test_window_costs_by_hand():
    # h = 1, d_k = 2, window 2. n = 2: pairs 1 + 2 = 3, so 2·1·3·2 = 12 multiply-adds, as many as
    # the causal layer's 3 + 3 dot products of 2; n = 4: pairs 1 + 2 + 2 + 2 = 7, so 28, where
    # the causal layer has 1 + 2 + 3 + 4 = 10 pairs, 40.
    window = costs.window_costs(cost.cost_table([2, 4], 4, 1, 2), 2)
    assert window.macs == [12, 28]
    assert window.causal == [2]


def test_prefill_sides_kept_by_hand():
    # 100 multiply-adds over 10 bytes is 10 per byte; the rows in and out add 2·1·1·1 = 2 bytes,
    # 100 / 12 ≈ 8.3 per byte: above a ridge of 5 either way, on either side of 9.
    row = SimpleNamespace(n=1, prefill=SimpleNamespace(macs=100, bytes_read=10, intensity=10.0))
    assert costs.prefill_sides_kept([row], 1, 1, 5)
    assert not costs.prefill_sides_kept([row], 1, 1, 9)


def test_the_cache_holds_the_first_rows_of_k_and_v():
    # The KV cache lesson's identity: step t's cache is rows 1..t + 1 of K = X W_K and V = X W_V.
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    W_K, W_V = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[0.0, 1.0], [1.0, 0.0]])
    steps = decoding.decode(X, np.eye(2), W_K, W_V).steps
    head = SimpleNamespace(K=X @ W_K, V=X @ W_V, visible=np.tril(np.ones((3, 3), dtype=bool)))
    assert facts.cache_holds_first_rows(head, steps)
    moved = SimpleNamespace(K=head.K + [[0, 0], [0, 0], [0, 1e-6]], V=head.V, visible=head.visible)
    assert not facts.cache_holds_first_rows(moved, steps)


def test_sinusoidal_rows_turn_by_one_position():
    # sin(a + ω) and cos(a + ω) from sin a and cos a: the angle-addition formulas (Vaswani and
    # others, 2017, section 3.5) make row p + 1 the turn of row p.
    PE = positions.sinusoidal(6, 4)
    assert encodings.turns_by_one(PE)
    assert not encodings.turns_by_one(PE[[0, 2, 1, 3, 4, 5]])


def test_half_layout_by_hand_and_reordered():
    # d_k = 2: one pair, the same in both layouts, θ_0 = 1, so [1, 0] at position 1 turns by one
    # radian to [cos 1, sin 1]. With d_k = 4, the reordered columns give the interleaved scores.
    head = SimpleNamespace(Q_projected=np.array([[0.0, 1.0], [1.0, 0.0]]), K_projected=np.eye(2), scale=1.0)
    half = encodings.half_layout(head, 10000)
    assert np.allclose(half.Q[1], [math.cos(1), math.sin(1)], rtol=0, atol=1e-15)
    assert np.allclose(half.Q[0], [0.0, 1.0], rtol=0, atol=0)  # position 0: no turn
    rng = np.random.default_rng(0)
    Q, K = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    half = encodings.half_layout(SimpleNamespace(Q_projected=Q, K_projected=K, scale=0.5), 100)
    interleaved = positions.rotary(Q, range(3), 100) @ positions.rotary(K, range(3), 100).T  # (3, 3)
    assert np.allclose(half.Qr @ half.Kr.T, interleaved, rtol=0, atol=1e-12)
    assert np.allclose(half.weights.sum(axis=1), 1.0, rtol=0, atol=1e-15)


def test_temperature_weights_by_hand():
    # Scores 0 and ln 3: e^0 : e^(ln 3) = 1 : 3 at T = 1; at T = 1/2 they double, 1 : 9.
    weights = scaling.temperature_weights([0.0, math.log(3)], [1.0, 0.5])
    assert weights.shape == (2, 2)
    assert np.allclose(weights, [[1 / 4, 3 / 4], [1 / 10, 9 / 10]], rtol=0, atol=1e-15)


def test_tile_steps_by_hand():
    # tests/test_engine_tiles.py's case: d_k = 1, causal, one query and one key per tile, scores
    # Q K^T = [[0, 4], [0, 4]]. Query 2: after key 1, m = 0, l = 1, factor e^(−∞) = 0; after key
    # 2, m = 4, factor e^(0 − 4), new term e^(4 − 4) = 1, l = e^(−4) + 1. Query 1's second tile
    # is skipped.
    Q, K, V = np.array([[2.0], [2.0]]), np.array([[0.0], [2.0]]), np.array([[1.0], [0.0]])
    visible = np.tril(np.ones((2, 2), dtype=bool))
    tiled = tiles.flash_attention(Q, K, V, 1, 1, visible).tiles
    head = SimpleNamespace(scaled=Q @ K.T, visible=visible, V=V)  # (2, 2), scale 1
    first, second = tile_facts.tile_steps(tiled[2:], head)
    assert (first.keys, first.row, first.m, first.factor, first.l) == ((1, 1), 2, 0.0, 0.0, 1.0)
    assert first.scores.tolist() == [0.0] and first.terms.tolist() == [1.0]
    assert (second.keys, second.m, second.terms.tolist()) == ((2, 2), 4.0, [1.0])
    assert math.isclose(second.factor, math.exp(-4), rel_tol=1e-15)
    assert math.isclose(second.l, math.exp(-4) + 1, rel_tol=1e-15)
    # The running output: after key 1, 1 · v_1 = [1]; after key 2, [1] · e^(−4) + 1 · v_2 = [e^(−4)],
    # and acc / l = e^(−4) / (e^(−4) + 1) is query 2's reading, weight e^(−4)/(e^(−4) + 1) on v_1 = 1.
    assert first.acc.tolist() == [1.0] and math.isclose(second.acc[0], math.exp(-4), rel_tol=1e-15)
    skipped = tile_facts.tile_steps(tiled[:2], head)[1]
    assert skipped.skipped and skipped.scores is None and skipped.factor is None and skipped.terms is None
