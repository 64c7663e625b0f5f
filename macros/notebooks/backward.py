"""The backward pass in a notebook: every gradient by the chain rule, checked against finite
differences, and against PyTorch's autograd where torch is installed.

Names follow the trace (macros/engine/backward.py): ``d_W_O``, ``d_concat``, and per head
``d_reading``, ``d_weights``, ``d_scaled``, ``d_scores``, ``d_Q``, ``d_K``, ``d_V``,
``d_W_Q``, ``d_W_K``, ``d_W_V`` (with the head's number when the layer has several), then
``d_X``.
"""

from macros.engine.backward import HEAD_GRADIENTS
from macros.notebooks import literals
from macros.notebooks.cells import code, markdown

# The trace's name for each head gradient, and the notebook's (the reading is d_output there).
HEAD_NAMES = {name: "d_reading" if name == "d_output" else name for name in HEAD_GRADIENTS}
TOLERANCE = "rtol=1e-6, atol=1e-8"  # finite differences: central, step 1e-6


def input_lines(fixture):
    if getattr(fixture, "upstream", None) is None:
        return [], []
    comment = f"(n, d_out) = {fixture.upstream.shape}: the gradient of the loss with respect to the output"
    return ["", literals.assign("upstream", fixture.upstream, comment)], ["upstream"]


def head_cells(layer, head):
    n = head.name
    d = {name: n(HEAD_NAMES[name]) for name in HEAD_GRADIENTS}
    lines = [
        f"# Head {head.number}: from the gradient of its reading back to its projections."
        if layer.h > 1
        else "# The head: from the gradient of its reading back to its projections.",
        f"{d['d_weights']} = {d['d_output']} @ {n('V')}.T  # reading = weights @ V  ->  (n, d_v) @ (d_v, n)",
        f"{d['d_V']} = {n('weights')}.T @ {d['d_output']}  # (n, n) @ (n, d_v)",
        "# Softmax, row by row: J_a @ d_a with J_a = diag(a) - a aᵀ, written without building J.",
        f"inner = ({d['d_weights']} * {n('weights')}).sum(axis=1, keepdims=True)  # (n, 1)",
        f"{d['d_scaled']} = {n('weights')} * ({d['d_weights']} - inner)  # (n, n): 0 where a key is hidden",
        f"{d['d_scores']} = {d['d_scaled']} * {n('scale')}  # scaled = scores * scale",
        f"{d['d_Q']} = {d['d_scores']} @ {n('K')}  # scores = Q @ K.T",
        f"{d['d_K']} = {d['d_scores']}.T @ {n('Q')}",
        f"{d['d_W_Q']} = X.T @ {d['d_Q']}  # Q = X @ W_Q  ->  (d_model, n) @ (n, d_k)",
        f"{d['d_W_K']} = X.T @ {d['d_K']}",
        f"{d['d_W_V']} = X.T @ {d['d_V']}",
        "show(" + ", ".join(f"{v}={v}" for v in d.values()) + ")",
    ]
    return code(*lines)


def computation(fixture, layer):
    if getattr(fixture, "upstream", None) is None:
        return []
    return [
        markdown(
            "## The backward pass",
            "",
            "Given `upstream`, the gradient of a loss with respect to the layer's output, the chain rule runs "
            "each step backwards.",
        ),
        *chain(layer),
        *finite_differences(layer),
    ]


def chain(layer):
    """The cells from `upstream` (defined above them) back to every projection's gradient and d_X."""
    widths = [head.d_v for head in layer.heads]
    cuts = [sum(widths[: i + 1]) for i in range(len(widths) - 1)]
    parts = ", ".join(head.name("d_reading") for head in layer.heads)
    first = [
        "# The output: output = concat @ W_O, and the loss's gradient with respect to it is `upstream`.",
        "d_W_O = concat.T @ upstream  # (h · d_v, n) @ (n, d_out)",
        "d_concat = upstream @ W_O.T  # (n, d_out) @ (d_out, h · d_v)",
        f"{parts}{',' if layer.h == 1 else ''} = np.split(d_concat, {cuts}, axis=1)  # one block of columns per head",
        "show(d_W_O=d_W_O, d_concat=d_concat)",
    ]
    total = " + ".join(f"{h.name(f'd_{m}')} @ {h.name(f'W_{m}')}.T" for h in layer.heads for m in ("Q", "K", "V"))
    return [
        code(*first),
        *[head_cells(layer, head) for head in layer.heads],
        code(
            "# The input rows feed every projection of every head: their gradients add up.",
            f"d_X = {total}",
            "show(d_X=d_X)",
        ),
    ]


