"""The model around attention in a notebook: ids to rows, a stack of layers, the logits and the
loss, the next token's draw and one step of training, each in plain numpy, then compared with
PyTorch where it is installed.

Names: ``vocabulary``, ``E``, ``ids``, ``P`` and the embedding's ``one_hot``, ``E_rows``,
``positions``; a stack's ``W_Q_layer1`` (``W_Q_layer1_head2`` with several heads),
``weights_layer1``, ``output_layer1`` and the streams ``x0``, ``x1``, …; ``W_U``, ``logits``,
``probs``, ``loss``, ``d_logits``; the draw's ``sample_scaled``, ``sample_probs``, ``kept``,
``renormalised``, ``cumulative``, ``u``, ``choice``; the step's ``d_E``, ``d_P``, ``d_W_U``
(the layer's gradients by macros/notebooks/backward.py's names) and ``loss_after``.
"""

from macros.notebooks import backward, literals
from macros.notebooks.cells import code, markdown

TOLERANCE = "rtol=1e-9, atol=1e-12"
EMBEDDING = {"one_hot": "one_hot", "rows": "E_rows", "positions": "positions", "X": "X"}
SAMPLING = {
    "scaled": "sample_scaled",
    "probs": "sample_probs",
    "kept": "kept",
    "renormalised": "renormalised",
    "cumulative": "cumulative",
    "u": "u",
    "choice": "choice",
}


def _stack(fixture):
    return bool(getattr(fixture, "layers", ()))


# ---------------------------------------------------------------- the lesson's numbers


def input_lines(fixture):
    """The vocabulary, the embedding's numbers (in place of X) and a stack's matrices."""
    lines, shown = [], []
    if getattr(fixture, "vocabulary", ()):
        lines.append(f"vocabulary = {literals.labels(fixture.vocabulary)}")
    found = getattr(fixture, "embedding", None)
    if found is not None:
        lines.append(literals.assign("E", found.E, f"(n_vocab, d_model) = {found.E.shape}: one row per token"))
        lines.append(f"ids = {list(found.ids)}  # one id per position, from 0: {' '.join(fixture.tokens)}")
        shown += ["E"]
        if found.P is not None:
            lines.append(literals.assign("P", found.P, f"(n_max, d_model) = {found.P.shape}: one row per position"))
            shown.append("P")
    for l, layer in enumerate(getattr(fixture, "layers", ())):  # noqa: E741
        lines.append("")
        lines.append(f"# Layer {l + 1}")
        for h, head in enumerate(layer.heads):
            for base in ("W_Q", "W_K", "W_V"):
                name = stack_name(base, l, h, len(layer.heads))
                matrix = getattr(head, base)
                lines.append(literals.assign(name, matrix, f"(d_model, d) = {matrix.shape}"))
        W_O = layer.W_O if layer.W_O is not None else None
        if W_O is not None:
            lines.append(literals.assign(f"W_O_layer{l + 1}", W_O, f"(h · d_v, d_model) = {W_O.shape}"))
    unembedding = getattr(fixture, "unembedding", None)
    if unembedding is not None:
        lines.append("")
        if unembedding.tied:
            lines.append("W_U = E.T  # (d_model, n_vocab): tied to the embedding")
        else:
            lines.append(literals.assign("W_U", unembedding.W_U, f"(d_out, n_vocab) = {unembedding.W_U.shape}"))
        shown.append("W_U")
        if unembedding.targets:
            lines.append(f"targets = {list(unembedding.targets)}  # the true next id at each position")
    return ([""] + lines if lines else []), shown


def stack_name(base, l, h, n_heads):  # noqa: E741
    """A stack's matrix or result: W_Q_layer1, or W_Q_layer1_head2 when the layer has several heads."""
    return f"{base}_layer{l + 1}" + (f"_head{h + 1}" if n_heads > 1 else "")


# ---------------------------------------------------------------- the computation


