"""Facts the cost lessons state about their tables of counts, computed here so that their
templates only name them: what a sliding window leaves of the scores and weighting, and
whether the rows a layer reads and writes change a prefill's side of the chip's ratio."""

from types import SimpleNamespace


def window_costs(rows, window):
    """Per length (``rows``: ``macros.engine.cost.LayerCost``), the multiply-adds of the scores
    and weighting under a sliding window of ``window`` keys (``.macs``), and the lengths at
    which that equals the causal layer's count (``.causal``: the text is no longer than the
    window, so the window hides nothing the causal mask shows), so that the lesson can say
    where the window starts to save."""
    macs = [row.window_macs(window) for row in rows]
    causal = [row.n for row, count in zip(rows, macs, strict=True) if count == row.causal_quadratic_macs]
    return SimpleNamespace(macs=macs, causal=causal)


def prefill_sides_kept(rows, d_model, bytes_per_number, ridge):
    """Whether counting the rows that enter and leave the layer (2 n d_model numbers, left out
    of ``macros.engine.decode_cost``'s bytes) leaves every prefill (``rows``: ``DecodeCost``
    per length) on the same side of ``ridge``, the chip's multiply-adds per byte."""
    for row in rows:
        with_rows = row.prefill.macs / (row.prefill.bytes_read + 2 * row.n * d_model * bytes_per_number)
        if (with_rows > ridge) != (row.prefill.intensity > ridge):
            return False
    return True


def names():
    return {"window_costs": window_costs, "prefill_sides_kept": prefill_sides_kept}
