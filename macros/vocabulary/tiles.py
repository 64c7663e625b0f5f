"""What the causal mask does to each tile of FlashAttention's pass, and whether the tiles'
running values are the online softmax's: facts the tiles lesson states, computed here so
that its template only names them."""

from types import SimpleNamespace

import numpy as np


def seen(tile, visible):
    """The tile's part of the mask: which of its queries may see which of its keys."""
    (q0, q1), (k0, k1) = tile.query_block, tile.key_block
    return np.asarray(visible, dtype=bool)[q0:q1, k0:k1]  # (b_q, b_k)


def tile_kinds(tiles, visible):
    """How many tiles hide some pair, hide every pair, lie wholly above the diagonal (every key
    after every query), and sit on the diagonal with some pairs hidden and some seen."""
    parts = [(tile, seen(tile, visible)) for tile in tiles]
    return SimpleNamespace(
        hidden=sum(not part.all() for _, part in parts),
        empty=sum(not part.any() for _, part in parts),
        above=sum(tile.key_block[0] >= tile.query_block[1] for tile, _ in parts),
        diagonal=sum(tile.key_block == tile.query_block and part.any() and not part.all() for tile, part in parts),
    )


def follow_online(tiles, online_blocks):
    """Whether each tile leaves its queries with the running maximum and sum the online
    softmax has after the same key block (tiles run query block by query block)."""
    count = len(online_blocks)
    for index, tile in enumerate(tiles):
        block = online_blocks[index % count]
        rows = slice(*tile.query_block)
        if not (
            np.allclose(tile.running_max, block.m[rows], rtol=0, atol=1e-12)
            and np.allclose(tile.running_sum, block.l[rows], rtol=0, atol=1e-12)
        ):
            return False
    return True


def tile_steps(tiles, head):
    """One query block's tiles (``tiles``, in the order the pass runs them) as the rows of a
    table, one per tile and query: the keys (counted from 1), the query's row (from 1), the
    scores it sees in the tile, m after, the factor e^(m_old - m) that shrinks the old sum
    (0 for the first tile, whose m_old is -inf), the new terms e^(s - m), l after, and the
    running output acc after: the old acc times the same factor plus the terms times the seen
    value rows, the step the engine's tiles take without keeping it. A skipped tile has no
    scores, factor or terms (None), so that the page prints a dash for them."""
    rows, acc = [], {}
    for index, tile in enumerate(tiles):
        (q0, q1), (k0, k1) = tile.query_block, tile.key_block
        for i, q in enumerate(range(q0, q1)):
            m = tile.running_max[i]
            m_old = tiles[index - 1].running_max[i] if index else -np.inf
            seen = np.asarray(head.visible[q][k0:k1], dtype=bool)  # (b_k,)
            seen_scores = np.asarray(head.scaled[q][k0:k1])[seen]  # (seen,)
            if not tile.skipped:
                old = acc.get(q, np.zeros(np.asarray(head.V).shape[1]))  # (d_v,)
                values = np.asarray(head.V)[k0:k1][seen]  # (seen, d_v)
                acc[q] = np.exp(m_old - m) * old + np.exp(seen_scores - m) @ values  # (d_v,)
            rows.append(
                SimpleNamespace(
                    keys=(k0 + 1, k1),
                    row=q + 1,
                    skipped=tile.skipped,
                    scores=None if tile.skipped else seen_scores,
                    m=m,
                    factor=None if tile.skipped else np.exp(m_old - m),
                    terms=None if tile.skipped else np.exp(seen_scores - m),
                    l=tile.running_sum[i],
                    acc=acc.get(q, np.zeros(np.asarray(head.V).shape[1])),
                )
            )
    return rows


def tile_memory(queries, keys, d_k, block_bytes, accumulator_bytes):
    """What one tile keeps in fast memory at once, part by part, as FlashAttention's forward
    pass holds it: the query, key and value blocks in the number type the model stores
    (``block_bytes`` each), and the tile's scores, the running output and each query's m and l
    in the wider type the sums are kept in (``accumulator_bytes``). The page states whether a
    tile fits from these, not from its scores alone."""
    parts = [
        ("queries", queries * d_k, block_bytes),
        ("keys", keys * d_k, block_bytes),
        ("values", keys * d_k, block_bytes),
        ("scores", queries * keys, accumulator_bytes),
        ("running output", queries * d_k, accumulator_bytes),
        ("m and l", 2 * queries, accumulator_bytes),
    ]
    rows = [SimpleNamespace(part=part, numbers=numbers, bytes=numbers * size) for part, numbers, size in parts]
    return SimpleNamespace(rows=rows, bytes=sum(row.bytes for row in rows))


def names():
    return {
        "tile_kinds": tile_kinds,
        "tiles_follow_online": follow_online,
        "tile_steps": tile_steps,
        "tile_memory": tile_memory,
    }