def forward_source(layer):
    """A function that recomputes the loss from X and the weights, for finite differences."""
    mask = "np.where(visible, scaled, -np.inf)" if layer.masked else "scaled"
    lines = [
        "def loss(X, W_O, *projections):",
        '    """sum(upstream * output): a loss whose gradient with respect to the output is `upstream`."""',
        "    readings = []",
        "    for W_Q_, W_K_, W_V_ in zip(projections[0::3], projections[1::3], projections[2::3]):",
        "        q, k, v = X @ W_Q_, X @ W_K_, X @ W_V_",
        "        scaled = q @ k.T / np.sqrt(q.shape[1])",
        f"        masked_ = {mask}",
        "        e = np.exp(masked_ - masked_.max(axis=1, keepdims=True))",
        "        readings.append(e / e.sum(axis=1, keepdims=True) @ v)",
        "    return float((upstream * (np.hstack(readings) @ W_O)).sum())",
    ]
    return lines


def finite_differences(layer):
    projections = ", ".join(f"{h.name('W_Q')}, {h.name('W_K')}, {h.name('W_V')}" for h in layer.heads)
    grads = ", ".join(f"{h.name('d_W_Q')}, {h.name('d_W_K')}, {h.name('d_W_V')}" for h in layer.heads)
    lines = [
        *forward_source(layer),
        "",
        "",
        "def numerical_gradient(arrays, i, step=1e-6):",
        '    """Nudge each entry of arrays[i] up and down by `step`: the slope of the loss, entry by entry."""',
        "    grad = np.zeros_like(arrays[i])",
        "    for index in np.ndindex(arrays[i].shape):",
        "        up = [a.copy() for a in arrays]",
        "        down = [a.copy() for a in arrays]",
        "        up[i][index] += step",
        "        down[i][index] -= step",
        "        grad[index] = (loss(*up) - loss(*down)) / (2 * step)",
        "    return grad",
        "",
        "",
        f"arrays = [X, W_O, {projections}]",
        f"names = ['d_X', 'd_W_O', {', '.join(repr(g) for g in grads.split(', '))}]",
        f"for i, (name, ours) in enumerate(zip(names, [d_X, d_W_O, {grads}])):",
        f"    np.testing.assert_allclose(ours, numerical_gradient(arrays, i), {TOLERANCE}, err_msg=name)",
        'print("Every gradient agrees with finite differences: " + ", ".join(names) + ".")',
    ]
    return [
        markdown(
            "## Check by finite differences",
            "",
            "Nudge one number up and down by a millionth, recompute the loss, and divide the change by the "
            "nudge: that is the slope the gradient claims, found without any calculus.",
        ),
        code(*lines),
    ]


def with_torch(fixture, layer):
    """PyTorch's autograd on the same layer and loss: its gradients against the notebook's."""
    if getattr(fixture, "upstream", None) is None:
        return []
    projections = ", ".join(f"{h.name('W_Q')}, {h.name('W_K')}, {h.name('W_V')}" for h in layer.heads)
    grads = ", ".join(f"{h.name('d_W_Q')}, {h.name('d_W_K')}, {h.name('d_W_V')}" for h in layer.heads)
    mask = "torch.where(torch.from_numpy(visible), scaled, -torch.inf)" if layer.masked else "scaled"
    lines = [
        "try:",
        "    import torch",
        "except ImportError:",
        "    torch = None",
        '    print("Skipped autograd: torch is not installed here (pip install torch, then run this cell again).")',
        "",
        "if torch is not None:",
        f"    leaves = [torch.tensor(a, requires_grad=True) for a in [X, W_O, {projections}]]",
        "    x_, w_o, *ws = leaves",
        "    readings = []",
        "    for w_q, w_k, w_v in zip(ws[0::3], ws[1::3], ws[2::3]):",
        "        scaled = (x_ @ w_q) @ (x_ @ w_k).T / np.sqrt(w_q.shape[1])",
        f"        readings.append(torch.softmax({mask}, dim=1) @ (x_ @ w_v))",
        "    (torch.tensor(upstream) * (torch.hstack(readings) @ w_o)).sum().backward()",
        f"    for leaf, ours in zip(leaves, [d_X, d_W_O, {grads}]):",
        "        np.testing.assert_allclose(leaf.grad.numpy(), ours, rtol=1e-9, atol=1e-12)",
        '    print("PyTorch\'s autograd agrees with every gradient.")',
    ]
    return [
        markdown("## Compare with autograd", "", "If PyTorch is installed, its autograd computes the same gradients."),
        code(*lines),
    ]


def published(trace, layer):
    """The gradients the page shows, by the notebook's names."""
    gradients = trace.backward
    if gradients is None:
        return {}
    values = {"d_W_O": gradients.d_W_O, "d_concat": gradients.d_concat, "d_X": gradients.d_X}
    for head, traced in zip(layer.heads, gradients.heads, strict=True):
        values |= {head.name(HEAD_NAMES[name]): getattr(traced, name) for name in HEAD_GRADIENTS}
    return values
