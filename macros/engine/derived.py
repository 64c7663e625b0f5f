"""Quantities computed from a layer's trace that no step of it names on its own: what a
practice question may ask about a lesson's idea beyond an entry of the trace.

Each is a few lines over the trace's own fields (or the engine's steps on them): the weights
without the division by √d_k or at a temperature, the layer as one wide head, the fused
projection's columns and the head each belongs to, FlashAttention's tiles counted and a
query's running values after each key block, and a KV cache's size for a model's sizes.
"""

import numpy as np

from macros.engine import attention, decoding, fused, steps

GIB = 2**30  # bytes in a gibibyte


def unscaled_softmax(head):
    """The softmax of the raw scores, with the head's mask: the weights without the scale."""
    return steps.stable_softmax(head.scores, head.visible)  # SoftmaxParts of (n_q, n_k)


def tempered_softmax(head, temperature):
    """The softmax of the scaled scores divided by a temperature T."""
    return steps.stable_softmax(head.scaled / temperature, head.visible)  # SoftmaxParts of (n_q, n_k)


def one_wide_head(trace):
    """The same queries, keys and values read by one head as wide as all of them together."""
    Q, K, V = (np.hstack([getattr(head, name) for head in trace.heads]) for name in ("Q", "K", "V"))  # (n, h·d)
    causal = not trace.heads[0].visible.all()
    return attention.split_attention(Q, K, V, n_heads=1, causal=causal).heads[0]


def fused_queries(X, W_Qs):
    """Every head's queries from one product: X times the heads' W_Q side by side."""
    return fused.project_all(X, fused.stack_heads(W_Qs))  # (n, d_model) @ (d_model, h·d_k) -> (n, h·d_k)


def column_owner(column, d_k):
    """The head (from 0) a column of the fused projection belongs to, and its column in that head."""
    return divmod(int(column), int(d_k))


def tile_counts(tiles):
    """How many tiles a pass runs and how many the mask lets it skip."""
    skipped = sum(1 for tile in tiles if tile.skipped)
    return {"tiles": len(tiles), "skipped": skipped, "computed": len(tiles) - skipped}


def running_by_key_block(tiles, n_q):
    """Each query's running maximum and sum after each key block (None before its first visible
    key): rows of the (n_q, key blocks) tables a tile-by-tile question reads."""
    starts = sorted({tile.key_block[0] for tile in tiles})
    m = [[None] * len(starts) for _ in range(n_q)]
    total = [[None] * len(starts) for _ in range(n_q)]
    for tile in tiles:
        b = starts.index(tile.key_block[0])
        for r, q in enumerate(range(*tile.query_block)):
            if np.isfinite(tile.running_max[r]):
                m[q][b], total[q][b] = float(tile.running_max[r]), float(tile.running_sum[r])
    return m, total


def cache_bytes(n, layers, n_heads, d_k, bytes_per_number):
    """The KV cache after n tokens, in bytes: a key and a value per head per layer per token."""
    return decoding.kv_cache_bytes(n, layers, n_heads, d_k, bytes_per_number)


def tokens_that_fit(budget_bytes, bytes_per_token):
    """How many whole tokens' keys and values a memory budget holds."""
    return int(budget_bytes // bytes_per_token)
