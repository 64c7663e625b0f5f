"""Attention sinks in a notebook (macros/engine/sinks.py): a head's sink logit joining its
softmax, and a sliding window that keeps the first tokens (StreamingLLM), each compared with
PyTorch from the papers' equations."""

from macros.notebooks import literals, scoring
from macros.notebooks.cells import code, markdown

TOLERANCE = "rtol=1e-9, atol=1e-12"


def input_lines(layer):
    """The heads' sink logits among the lesson's numbers."""
    if not layer.sinks:
        return [], []
    return ["", literals.assign("sinks", list(layer.sinks), "one learned sink logit per head")], ["sinks"]


def softmax_cells(head, softmax_input, names):
    """The stable softmax with the head's sink logit s: the shift is the largest of the row's
    scores and s, the sum counts e^(s − shift), and the sink takes the rest of the weight."""
    shift, shifted, exps, sums, weights = names
    sink, sink_weight = f"sinks[{head.number - 1}]", head.name("sink_weight")
    return [
        code(
            "# Stable softmax with a sink, shift: the largest of each row's scores and the head's sink logit.",
            f"{shift} = np.maximum({softmax_input}.max(axis=1, keepdims=True), {sink})  # (n_q, 1)",
            f"{shifted} = {softmax_input} - {shift}  # (n_q, n_k): every entry is at most 0",
            f"show({shift}={shift}, {shifted}={shifted})",
        ),
        code(
            "# Exponentials of the keys' scores, and the sink's own, e^(s - shift).",
            f"{exps} = np.exp({shifted})  # (n_q, n_k)",
            f"sink_exps = np.exp({sink} - {shift})  # (n_q, 1)",
            f"show({exps}={exps}, sink_exps=sink_exps)",
        ),
        code(
            "# The sum counts the sink: the keys' exponentials and the sink's.",
            f"{sums} = {exps}.sum(axis=1, keepdims=True) + sink_exps  # (n_q, 1)",
            f"show({sums}={sums})",
        ),
        code(
            "# The weights on the keys add up to less than 1: the sink takes the rest, and reads no value.",
            f"{weights} = {exps} / {sums}  # (n_q, n_k)",
            f"{sink_weight} = (sink_exps / {sums})[:, 0]  # (n_q,)",
            f"np.testing.assert_allclose({weights}.sum(axis=1) + {sink_weight}, 1.0, rtol=1e-12)",
            f"show({weights}={weights}, {sink_weight}={sink_weight})",
        ),
    ]


def streaming_cells(fixture, layer):
    """With a window and kept first tokens: both layers, each head's weights and readings."""
    generation = getattr(fixture, "generation", None)
    tokens = getattr(generation, "sink_tokens", None)
    if not tokens:
        return []
    w, n = generation.window, layer.n_q
    lines = [
        f"window, first = {w}, {tokens}  # the window's recent keys, and the first tokens StreamingLLM keeps",
        f"p, j = np.indices(({n}, {n}))",
        "window_visible = (j <= p) & (j > p - window)  # (n, n): the last `window` keys",
        "streaming_visible = (j <= p) & ((j < first) | (j > p - window))  # (n, n): and the first tokens",
        "",
        "",
        "def softmax_under(scores, visible, sink=-np.inf):",
        '    """The stable softmax over the keys each row sees (and a sink logit, if the head has one)."""',
        "    masked = np.where(visible, scores, -np.inf)",
        "    shift = np.maximum(masked.max(axis=1, keepdims=True), sink)",
        "    e = np.exp(masked - shift)",
        "    return e / (e.sum(axis=1, keepdims=True) + np.exp(sink - shift))",
        "",
        "",
    ]
    for head in layer.heads:
        n_ = head.name
        logits = scoring.softmax_input_name(layer, head)
        sink = f", sinks[{head.number - 1}]" if layer.sinks else ""
        lines += [
            f"window_{n_('weights')} = softmax_under({logits}, window_visible{sink})",
            f"streaming_{n_('weights')} = softmax_under({logits}, streaming_visible{sink})",
            f"window_{n_('reading')} = window_{n_('weights')} @ {n_('V')}",
            f"streaming_{n_('reading')} = streaming_{n_('weights')} @ {n_('V')}",
            f"show(window_{n_('weights')}=window_{n_('weights')}, streaming_{n_('weights')}=streaming_{n_('weights')})",
        ]
    return [
        markdown(
            "## A sliding window, with and without the first tokens",
            "",
            f"Under a window of {w} keys, the first tokens drop out of later rows; StreamingLLM keeps the first "
            f"{tokens} visible to every later query.",
        ),
        code(*lines),
    ]


def published(lesson, layer):
    """The window's and StreamingLLM's weights and readings the page shows."""
    generation = lesson.generation
    if generation is None or generation.streaming is None:
        return {}
    values = {}
    for how, traced in (("window", generation.window), ("streaming", generation.streaming)):
        for head, computed in zip(layer.heads, traced.heads, strict=True):
            values[f"{how}_{head.name('weights')}"] = computed.weights
            values[f"{how}_{head.name('reading')}"] = computed.output
    return values


def torch_lines(fixture, layer):
    """StreamingLLM's mask handed to scaled_dot_product_attention as its boolean attn_mask."""
    generation = getattr(fixture, "generation", None)
    if not getattr(generation, "sink_tokens", None):
        return []
    lines = ["", "    # StreamingLLM: the window's mask with the first tokens kept, as the boolean attn_mask."]
    for head in layer.heads:
        n = head.name
        lines += [
            f"    got = torch.nn.functional.scaled_dot_product_attention(tensor({n('Q')}), tensor({n('K')}), "
            f"tensor({n('V')}), attn_mask=tensor(streaming_visible))",
            f"    np.testing.assert_allclose(got.numpy(), streaming_{n('reading')}, {TOLERANCE})",
            f'    print("Head {head.number}, the first tokens kept: scaled_dot_product_attention agrees.")',
        ]
    return lines