def embedding_cells(fixture):
    """X = E[ids] + P[0:n], with the one-hot rows that pick the same rows of E."""
    found = getattr(fixture, "embedding", None)
    if found is None:
        return []
    added = found.P is not None
    lines = [
        "# Embed: each id picks its row of E; a one-hot row (1 in the id's column) times E picks the same row.",
        "one_hot = np.eye(len(vocabulary))[ids]  # (n, n_vocab)",
        "E_rows = one_hot @ E  # (n, n_vocab) @ (n_vocab, d_model) -> (n, d_model)",
        'assert np.array_equal(E_rows, E[ids]), "a one-hot row times E is the row the id looks up"',
    ]
    if added:
        lines += [
            "positions = P[: len(ids)]  # (n, d_model): the first n learned position rows",
            "X = E_rows + positions  # (n, d_model): the rows the layer reads",
            "show(one_hot=one_hot, E_rows=E_rows, positions=positions, X=X)",
        ]
    else:
        lines += ["X = E_rows  # (n, d_model): the rows the layer reads", "show(one_hot=one_hot, X=X)"]
    return [markdown("## From token ids to rows", "", "The rows X are not given: they are looked up."), code(*lines)]


def stack_cells(fixture):
    """Each layer on the residual stream, through one function that runs a whole layer."""
    if not _stack(fixture):
        return []
    mask = "np.where(visible, scaled, -np.inf)" if fixture.causal else "scaled"
    define = [
        "def attention_layer(x, heads, W_O):",
        '    """One layer on the stream x: each head\'s weights, and the readings side by side times W_O."""',
        "    weights, readings = [], []",
        "    for W_Q_, W_K_, W_V_ in heads:",
        "        scaled = (x @ W_Q_) @ (x @ W_K_).T / np.sqrt(W_Q_.shape[1])  # (n, n)",
        f"        masked = {mask}",
        "        exps = np.exp(masked - masked.max(axis=1, keepdims=True))",
        "        weights.append(exps / exps.sum(axis=1, keepdims=True))  # (n, n)",
        "        readings.append(weights[-1] @ (x @ W_V_))  # (n, d_v)",
        "    return weights, np.hstack(readings) @ W_O  # (n, d_model)",
        "",
        "",
        "x0 = X  # (n, d_model): the stream before the first layer",
        "show(x0=x0)",
    ]
    cells = [
        markdown(
            "## The layers on the residual stream",
            "",
            "Each layer reads the stream and adds its output to it: x ← x + layer(x).",
        ),
        code(*define),
    ]
    for l, layer in enumerate(fixture.layers):  # noqa: E741
        h = len(layer.heads)
        heads = ", ".join(
            "(" + ", ".join(stack_name(base, l, i, h) for base in ("W_Q", "W_K", "W_V")) + ")" for i in range(h)
        )
        width = sum(head.W_V.shape[1] for head in layer.heads)
        W_O = f"W_O_layer{l + 1}" if layer.W_O is not None else f"np.eye({width})"
        weights = ", ".join(stack_name("weights", l, i, h) for i in range(h))
        cells.append(
            code(
                f"# Layer {l + 1} reads x{l} and adds its output to it.",
                f"[{weights}], output_layer{l + 1} = attention_layer(x{l}, [{heads}], {W_O})",
                f"x{l + 1} = x{l} + output_layer{l + 1}  # (n, d_model)",
                f"show({', '.join(f'{w}={w}' for w in weights.split(', '))}, output_layer{l + 1}=output_layer{l + 1}, "
                f"x{l + 1}=x{l + 1})",
            )
        )
    cells.append(
        code(f"output = x{len(fixture.layers)}  # the last stream: what the unembedding reads", "show(output=output)")
    )
    return cells


def next_token_cells(fixture):
    """The logits, the softmax over the vocabulary and, with targets, the loss and its gradient."""
    unembedding = getattr(fixture, "unembedding", None)
    if unembedding is None:
        return []
    lines = [
        "# Unembed: every output row scored against every token of the vocabulary.",
        "logits = output @ W_U  # (n, d_out) @ (d_out, n_vocab) -> (n, n_vocab)",
        "logit_exps = np.exp(logits - logits.max(axis=1, keepdims=True))  # the stable softmax, row by row",
        "probs = logit_exps / logit_exps.sum(axis=1, keepdims=True)  # (n, n_vocab): each row adds up to 1",
        "show(logits=logits, probs=probs)",
    ]
    cells = [markdown("## The next token", "", "Logits, and their softmax over the vocabulary."), code(*lines)]
    if unembedding.targets:
        cells.append(
            code(
                "# The loss: the mean over positions of -log(probability of the true next token).",
                "n = len(targets)",
                "loss = float(-np.log(probs[np.arange(n), targets]).mean())",
                "# Its gradient with respect to the logits: (probs - one_hot(targets)) / n.",
                "d_logits = (probs - np.eye(probs.shape[1])[targets]) / n  # (n, n_vocab)",
                "show(loss=loss, d_logits=d_logits)",
            )
        )
    return cells


