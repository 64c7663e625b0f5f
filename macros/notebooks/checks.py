"""The notebook's last cells: a check against the lesson page, and a comparison with PyTorch.

The page's values are written into the notebook when it is made, at full precision
(``repr`` of each float64), so the check compares with what the page was computed from,
not with its rounded text. Tolerances: rtol 1e-9 absorbs a different order of floating-point
operations; atol 1e-12 lets an exact 0 (a hidden key's weight) meet a round-off 1e-17.
"""

from macros.notebooks import backward, block, latent, linear, literals, model, scoring, sinks
from macros.notebooks.cells import code, markdown

TOLERANCE = "rtol=1e-9, atol=1e-12"
# The trace's fields the check compares, by the name the notebook computes them under (a
# head's carry its number: weights2). macros/engine/trace.py declares why the others are not.
HEAD_CHECKED = {
    "Q": "Q",
    "K": "K",
    "V": "V",
    "scores": "scores",
    "scaled": "scaled",
    "exps": "exps",
    "weights": "weights",
    "output": "reading",
    **scoring.CHECKED,  # QK-norm, a cap, ALiBi's bias, a sink (macros/notebooks/scoring.py); absent elsewhere
    "logsumexp": "logsumexp",  # a FlashAttention lesson's (macros/notebooks/tiles.py)
    # linear attention's (macros/notebooks/linear.py)
    **{name: name for name in ("phi_Q", "phi_K", "states", "normalizers")},
}
# The layer's own (a stack has no concatenation) and, with an unembedding, the next token's.
LAYER_CHECKED = {name: name for name in ("concat", "output", "logits", "probs", "loss", "d_logits")}
# Records whose every value is checked: the backward pass, the transformer block, the latent, and
# the model around attention (macros/notebooks/model.py).
RECORDS_CHECKED = {
    "backward": backward.published,
    "block": lambda trace, layer: block.published(trace),
    "latent": latent.published,
    "embedding": model.embedding_published,
    "layers": model.layers_published,
    "sampling": model.sampling_published,
    "train": model.train_published,
}


def published(lesson, layer):
    """The values the page shows, by the notebook's variable names: each head's steps from
    its queries to its reading, the concatenation and the output."""
    values = {}
    for head, traced in zip(layer.heads, lesson.trace.heads, strict=True):
        for field, name in HEAD_CHECKED.items():
            if getattr(traced, field) is not None:
                values[head.name(name)] = getattr(traced, field)
    for field, name in LAYER_CHECKED.items():
        if getattr(lesson.trace, field) is not None:
            values[name] = getattr(lesson.trace, field)
    for values_of in RECORDS_CHECKED.values():
        values |= values_of(lesson.trace, layer)
    return values | sinks.published(lesson, layer)


def against_page(lesson, layer):
    values = published(lesson, layer)
    lines = [
        "# The lesson page's values, at full precision, written here when this notebook was made.",
        "page = {}",
    ]
    for name, value in values.items():
        lines.append(literals.assign(f'page["{name}"]', value))
    lines += [
        "",
        "computed = {" + ", ".join(f'"{name}": {name}' for name in values) + "}",
        "for name, value in page.items():",
        f"    np.testing.assert_allclose(computed[name], value, {TOLERANCE}, err_msg=name)",
        'print(f"All {len(page)} results agree with the lesson page: " + ", ".join(page) + ".")',
    ]
    return [
        markdown(
            "## Check against the lesson page",
            "",
            "The cell below holds the results the lesson page shows, unrounded, and stops with an error "
            "if anything computed above differs from them. If you change one of the lesson's numbers, "
            "expect it to tell you which results moved.",
        ),
        code(*lines),
    ]


