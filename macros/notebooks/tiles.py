"""FlashAttention's tiles in a notebook: the tiled forward pass per head, its log-sum-exp, and a
check that its reading is the ordinary one (macros/engine/tiles.py)."""

from macros.notebooks.cells import code, markdown


def computation(fixture, layer):
    generation = getattr(fixture, "generation", None)
    if generation is None or not generation.query_block_size:
        return []
    b_q, b_k = generation.query_block_size, generation.block_size
    visible = "visible" if layer.masked else f"np.ones(({layer.n_q}, {layer.n_k}), dtype=bool)"
    lines = [
        "def flash(Q, K, V, visible, b_q, b_k):",
        '    """Tile by tile: each block of queries against each block of keys, skipping empty tiles."""',
        "    n_q, n_k = Q.shape[0], K.shape[0]",
        "    reading, lse, skipped = np.zeros((n_q, V.shape[1])), np.zeros(n_q), 0",
        "    for q0 in range(0, n_q, b_q):",
        "        rows = slice(q0, q0 + b_q)",
        "        m = np.full(Q[rows].shape[0], -np.inf)  # running maximum",
        "        l = np.zeros(Q[rows].shape[0])  # running sum  # noqa: E741",
        "        acc = np.zeros((Q[rows].shape[0], V.shape[1]))  # running unnormalised reading",
        "        for k0 in range(0, n_k, b_k):",
        "            cols = slice(k0, k0 + b_k)",
        "            seen = visible[rows, cols]",
        "            if not seen.any():  # the mask hides this whole tile: skip it",
        "                skipped += 1",
        "                continue",
        "            s = np.where(seen, Q[rows] @ K[cols].T / np.sqrt(Q.shape[1]), -np.inf)  # (b_q, b_k)",
        "            m_new = np.maximum(m, s.max(axis=1))",
        "            rescale = np.exp(m - m_new)",
        "            e = np.exp(s - m_new[:, None])",
        "            l = l * rescale + e.sum(axis=1)  # noqa: E741",
        "            acc = acc * rescale[:, None] + e @ V[cols]",
        "            m = m_new",
        "        reading[rows] = acc / l[:, None]",
        "        lse[rows] = m + np.log(l)  # saved for the backward pass",
        "    return reading, lse, skipped",
        "",
        "",
    ]
    for head in layer.heads:
        n = head.name
        call = f"flash({n('Q')}, {n('K')}, {n('V')}, {visible}, {b_q}, {b_k})"
        lines += [
            f"flash_{n('reading')}, {n('logsumexp')}, skipped = {call}",
            f"np.testing.assert_allclose(flash_{n('reading')}, {n('reading')}, rtol=1e-12, atol=1e-12)",
            f'print(f"Head {head.number}: the tiles give the same reading; {{skipped}} tiles skipped.")',
            f"show({n('logsumexp')}={n('logsumexp')})",
        ]
    return [
        markdown(
            "## FlashAttention's tiles",
            "",
            f"Blocks of {b_q} queries against blocks of {b_k} keys: the same reading, and one log-sum-exp per query.",
        ),
        code(*lines),
    ]
