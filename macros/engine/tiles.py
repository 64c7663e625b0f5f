"""FlashAttention's forward pass, tile by tile.

The online softmax (``online.py``) reads the keys of every query in blocks. FlashAttention
also cuts the queries into blocks: each tile is one block of queries against one block of
keys, small enough to sit in a GPU's fast on-chip memory. For its block of queries a tile
updates the running maximum m, the running sum l and the unnormalised reading acc, exactly
as the online softmax does; a tile in which the mask hides every key is skipped, with no
work at all. After a query block's last tile, acc / l is its reading, and the pass saves one
number per query for the backward pass: the log-sum-exp m + log l, the log of the softmax's
denominator, from which any weight can be recomputed as exp(scaled − logsumexp).
"""

import dataclasses
from dataclasses import dataclass

import numpy as np

from macros.engine import online, steps


@dataclass(frozen=True)
class Tile:
    """One block of queries against one block of keys, and the query block's running values after it."""

    query_block: tuple  # (start, stop): queries start..stop-1
    key_block: tuple  # (start, stop): keys start..stop-1
    skipped: bool  # the mask hides every key of the tile from every query of it
    running_max: np.ndarray  # (b_q,)  m after the tile; -inf while no key has been seen
    running_sum: np.ndarray  # (b_q,)  l after the tile

    def to_dict(self):
        finite = np.isfinite(self.running_max)
        return {
            "query_block": list(self.query_block),
            "key_block": list(self.key_block),
            "skipped": self.skipped,
            "running_max": [float(m) if ok else None for m, ok in zip(self.running_max, finite, strict=True)],
            "running_sum": np.asarray(self.running_sum, dtype=float).tolist(),
        }


@dataclass(frozen=True)
class Tiled:
    """The tiles in the order they run (query block by query block), the reading, the log-sum-exp."""

    tiles: tuple  # of Tile
    output: np.ndarray  # (n_q, d_v)
    logsumexp: np.ndarray  # (n_q,)


def blocks(n, size):
    """Consecutive [start, stop) ranges of ``size``; the last may be shorter."""
    return online.key_blocks(n, size)


def is_empty(visible):
    """A tile whose every query-key pair is masked: nothing in it can change a running value."""
    return not np.asarray(visible).any()


def logsumexp(m, l):  # noqa: E741
    """log Σ exp(scaled) over the visible keys, kept as m + log l so that nothing overflows."""
    return m + np.log(l)  # (b_q,)


def query_block_pass(Q, K, V, keys, visible, factor):
    """One block of queries against every key block: its tiles, its reading and its log-sum-exp."""
    b_q = Q.shape[0]
    m, total, acc = np.full(b_q, -np.inf), np.zeros(b_q), np.zeros((b_q, V.shape[1]))  # (b_q,), (b_q,), (b_q, d_v)
    done = []
    for start, stop in keys:
        seen = visible[:, start:stop]  # (b_q, b_k)
        if is_empty(seen):
            done.append((start, stop, True, m, total))
            continue
        scaled = steps.scale(steps.score(Q, K[start:stop]), factor)  # (b_q, d_k) @ (d_k, b_k) -> (b_q, b_k)
        m_new = online.running_max(m, online.block_max(scaled, seen))
        rescale = online.rescale_factor(m, m_new)
        exps = online.block_exponentials(scaled, seen, m_new)  # (b_q, b_k)
        total, acc = online.update_sum(total, rescale, exps), online.update_reading(acc, rescale, exps, V[start:stop])
        m = m_new
        done.append((start, stop, False, m, total))
    return done, acc / total[:, None], logsumexp(m, total)  # (b_q, d_v), (b_q,)


def flash_attention(Q, K, V, query_block_size, key_block_size, visible):
    """The tiled forward pass; its output equals ordinary attention's on the same Q, K, V and mask."""
    n_q, n_k = Q.shape[0], K.shape[0]
    keys = blocks(n_k, key_block_size)
    factor = steps.scale_factor(Q.shape[1])
    tiles, output, lse = [], np.zeros((n_q, V.shape[1])), np.zeros(n_q)  # (n_q, d_v), (n_q,)
    for q_start, q_stop in blocks(n_q, query_block_size):
        rows = slice(q_start, q_stop)
        done, output[rows], lse[rows] = query_block_pass(Q[rows], K, V, keys, visible[rows], factor)
        tiles += [Tile((q_start, q_stop), (start, stop), skipped, m, total) for start, stop, skipped, m, total in done]
    return Tiled(tuple(tiles), output, lse)


def with_tiles(trace, query_block_size, key_block_size):
    """The layer's trace with each head's tiles and log-sum-exp (its reading is unchanged)."""
    heads = []
    for head in trace.heads:
        tiled = flash_attention(head.Q, head.K, head.V, query_block_size, key_block_size, head.visible)
        heads.append(dataclasses.replace(head, tiles=tiled.tiles, logsumexp=tiled.logsumexp))
    return dataclasses.replace(trace, heads=tuple(heads))
