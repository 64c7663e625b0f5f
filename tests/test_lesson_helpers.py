"""The helpers that compute what a lesson template used to build in a loop, each on a small
case worked by hand or held to an identity."""

from types import SimpleNamespace

from macros import cost_facts
from macros.engine import cost


def test_window_costs_by_hand():
    # h = 1, d_k = 2, window 2. n = 2: pairs 1 + 2 = 3, so 2·1·3·2 = 12 multiply-adds, as many as
    # the causal layer's 3 + 3 dot products of 2; n = 4: pairs 1 + 2 + 2 + 2 = 7, so 28, where
    # the causal layer has 1 + 2 + 3 + 4 = 10 pairs, 40.
    window = cost_facts.window_costs(cost.cost_table([2, 4], 4, 1, 2), 2)
    assert window.macs == [12, 28]
    assert window.causal == [2]


def test_prefill_sides_kept_by_hand():
    # 100 multiply-adds over 10 bytes is 10 per byte; the rows in and out add 2·1·1·1 = 2 bytes,
    # 100 / 12 ≈ 8.3 per byte: above a ridge of 5 either way, on either side of 9.
    row = SimpleNamespace(n=1, prefill=SimpleNamespace(macs=100, bytes_read=10, intensity=10.0))
    assert cost_facts.prefill_sides_kept([row], 1, 1, 5)
    assert not cost_facts.prefill_sides_kept([row], 1, 1, 9)