def sampling_cells(fixture):
    """Temperature, top-k and one draw with numpy's seeded generator."""
    spec = getattr(fixture, "sampling", None)
    if spec is None:
        return []
    top_k = "None" if spec.top_k is None else str(spec.top_k)
    lines = [
        f"temperature, top_k, seed = {literals.number(spec.temperature)}, {top_k}, {spec.seed}",
        "sample_scaled = logits[-1] / temperature  # (n_vocab,): the last row, divided by T",
        "e = np.exp(sample_scaled - sample_scaled.max())",
        "sample_probs = e / e.sum()  # (n_vocab,)",
        "# Top-k: the ids by probability, largest first (a tie goes to the lower id); keep the first k.",
        "order = sorted(range(len(sample_probs)), key=lambda t: (-sample_probs[t], t))",
        "kept = order if top_k is None else order[:top_k]",
        "renormalised = np.zeros_like(sample_probs)",
        "renormalised[kept] = sample_probs[kept] / sample_probs[kept].sum()  # 0 on every other id",
        "choice = int(np.random.default_rng(seed).choice(len(renormalised), p=renormalised))",
        "# The same draw by hand: the generator's first uniform number u, against the running totals.",
        "u = float(np.random.default_rng(seed).random())",
        "cumulative = np.cumsum(renormalised)",
        "first_above = int(np.searchsorted(cumulative / cumulative[-1], u, side='right'))",
        "assert choice == first_above, 'the draw is the first id whose running total passes u'",
        "greedy = int(np.argmax(logits[-1]))  # greedy decoding: the largest logit, whatever the temperature",
        "show(sample_probs=sample_probs, kept=kept, renormalised=renormalised, u=u, cumulative=cumulative)",
        'print(f"drawn: {vocabulary[choice]!r}; greedy: {vocabulary[greedy]!r}")',
    ]
    return [markdown("## Choosing the next token", "", "Temperature, top-k, and one seeded draw."), code(*lines)]


def train_cells(fixture, layer):
    """The loss's gradient carried back through W_U, the layer and the embedding; one step; the loss again."""
    spec = getattr(fixture, "train", None)
    if spec is None:
        return []
    tied, found = fixture.unembedding.tied, getattr(fixture, "embedding", None)
    first = [
        "# logits = output @ W_U: the gradient of W_U, and the upstream gradient of the layer's output.",
        "d_W_U = output.T @ d_logits  # (d_out, n) @ (n, n_vocab)",
        "upstream = d_logits @ W_U.T  # (n, n_vocab) @ (n_vocab, d_out): what the layer is handed",
        "show(d_W_U=d_W_U, upstream=upstream)",
    ]
    into_embedding = []
    if found is not None:
        into_embedding = [
            "# X = E[ids] + P[0:n]: each row of d_X goes to its id's row of E and to its position's row of P.",
            "d_E = one_hot.T @ d_X  # (n_vocab, n) @ (n, d_model): an id used twice collects both rows",
        ]
        if tied:
            into_embedding.append("d_E = d_E + d_W_U.T  # tied: E also reaches the loss through W_U = E.T")
        if found.P is not None:
            into_embedding += ["d_P = np.zeros_like(P)", "d_P[: len(ids)] = d_X  # positions past the text get 0"]
        shown = ["d_E", "d_P"] if found.P is not None else ["d_E"]
        into_embedding.append("show(" + ", ".join(f"{n}={n}" for n in shown) + ")")
    return [
        markdown(
            "## One step of training",
            "",
            "The loss's gradient with respect to the logits, carried back through W_U, is the layer's upstream "
            "gradient; the backward pass takes it to every projection and to X, and X's gradient goes on to E "
            "and P.",
        ),
        code(*first),
        *backward.chain(layer),
        *([code(*into_embedding)] if into_embedding else []),
        *step_cells(fixture, layer, spec),
    ]


