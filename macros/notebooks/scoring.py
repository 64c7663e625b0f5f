"""The notebook's share of how heads score their keys: QK-norm, additive scoring, soft-capping
and ALiBi's bias, in the engine's order (macros.engine.scoring).

A lesson with ``qk_norm`` normalises each head's q and k rows before the scores; with
``additive`` it gets W_a, U_a and v_a among its numbers and each head's scores as
v_a · tanh(q W_a + k U_a), with a scale of 1; with ``softcap`` each scaled score s becomes
cap · tanh(s / cap); with ``alibi`` it gets its slopes, and in each head the bias −m·(i − j)
added before the mask and the softmax. The PyTorch comparison computes the same steps with
torch's own functions from the papers' equations.
"""

from macros.notebooks import literals
from macros.notebooks.cells import code

# Head fields the check against the page compares when the lesson has them (absent otherwise),
# by the name the notebook computes them under.
CHECKED = {
    "Q_normed": "Q_normed",
    "K_normed": "K_normed",
    "capped": "capped",
    "bias": "bias",
    "biased": "biased",
    "sink_weight": "sink_weight",
}


def layer_fields(fixture):
    """The field Layer takes from the scoring keys: the fixture's whole scoring."""
    return {"scoring": fixture.scoring}


def input_lines(fixture, layer):
    """Lines among the lesson's numbers: the additive network, the cap, the slopes."""
    lines, shown = [], []
    if layer.additive:
        lines.append("")
        lines.append("# Additive scoring: a small network compares each query with each key.")
        for name in ("W_a", "U_a", "v_a"):
            value = getattr(fixture.additive, name)
            lines.append(literals.assign(name, value, f"{value.shape}"))
            shown.append(name)
    if layer.scoring.softcap is not None:
        lines += ["", f"cap = {literals.number(layer.scoring.softcap)}  # soft-capping: every score stays within ±cap"]
        shown.append("cap")
    if layer.slopes:
        lines += ["", literals.assign("slopes", list(layer.slopes), "ALiBi: one slope m per head")]
        shown.append("slopes")
    return lines, shown


def prepared_cells(layer, head, q, k):
    """QK-norm: the cell that divides each row of q and k by its root mean square, and the
    names the scores are then computed from."""
    if not layer.scoring.qk_norm:
        return [], q, k
    q_normed, k_normed = head.name("Q_normed"), head.name("K_normed")
    cell = code(
        "# QK-norm: each row of q and k divided by its root mean square, sqrt(mean(x²) + 1e-6).",
        f"{q_normed} = {q} / np.sqrt(np.mean({q} ** 2, axis=1, keepdims=True) + 1e-6)  # (n_q, d_k)",
        f"{k_normed} = {k} / np.sqrt(np.mean({k} ** 2, axis=1, keepdims=True) + 1e-6)  # (n_k, d_k)",
        f"show({q_normed}={q_normed}, {k_normed}={k_normed})",
    )
    return [cell], q_normed, k_normed


def scores_lines(q, k, scores, shape):
    """The additive scores of one head, for the scores cell."""
    return [
        "# Scores, additive: v_a · tanh(q W_a + k U_a) for every query and key.",
        f"hidden = np.tanh(({q} @ W_a)[:, None, :] + ({k} @ U_a)[None, :, :])  # (n_q, n_k, d_a)",
        f"{scores} = hidden @ v_a  # (n_q, n_k) = {shape}",
        f"show({scores}={scores})",
    ]


def after_scale_cells(layer, head, scaled):
    """The cells between the scaled scores and the mask (a cap, then ALiBi's bias), and the
    name of what the mask and the softmax then read."""
    cells, current = [], scaled
    if layer.scoring.softcap is not None:
        capped = head.name("capped")
        cells.append(
            code(
                "# Soft-capping: cap · tanh(s / cap) keeps every score between -cap and cap.",
                f"{capped} = cap * np.tanh({current} / cap)  # (n_q, n_k)",
                f"show({capped}={capped})",
            )
        )
        current = capped
    if layer.slopes:
        bias, biased = head.name("bias"), head.name("biased")
        cells.append(
            code(
                f"# ALiBi: head {head.number}'s bias, -m·(i - j) with its slope m, added before the mask and the "
                "softmax.",
                f"i, j = np.indices(({layer.n_q}, {layer.n_k}))",
                f"{bias} = -slopes[{head.number - 1}] * (i - j)  # (n_q, n_k)",
                f"{biased} = {current} + {bias}  # (n_q, n_k)",
                f"show({bias}={bias}, {biased}={biased})",
            )
        )
        current = biased
    return cells, current


def softmax_input_name(layer, head):
    """The name of what a head's mask and softmax read, as ``after_scale_cells`` leaves it."""
    name = "scaled"
    if layer.scoring.softcap is not None:
        name = "capped"
    if layer.slopes:
        name = "biased"
    return head.name(name)


# ---------------------------------------------------------------- the PyTorch comparison


def torch_inputs(layer, head):
    """What the comparison loop takes per head: q, k, v and the reading (and ALiBi's bias, the
    head's sink logit)."""
    names = [head.name("Q"), head.name("K"), head.name("V"), head.name("reading")]
    names += [head.name("bias")] if layer.slopes else []
    return names + ([f"sinks[{head.number - 1}]"] if layer.sinks else [])