def with_torch(layer, fixture=None):
    """Each head through scaled_dot_product_attention (its scoring steps computed by torch
    first where it has them: macros/notebooks/scoring.py), or from linear attention's equations;
    the latent and StreamingLLM forms from theirs; the whole layer through nn.MultiheadAttention
    where the heads have its layout (see Layer.fused_width). A stack's layers are compared in
    macros/notebooks/model.py."""
    if not layer.heads:
        return []
    per_head = ", ".join(
        f'"head {head.number}": ({", ".join(scoring.torch_inputs(layer, head))})' for head in layer.heads
    )
    lines = [
        "try:",
        "    import torch",
        "except ImportError:",
        "    torch = None",
        '    print("Skipped the comparison with PyTorch: torch is not installed here.")',
        '    print("Install it (pip install torch) and run this cell again to compare.")',
        "",
        "if torch is not None:",
        "",
        "    def tensor(a):",
        "        return torch.from_numpy(np.ascontiguousarray(a))  # float64 stays float64",
        "",
    ]
    if layer.masked and scoring.plain_in_torch(layer):
        lines.append("    # scaled_dot_product_attention's boolean attn_mask is True where a query may see a key.")
    call = linear.torch_lines(layer) if layer.linear else scoring.torch_call(layer).split("\n")
    agrees = (
        "linear attention from its equations" if layer.linear else "torch.nn.functional.scaled_dot_product_attention"
    )
    lines += [
        f"    for name, ({scoring.torch_loop_names(layer)}) in {{{per_head}}}.items():",
        *call,
        f"        np.testing.assert_allclose(got.numpy(), reading, {TOLERANCE}, err_msg=name)",
        f'        print(f"{{name}}: {agrees} agrees.")',
    ]
    lines += latent.torch_lines(layer) + sinks.torch_lines(fixture, layer) + multihead(layer)
    said = linear.WORDS if layer.linear else scoring.torch_words(layer)
    said = " ".join(filter(None, [said, latent_words(layer), streaming_words(fixture)]))
    if said:
        return [markdown("## Compare with PyTorch", "", said), code(*lines)]
    return [
        markdown(
            "## Compare with PyTorch",
            "",
            "If PyTorch is installed, this cell runs each head through "
            "`torch.nn.functional.scaled_dot_product_attention` and compares the readings"
            + (
                ", then runs the whole layer through `torch.nn.MultiheadAttention`, with the lesson's matrices "
                "as its weights."
                if layer.fused_width
                else ". (`torch.nn.MultiheadAttention` needs every head to have the same width, "
                "d_model / h, for queries, keys and values alike; this lesson's heads do not, so it is left out.)"
            )
            + " Without PyTorch the cell says so and does nothing else.",
        ),
        code(*lines),
    ]


def latent_words(layer):
    if not layer.latent:
        return None
    return (
        "It also computes each head from DeepSeek-V2's equations in torch (c = x W_DKV, k = c W_UK, v = c W_UV) and "
        "in the absorbed form (the query times W_UKᵀ against c, with `scale` 1/√d_k), each through "
        "`scaled_dot_product_attention`."
    )


def streaming_words(fixture):
    if not getattr(getattr(fixture, "generation", None), "sink_tokens", None):
        return None
    return (
        "Then it hands StreamingLLM's mask (the window, the first tokens kept) to "
        "`scaled_dot_product_attention` as its boolean `attn_mask` and compares those readings too."
    )


def multihead(layer):
    if not layer.fused_width:
        return []
    names = [head.name for head in layer.heads]
    if layer.direct:
        stacked = f"np.vstack([np.eye({layer.d_in})] * 3)"
        stacked_comment = "(3 · d_model, d_model): Q, K and V are given, so each projection is the identity"
        inputs = "tensor(Q)[None], tensor(K)[None], tensor(V)[None]  # (1, n, d_model): a batch of one"
        call = "query, key, value = " + inputs
        args = "query, key, value"
    else:
        blocks = ", ".join(f"{name(base)}" for base in ("W_Q", "W_K", "W_V") for name in names)
        stacked = f"np.hstack([{blocks}]).T"
        stacked_comment = "(3 · d_model, d_model)"
        call = "x = tensor(X)[None]  # (1, n, d_model): a batch of one sequence"
        args = "x, x, x"
    mask = ", attn_mask=tensor(~visible)" if layer.masked else ""
    lines = [
        "",
        "    # nn.MultiheadAttention stores a weight as (out, in) and computes x @ W.T, so it takes the",
        "    # transposes: in_proj_weight is W_Q, W_K and W_V of all heads side by side, transposed;",
        "    # out_proj.weight is W_O transposed. No biases: the lesson has none.",
        f"    d_model, h = {layer.d_in}, {layer.h}",
        "    mha = torch.nn.MultiheadAttention(d_model, h, bias=False, batch_first=True, dtype=torch.float64)",
        "    with torch.no_grad():",
        f"        mha.in_proj_weight.copy_(tensor({stacked}))  # {stacked_comment}",
        "        mha.out_proj.weight.copy_(tensor(W_O.T))  # (d_model, h · d_v)",
        "    # It scales each head by 1/√(d_model / h): the lesson's 1/√d_k, since here d_k = d_model / h.",
    ]
    if layer.masked:
        lines.append("    # Its boolean attn_mask is True where a key is hidden: the opposite of the one above.")
    lines += [
        f"    {call}",
        f"    got, got_weights = mha({args}{mask}, average_attn_weights=False)",
        f"    np.testing.assert_allclose(got[0].detach().numpy(), output, {TOLERANCE}, err_msg='output')",
    ]
    for i, name in enumerate(names):
        weights = name("weights")
        lines.append(
            f"    np.testing.assert_allclose(got_weights[0, {i}].detach().numpy(), {weights}, {TOLERANCE}, "
            f"err_msg='{weights}')"
        )
    lines.append('    print("torch.nn.MultiheadAttention agrees: the output and every head\'s weights.")')
    return lines