def parameter_names(fixture, layer):
    """(name in the step, the notebook's matrix, its gradient) for every matrix the step changes."""
    found = []
    emb = getattr(fixture, "embedding", None)
    if emb is not None:
        found.append(("E", "E", "d_E"))
        if emb.P is not None:
            found.append(("P", "P", "d_P"))
    for head in layer.heads:
        for base in ("W_Q", "W_K", "W_V"):
            found.append((head.name(base), head.name(base), head.name(f"d_{base}")))
    if fixture.W_O is not None:
        found.append(("W_O", "W_O", "d_W_O"))
    if not fixture.unembedding.tied:
        found.append(("W_U", "W_U", "d_W_U"))
    return found


def model_loss_source(fixture, layer):
    """A function of the model's matrices (by name) that returns the loss."""
    emb = getattr(fixture, "embedding", None)
    if emb is None:
        rows_in = "X"
    else:
        rows_in = 'm["E"][ids] + m["P"][: len(ids)]' if emb.P is not None else 'm["E"][ids]'
    mask = "np.where(visible, scaled, -np.inf)" if fixture.causal else "scaled"
    heads = ", ".join(f'(m["{h.name("W_Q")}"], m["{h.name("W_K")}"], m["{h.name("W_V")}"])' for h in layer.heads)
    W_O = 'm["W_O"]' if fixture.W_O is not None else "W_O"
    W_U = 'm["E"].T' if fixture.unembedding.tied else 'm["W_U"]'
    return [
        "def model_loss(m):",
        '    """The loss from the model\'s matrices, given by name: the whole forward pass again."""',
        f"    x = {rows_in}  # (n, d_model)",
        "    readings = []",
        f"    for W_Q_, W_K_, W_V_ in [{heads}]:",
        "        scaled = (x @ W_Q_) @ (x @ W_K_).T / np.sqrt(W_Q_.shape[1])",
        f"        masked = {mask}",
        "        e = np.exp(masked - masked.max(axis=1, keepdims=True))",
        "        readings.append(e / e.sum(axis=1, keepdims=True) @ (x @ W_V_))",
        f"    lg = np.hstack(readings) @ {W_O} @ {W_U}  # (n, n_vocab)",
        "    lg = lg - lg.max(axis=1, keepdims=True)",
        "    log_probs = lg - np.log(np.exp(lg).sum(axis=1, keepdims=True))",
        "    return float(-log_probs[np.arange(len(targets)), targets].mean())",
    ]


def step_cells(fixture, layer, spec):
    """The training step's cells: every gradient checked against finite differences of the
    whole model's loss (a function of every matrix the step moves, written out so a reader can
    nudge any entry), then the step and the loss after it. Finite differences need nothing
    but the forward pass, so they check the hand-derived gradients independently."""
    names = parameter_names(fixture, layer)
    model = "{" + ", ".join(f'"{key}": {matrix}' for key, matrix, _ in names) + "}"
    grads = "{" + ", ".join(f'"{key}": {grad}' for key, _, grad in names) + "}"
    fd = [
        *model_loss_source(fixture, layer),
        "",
        "",
        f"model = {model}",
        f"grads = {grads}",
        'assert abs(model_loss(model) - loss) < 1e-12, "the function gives the loss computed above"',
        "step = 1e-6",
        "for name, value in model.items():",
        "    numerical = np.zeros_like(value)",
        "    for index in np.ndindex(value.shape):",
        "        up, down = dict(model), dict(model)",
        "        up[name], down[name] = value.copy(), value.copy()",
        "        up[name][index] += step",
        "        down[name][index] -= step",
        "        numerical[index] = (model_loss(up) - model_loss(down)) / (2 * step)",
        f"    np.testing.assert_allclose(grads[name], numerical, {backward.TOLERANCE}, err_msg=name)",
        'print("Every gradient agrees with finite differences: " + ", ".join(grads) + ".")',
    ]
    stepped = [
        f"lr = {literals.number(spec.lr)}  # the learning rate η",
        "stepped = {name: value - lr * grads[name] for name, value in model.items()}  # W - η dW, every matrix",
        "loss_after = model_loss(stepped)",
        'print(f"loss before the step: {loss:.6f}; after: {loss_after:.6f}")',
    ]
    return [
        markdown(
            "## Check by finite differences, then step",
            "",
            "Nudge each entry of each matrix up and down by a millionth and recompute the loss: the slopes are "
            "the gradients above. Then move every matrix against its gradient and compute the loss again.",
        ),
        code(*fd),
        code(*stepped),
    ]


# ---------------------------------------------------------------- against the page