def torch_loop_names(layer):
    """The loop's names for what ``torch_inputs`` gives."""
    return "q, k, v, reading" + (", bias" if layer.slopes else "") + (", sink" if layer.sinks else "")


def plain_in_torch(layer):
    """Whether scaled_dot_product_attention computes the scores itself: q·k/√d_k, with no cap,
    bias or sink (QK-norm only changes the q and k it is given)."""
    return not (layer.additive or layer.scoring.softcap is not None or layer.slopes or layer.sinks)


def torch_call(layer):
    """Lines inside the loop that set ``got``, the head's reading as PyTorch computes it.

    scaled_dot_product_attention does the whole head where the scores are q·k/√d_k (with
    QK-norm, of torch's rms_norm of q and k). Where they are not (additive scores, a cap), or
    a bias is added, torch computes what the softmax reads from the papers' equations, and
    scaled_dot_product_attention, given queries of zeros (so q·k/√d_k = 0) and those values
    as its float attn_mask, which it adds, does the softmax and the weighting.
    """
    scoring = layer.scoring
    lines = []
    q = "tensor(q)"
    k = "tensor(k)"
    if scoring.qk_norm:
        lines.append("        # QK-norm: torch's rms_norm of each row of q and k, with gain 1 and eps 1e-6.")
        lines.append("        qn = torch.nn.functional.rms_norm(tensor(q), (q.shape[1],), eps=1e-6)")
        lines.append("        kn = torch.nn.functional.rms_norm(tensor(k), (k.shape[1],), eps=1e-6)")
        q, k = "qn", "kn"
    if plain_in_torch(layer):
        mask = ", attn_mask=tensor(visible)" if layer.masked else ""
        lines.append(f"        got = torch.nn.functional.scaled_dot_product_attention({q}, {k}, tensor(v){mask})")
        return "\n".join(lines)
    if layer.additive:
        lines += [
            "        # No additive attention in PyTorch: the scores from torch's own tanh and products.",
            f"        logits = torch.tanh(({q} @ tensor(W_a))[:, None, :] + ({k} @ tensor(U_a))[None, :, :])"
            " @ tensor(v_a)",
        ]
    else:
        lines.append(f"        logits = {q} @ {k}.T / {q}.shape[1] ** 0.5  # q·k/√d_k")
    if scoring.softcap is not None:
        lines.append("        logits = cap * torch.tanh(logits / cap)  # soft-capping")
    if layer.slopes:
        lines.append("        logits = logits + tensor(bias)  # ALiBi")
    if layer.masked:
        lines.append("        logits = logits.masked_fill(~tensor(visible), float('-inf'))")
    keys, values = "tensor(k)", "tensor(v)"
    if layer.sinks:
        lines += [
            "        # The sink (gpt-oss): one more column of logits, s, whose key and value are zeros.",
            "        column = torch.full((logits.shape[0], 1), float(sink), dtype=logits.dtype)",
            "        logits = torch.cat([logits, column], 1)",
            "        k_sink = torch.cat([tensor(k), torch.zeros(1, k.shape[1], dtype=torch.float64)])",
            "        v_sink = torch.cat([tensor(v), torch.zeros(1, v.shape[1], dtype=torch.float64)])",
        ]
        keys, values = "k_sink", "v_sink"
    lines += [
        "        # scaled_dot_product_attention adds a float attn_mask to q·k/√d_k, which zero queries make 0.",
        "        got = torch.nn.functional.scaled_dot_product_attention("
        f"torch.zeros_like(tensor(q)), {keys}, {values}, attn_mask=logits)",
    ]
    return "\n".join(lines)


def torch_words(layer):
    """What the comparison says it does, when the scoring is not plain q·k/√d_k; else None."""
    if not layer.scoring.any:
        return None
    if plain_in_torch(layer):
        return (
            "If PyTorch is installed, this cell normalises each head's q and k with "
            "`torch.nn.functional.rms_norm`, runs the head through "
            "`torch.nn.functional.scaled_dot_product_attention` and compares the readings. "
            "Without PyTorch the cell says so and does nothing else."
        )
    said = ["normalises q and k with `torch.nn.functional.rms_norm`"] if layer.scoring.qk_norm else []
    if layer.additive:
        said.append(
            "computes the additive scores with torch's own tanh and products (PyTorch has no additive "
            "attention function)"
        )
    else:
        said.append("computes q·k/√d_k with torch's products")
    if layer.scoring.softcap is not None:
        said.append("caps them with `torch.tanh`")
    if layer.slopes:
        said.append("adds ALiBi's bias")
    if layer.sinks:
        said.append("appends each head's sink logit as one more column, with a key and a value of zeros")
    joined = ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + said[-1]
    return (
        f"If PyTorch is installed, this cell {joined}, then hands what the softmax reads to "
        "`torch.nn.functional.scaled_dot_product_attention`, which does the softmax and the weighted sum, "
        "and compares the readings. Without PyTorch the cell says so and does nothing else."
    )
