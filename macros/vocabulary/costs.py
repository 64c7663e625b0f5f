"""Facts the cost lessons state about their tables of counts, computed here so that their
templates only name them: what a sliding window leaves of the scores and weighting, whether
the rows a layer reads and writes change a prefill's side of the chip's ratio, the cache per
token of each form of attention, linear attention's count against the pairs', and which
sequence holds each page of a paged cache, and the passes a roofline shows."""

from types import SimpleNamespace

from macros.engine import cost, latent


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


def latent_cache_rows(n_heads, d_h, kv_groups, d_c, d_rope, layers, bytes_per_number):
    """Per form of attention, the numbers one token leaves in one layer's cache (``.numbers``)
    and the bytes over every layer (``.bytes``), with the form's name (``.name``)."""
    return [
        SimpleNamespace(name=name, numbers=numbers, bytes=numbers * layers * bytes_per_number)
        for name, numbers in latent.cache_per_token(n_heads, d_h, kv_groups, d_c, d_rope)
    ]


def linear_cost_rows(lengths, d_k, d_v):
    """Per length, one causal head's multiply-adds: every pair scored and weighing a value
    (``.pairs``), and linear attention's running state (``.state``)."""
    return [
        SimpleNamespace(n=n, pairs=cost.causal_pair_macs(n, d_k, d_v), state=cost.linear_state_macs(n, d_k, d_v))
        for n in lengths
    ]


def page_rows(block_tables, page_size, lengths):
    """Each page of a paged cache in page order: its number (from 1), the sequence holding it
    (from 1) and how many of its slots that sequence fills."""
    rows = []
    for s, (table, n) in enumerate(zip(block_tables, lengths, strict=True)):
        for i, page in enumerate(table):
            filled = min(page_size, n - i * page_size)
            rows.append(SimpleNamespace(page=page + 1, sequence=s + 1, filled=filled))
    return sorted(rows, key=lambda row: row.page)


def roofline_passes(rows):
    """The passes of a decoding lesson's table on its chip's roofline, as (name, intensity): a
    step with the cache (its intensity is the same at every length: one multiply-add per
    number read), then the prefill of each length."""
    step = [("a step with the cache", rows[0].step.intensity)]
    return step + [(f"a prefill of {row.n:,} tokens", row.prefill.intensity) for row in rows]


def names():
    return {
        "roofline_passes": roofline_passes,
        "window_costs": window_costs,
        "prefill_sides_kept": prefill_sides_kept,
        "latent_cache_rows": latent_cache_rows,
        "linear_cost_rows": linear_cost_rows,
        "page_rows": page_rows,
    }