def embedding_published(trace, layer):
    """The embedding's steps, by the notebook's names (E_rows and positions only where P is added)."""
    found = trace.embedding
    if found is None:
        return {}
    values = {name: getattr(found, field) for field, name in EMBEDDING.items()}
    return values if found.positions is not None else {"one_hot": found.one_hot, "X": found.X}


def layers_published(trace, layer):
    """Each layer's weights (per head) and output."""
    values = {}
    for l, each in enumerate(trace.layers or ()):  # noqa: E741
        for h, head in enumerate(each.heads):
            values[stack_name("weights", l, h, len(each.heads))] = head.weights
        values[f"output_layer{l + 1}"] = each.output
    return values


def sampling_published(trace, layer):
    if trace.sampling is None:
        return {}
    return {name: _plain(getattr(trace.sampling, field)) for field, name in SAMPLING.items()}


def train_published(trace, layer):
    """The step's gradients of E, P and W_U (the layer's are the backward pass's) and the loss after."""
    if trace.train is None:
        return {}
    grads = trace.train.grads
    return {f"d_{name}": grads[name] for name in ("E", "P", "W_U") if name in grads} | {
        "loss_after": trace.train.loss_after
    }


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


# ---------------------------------------------------------------- PyTorch


def with_torch(fixture, layer):
    """The model's parts through PyTorch: the embedding lookup, a stack's layers through
    scaled_dot_product_attention, the softmax and cross-entropy, the draw's softmax and top-k,
    and autograd for the training step."""
    parts = [
        *embedding_torch(fixture),
        *stack_torch(fixture),
        *next_token_torch(fixture),
        *sampling_torch(fixture),
        *train_torch(fixture, layer),
    ]
    if not parts:
        return []
    # A stack has no single layer for the heads' comparison (macros/notebooks/checks.py): this
    # cell is then the notebook's comparison with PyTorch, and says so when it skips.
    skipped = "Skipped the comparison with PyTorch" if _stack(fixture) else "Skipped"
    lines = [
        "try:",
        "    import torch",
        "except ImportError:",
        "    torch = None",
        f'    print("{skipped}: torch is not installed here (pip install torch, then run this cell again).")',
        "",
        "if torch is not None:",
        *parts,
    ]
    return [
        markdown(
            "## The model's parts in PyTorch",
            "",
            "If PyTorch is installed, this cell computes the same steps with torch's own functions and compares.",
        ),
        code(*lines),
    ]


def embedding_torch(fixture):
    if getattr(fixture, "embedding", None) is None:
        return []
    return [
        "    # torch.nn.functional.embedding is the lookup E[ids].",
        "    looked_up = torch.nn.functional.embedding(torch.tensor(ids), torch.from_numpy(E))",
        f"    np.testing.assert_allclose(looked_up.numpy(), E_rows, {TOLERANCE}, err_msg='E_rows')",
        '    print("torch.nn.functional.embedding agrees.")',
    ]


def stack_torch(fixture):
    if not _stack(fixture):
        return []
    lines = [
        "    # Each layer's heads through scaled_dot_product_attention on the stream, added to it.",
        "    x_ = torch.from_numpy(x0)",
    ]
    causal = ", attn_mask=torch.from_numpy(visible)" if fixture.causal else ""
    for l, layer in enumerate(fixture.layers):  # noqa: E741
        h = len(layer.heads)
        width = sum(head.W_V.shape[1] for head in layer.heads)
        W_O = f"W_O_layer{l + 1}" if layer.W_O is not None else f"np.eye({width})"
        heads = ", ".join(
            "(" + ", ".join(stack_name(base, l, i, h) for base in ("W_Q", "W_K", "W_V")) + ")" for i in range(h)
        )
        lines += [
            "    readings_ = []",
            f"    for w_q, w_k, w_v in [{heads}]:",
            "        q, k, v = (x_ @ torch.from_numpy(w) for w in (w_q, w_k, w_v))",
            f"        readings_.append(torch.nn.functional.scaled_dot_product_attention(q, k, v{causal}))",
            f"    x_ = x_ + torch.hstack(readings_) @ torch.from_numpy({W_O})",
            f"    np.testing.assert_allclose(x_.numpy(), x{l + 1}, {TOLERANCE}, err_msg='x{l + 1}')",
        ]
    return lines + ['    print("Every layer agrees with scaled_dot_product_attention.")']


