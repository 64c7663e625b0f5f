"""Multi-head latent attention in a notebook: the latent rows, each head's keys and values
rebuilt from them, the absorbed form, and PyTorch from DeepSeek-V2's equations
(macros/engine/latent.py)."""

from macros.notebooks import literals
from macros.notebooks.cells import code, markdown


def input_lines(fixture, layer):
    """W_DKV, then each head's W_UK and W_UV, among the lesson's numbers."""
    if not layer.latent:
        return [], []
    spec, lines, shown = fixture.latent, [""], ["W_DKV"]
    lines.append(literals.assign("W_DKV", spec.W_DKV, f"(d_model, d_c) = {spec.W_DKV.shape}"))
    for head, W_UK, W_UV in zip(layer.heads, spec.W_UK, spec.W_UV, strict=True):
        uk, uv = head.name("W_UK"), head.name("W_UV")
        lines.append(literals.assign(uk, W_UK, f"(d_c, d_k) = {W_UK.shape}"))
        lines.append(literals.assign(uv, W_UV, f"(d_c, d_v) = {W_UV.shape}"))
        shown += [uk, uv]
    return lines, shown


def latent_cell(layer):
    """C = X W_DKV, once for every head."""
    if not layer.latent:
        return []
    return [
        markdown(
            "## The latent rows",
            "",
            "Each token's row compressed once; every head rebuilds its keys and values from it.",
        ),
        code(
            "# The latent rows: all a cache keeps for this layer, d_c numbers per token.",
            f"C = X @ W_DKV  # (n, d_model) @ (d_model, d_c) -> (n, d_c) = ({layer.n_q}, d_c)",
            "show(C=C)",
        ),
    ]


def projection_lines(head):
    """The head's keys and values from the latent rows (in place of X W_K and X W_V)."""
    n = head.name
    return [
        f"{n('K')} = C @ {n('W_UK')}  # (n, d_c) @ (d_c, d_k) -> (n, d_k)",
        f"{n('V')} = C @ {n('W_UV')}  # (n, d_c) @ (d_c, d_v) -> (n, d_v)",
    ]


def absorbed_cells(layer):
    """The absorbed form: queries moved into the latent's coordinates score C directly (with the
    same 1/√d_k), and W_UV folded into each head's rows of W_O gives the same output."""
    if not layer.latent:
        return []
    lines, start, total = [], 0, []
    for head in layer.heads:
        n = head.name
        rows = f"W_O[{start}:{start + head.d_v}]"
        lines += [
            f"{n('Q_absorbed')} = {n('Q')} @ {n('W_UK')}.T  # (n, d_k) @ (d_k, d_c) -> (n, d_c)",
            f"{n('scores_absorbed')} = {n('Q_absorbed')} @ C.T  # (n, d_c) @ (d_c, n) -> (n, n)",
            f"np.testing.assert_allclose({n('scores_absorbed')}, {n('scores')}, rtol=1e-12, atol=1e-12)",
            f"{n('W_VO')} = {n('W_UV')} @ {rows}  # W_UV folded into head {head.number}'s rows of W_O",
        ]
        total.append(f"{n('weights')} @ C @ {n('W_VO')}")
        start += head.d_v
    lines += [
        f"output_absorbed = {' + '.join(total)}  # (n, d_out): no key or value is ever rebuilt",
        "np.testing.assert_allclose(output_absorbed, output, rtol=1e-12, atol=1e-12)",
        'print("The absorbed form gives the same scores and the same output.")',
        "show(" + ", ".join(f"{h.name('scores_absorbed')}={h.name('scores_absorbed')}" for h in layer.heads) + ")",
    ]
    return [
        markdown(
            "## The absorbed form",
            "",
            "q kᵀ = q (c W_UK)ᵀ = (q W_UKᵀ) cᵀ: a query moved by W_UKᵀ scores the latent rows directly, "
            "still divided by √d_k; and each head's readings times its rows of W_O equal its weights times "
            "C (W_UV W_O).",
        ),
        code(*lines),
    ]


def published(trace, layer):
    """The latent record's values the page shows, by the notebook's names."""
    record = trace.latent
    if record is None:
        return {}
    values = {"C": record.c}
    for head, absorbed in zip(layer.heads, record.heads, strict=True):
        values[head.name("Q_absorbed")] = absorbed.Q_absorbed
        values[head.name("scores_absorbed")] = absorbed.scores
        values[head.name("W_VO")] = absorbed.W_VO
    return values | {"output_absorbed": record.output}


def torch_lines(layer):
    """DeepSeek-V2's equations in torch: c = x W_DKV, k = c W_UK, v = c W_UV, then
    scaled_dot_product_attention; and the absorbed form, q W_UKᵀ against c with scale 1/√d_k."""
    if not layer.latent:
        return []
    mask = ", attn_mask=tensor(visible)" if layer.masked else ""
    lines = [
        "",
        "    # Multi-head latent attention from its equations: c = x W_DKV, k = c W_UK, v = c W_UV.",
        "    c = tensor(X) @ tensor(W_DKV)",
    ]
    for head in layer.heads:
        n = head.name
        q = f"tensor(X) @ tensor({n('W_Q')})"
        k, v = f"c @ tensor({n('W_UK')})", f"c @ tensor({n('W_UV')})"
        lines += [
            f"    got = torch.nn.functional.scaled_dot_product_attention({q}, {k}, {v}{mask})",
            f"    np.testing.assert_allclose(got.numpy(), {n('reading')}, {TOLERANCE})",
            "    # Absorbed: the query times W_UKᵀ meets c itself; the scale stays 1/√d_k, not 1/√d_c.",
            f"    absorbed = ({q}) @ tensor({n('W_UK')}).T",
            f"    got = torch.nn.functional.scaled_dot_product_attention(absorbed, c, {v}{mask}, "
            f"scale=1 / {head.d_k} ** 0.5)",
            f"    np.testing.assert_allclose(got.numpy(), {n('reading')}, {TOLERANCE})",
            f'    print("Head {head.number}: rebuilt and absorbed, scaled_dot_product_attention agrees.")',
        ]
    return lines


TOLERANCE = "rtol=1e-9, atol=1e-12"
