"""A transformer block in a notebook: the layer norm before (pre-norm) or after (post-norm) the
attention layer, the residual sums and the feed-forward layer, in the names of the trace
(macros/engine/block.py). The attention layer's own cells compute from ``X``: here ``x`` is the
block's input, and ``X`` what the attention layer reads (``norm_1`` before it, or ``x``).
"""

from macros.notebooks import literals
from macros.notebooks.cells import code, markdown

# The block's steps, by the notebook's variable names (the trace's, with the block's output
# named apart from the attention layer's).
CHECKED = {
    "norm_1": "norm_1",
    "attention": "attention",
    "residual_1": "residual_1",
    "norm_2": "norm_2",
    "pre_activation": "pre_activation",
    "hidden": "hidden",
    "ffn": "ffn",
    "residual_2": "residual_2",
    "output": "block_output",
}
ACTIVATIONS = {
    "relu": ["def activation(z):", "    return np.maximum(z, 0.0)  # ReLU"],
    "gelu": [
        "from math import erf, sqrt",
        "",
        "",
        "def activation(z):",
        '    """GELU, exact: z times the standard normal distribution function at z."""',
        "    return 0.5 * z * (1 + np.vectorize(erf)(z / sqrt(2)))",
    ],
    "gelu_tanh": [
        "def activation(z):",
        '    """GELU as GPT-2 approximates it."""',
        "    return 0.5 * z * (1 + np.tanh(np.sqrt(2 / np.pi) * (z + 0.044715 * z**3)))",
    ],
}


def input_name(fixture):
    """What the lesson's X is called in the notebook: the block's input ``x``, or ``X`` itself."""
    return "x" if getattr(fixture, "transformer", None) is not None else "X"


def input_lines(fixture):
    """The block's own numbers, after the attention layer's."""
    spec = getattr(fixture, "transformer", None)
    if spec is None:
        return [], []
    lines = [
        "",
        f"# The transformer block ({spec.order}-norm) around the layer: its feed-forward layer and layer norm.",
        literals.assign("W_1", spec.W_1, f"(d_model, d_ff) = {spec.W_1.shape}"),
        literals.assign("b_1", spec.b_1, f"(d_ff,) = {spec.b_1.shape}"),
        literals.assign("W_2", spec.W_2, f"(d_ff, d_model) = {spec.W_2.shape}"),
        literals.assign("b_2", spec.b_2, f"(d_model,) = {spec.b_2.shape}"),
        f"eps = {literals.number(spec.eps)}  # inside the layer norm's square root",
    ]
    return lines, ["W_1", "b_1", "W_2", "b_2"]


def before_layer(fixture):
    """The cells that make the attention layer's input from the block's input."""
    spec = getattr(fixture, "transformer", None)
    if spec is None:
        return []
    norm = [
        "def layer_norm(rows):",
        '    """Each row minus its mean, over its standard deviation (the biased variance, eps inside)."""',
        "    mean = rows.mean(axis=1, keepdims=True)  # (n, 1)",
        "    variance = ((rows - mean) ** 2).mean(axis=1, keepdims=True)  # (n, 1)",
        "    return (rows - mean) / np.sqrt(variance + eps)  # (n, d_model)",
        "",
        "",
        *ACTIVATIONS[spec.activation],
        "",
        "",
    ]
    if spec.order == "pre":
        norm += [
            "# Pre-norm: the attention layer reads the normalised rows.",
            "norm_1 = layer_norm(x)  # (n, d_model)",
            "X = norm_1",
            "show(norm_1=norm_1)",
        ]
    else:
        norm += ["# Post-norm: the attention layer reads the block's input as it is.", "X = x", "show(X=X)"]
    return [
        markdown("## Into the block", "", "The layer norm, the activation, and what the attention layer reads."),
        code(*norm),
    ]


def after_layer(fixture):
    """The residual sums, the norms and the feed-forward layer after the attention layer."""
    spec = getattr(fixture, "transformer", None)
    if spec is None:
        return []
    ffn_input = "norm_2" if spec.order == "pre" else "norm_1"
    first = ["attention = output  # the attention layer's output", "residual_1 = x + attention  # (n, d_model)"]
    norm = "norm_2" if spec.order == "pre" else "norm_1"
    first += [f"{norm} = layer_norm(residual_1)", f"show(attention=attention, residual_1=residual_1, {norm}={norm})"]
    ffn = [
        f"pre_activation = {ffn_input} @ W_1 + b_1  # (n, d_model) @ (d_model, d_ff) -> (n, d_ff)",
        "hidden = activation(pre_activation)  # (n, d_ff)",
        "ffn = hidden @ W_2 + b_2  # (n, d_ff) @ (d_ff, d_model) -> (n, d_model)",
        "show(pre_activation=pre_activation, hidden=hidden, ffn=ffn)",
    ]
    if spec.order == "pre":
        last = ["residual_2 = residual_1 + ffn", "block_output = residual_2", "show(block_output=block_output)"]
    else:
        last = [
            "residual_2 = norm_1 + ffn",
            "norm_2 = layer_norm(residual_2)",
            "block_output = norm_2",
            "show(residual_2=residual_2, block_output=block_output)",
        ]
    return [
        markdown("## The rest of the block", "", "The residual sums, the layer norms and the feed-forward layer."),
        code("# The first residual connection and its layer norm.", *first),
        code("# The feed-forward layer, row by row.", *ffn),
        code("# The second residual connection: the block's output.", *last),
    ]


def published(trace):
    """The block's values the page shows, by the notebook's names."""
    if trace.block is None:
        return {}
    return {name: getattr(trace.block, field) for field, name in CHECKED.items()}