def next_token_torch(fixture):
    unembedding = getattr(fixture, "unembedding", None)
    if unembedding is None:
        return []
    lines = [
        "    logits_ = torch.from_numpy(output) @ torch.from_numpy(W_U)",
        f"    np.testing.assert_allclose(torch.softmax(logits_, dim=1).numpy(), probs, {TOLERANCE}, err_msg='probs')",
    ]
    if unembedding.targets:
        lines += [
            "    # cross_entropy takes the logits and the true ids: the mean of -log(probability) over positions.",
            "    leaf = logits_.clone().requires_grad_(True)",
            "    loss_ = torch.nn.functional.cross_entropy(leaf, torch.tensor(targets))",
            "    loss_.backward()",
            f"    np.testing.assert_allclose(loss_.item(), loss, {TOLERANCE}, err_msg='loss')",
            f"    np.testing.assert_allclose(leaf.grad.numpy(), d_logits, {TOLERANCE}, err_msg='d_logits')",
        ]
        return lines + ['    print("torch.softmax and cross_entropy agree (the loss and its gradient too).")']
    return lines + ['    print("torch.softmax agrees.")']


def sampling_torch(fixture):
    if getattr(fixture, "sampling", None) is None:
        return []
    return [
        "    # The draw: torch's softmax at the temperature and its top-k; the choice is numpy's seeded draw.",
        "    t_probs = torch.softmax(torch.from_numpy(logits[-1]) / temperature, dim=0)",
        f"    np.testing.assert_allclose(t_probs.numpy(), sample_probs, {TOLERANCE}, err_msg='sample_probs')",
        "    values, indices = torch.topk(t_probs, len(kept))",
        "    assert indices.tolist() == list(kept), 'top-k keeps the same ids, largest first'",
        "    t_kept = torch.zeros_like(t_probs).scatter(0, indices, values)",
        f"    np.testing.assert_allclose((t_kept / t_kept.sum()).numpy(), renormalised, {TOLERANCE}, err_msg='kept')",
        '    print("torch.softmax and torch.topk agree; the choice is numpy\'s draw, checked against the page.")',
    ]


def train_torch(fixture, layer):
    """The PyTorch cell of the step: the same forward pass on tensors that require gradients,
    cross-entropy, backward(), and each leaf's gradient against the engine's. Written from the
    fixture (causal or not, W_O given or not, W_U tied or not) so that it is the lesson's model
    and not a generic one."""
    if getattr(fixture, "train", None) is None:
        return []
    emb = getattr(fixture, "embedding", None)
    rows_in = "X_t"
    if emb is not None:
        rows_in = 'leaves["E"][ids] + leaves["P"][: len(ids)]' if emb.P is not None else 'leaves["E"][ids]'
    mask = "torch.where(torch.from_numpy(visible), s, -torch.inf)" if fixture.causal else "s"
    heads = ", ".join(
        f'(leaves["{h.name("W_Q")}"], leaves["{h.name("W_K")}"], leaves["{h.name("W_V")}"])' for h in layer.heads
    )
    W_O = 'leaves["W_O"]' if fixture.W_O is not None else "torch.from_numpy(W_O)"
    W_U = 'leaves["E"].T' if fixture.unembedding.tied else 'leaves["W_U"]'
    return [
        "    # Autograd: the whole forward pass in torch, then backward() from the cross-entropy.",
        "    leaves = {name: torch.tensor(value, requires_grad=True) for name, value in model.items()}",
        "    X_t = torch.from_numpy(X)",
        f"    x_ = {rows_in}",
        "    readings_ = []",
        f"    for w_q, w_k, w_v in [{heads}]:",
        "        s = (x_ @ w_q) @ (x_ @ w_k).T / np.sqrt(w_q.shape[1])",
        f"        readings_.append(torch.softmax({mask}, dim=1) @ (x_ @ w_v))",
        f"    lg = torch.hstack(readings_) @ {W_O} @ {W_U}",
        "    torch.nn.functional.cross_entropy(lg, torch.tensor(targets)).backward()",
        "    for name, leaf in leaves.items():",
        "        np.testing.assert_allclose(leaf.grad.numpy(), grads[name], rtol=1e-9, atol=1e-12, err_msg=name)",
        '    print("PyTorch\'s autograd agrees with every gradient of the step.")',
    ]
