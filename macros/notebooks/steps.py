"""The notebook's computation: the lesson's numbers, then each step of attention in the book's order.

Every step is a few lines of plain numpy with a shape comment, and prints what it computed.
The order and the names are the lessons': project (or split), scores, scale, mask, the
stable softmax (shift, exponentials, sum, divide), readings, concatenate, W_O.
"""

from macros.notebooks import backward, block, latent, linear, literals, model, scoring, sequence, sinks, tiles
from macros.notebooks.cells import code, markdown


def setup(decimals):
    return code(
        "import numpy as np",
        "",
        f"np.set_printoptions(precision={decimals}, suppress=True)  # as many decimals as the lesson page shows",
        "",
        "",
        "def show(**arrays):",
        '    """Print each array under its name."""',
        "    for name, value in arrays.items():",
        '        print(f"{name} =\\n{value}\\n")',
    )


def numbers(lesson, layer):
    """The lesson's inputs as numpy arrays, in the lesson's own names."""
    fixture = lesson.fixture
    lines = []
    if layer.direct:
        intro = "The queries, keys and values are given directly"
        if layer.split:
            intro += f"; head i takes the i-th of {layer.h} equal slices of their columns"
        for label_name, labels in (("query_labels", fixture.query_labels), ("key_labels", fixture.key_labels)):
            if labels:
                lines.append(f"{label_name} = {literals.labels(labels)}")
        lines.append(literals.assign("Q", fixture.Q, f"(n_q, d_k · h) = {fixture.Q.shape}"))
        lines.append(literals.assign("K", fixture.K, f"(n_k, d_k · h) = {fixture.K.shape}"))
        lines.append(literals.assign("V", fixture.V, f"(n_k, d_v · h) = {fixture.V.shape}"))
        shown = ["Q", "K", "V"]
    else:
        intro = f"The input rows X, one per token, and the projections of each of the {layer.h} heads"
        if layer.h == 1:
            intro = "The input rows X, one per token, and the head's projections"
        if getattr(fixture, "embedding", None) is not None:
            intro = "The vocabulary, the embedding and the token ids (the rows X are looked up below)"
            shown = []
        else:
            if fixture.tokens:
                lines.append(f"tokens = {literals.labels(fixture.tokens)}")
            x = block.input_name(fixture)
            lines.append(literals.assign(x, fixture.X, f"(n, d_model) = {fixture.X.shape}"))
            shown = [x]
        if getattr(fixture, "layers", ()):
            intro += ", and each layer's matrices"
        for head, projections in zip(layer.heads, fixture.heads, strict=True):
            lines.append("")
            if layer.h > 1:
                lines.append(f"# Head {head.number}")
            own = (("W_Q", "d_k"),) if layer.latent else (("W_Q", "d_k"), ("W_K", "d_k"), ("W_V", "d_v"))
            for base, width in own:  # with a latent, keys and values come from it
                matrix = getattr(projections, base)
                name = head.name(base)
                lines.append(literals.assign(name, matrix, f"(d_model, {width}) = {matrix.shape}"))
                shown.append(name)
    if fixture.W_O is not None:
        lines.append("")
        lines.append(literals.assign("W_O", fixture.W_O, f"(h · d_v, d_out) = {fixture.W_O.shape}"))
        shown.append("W_O")
    extras = (
        latent.input_lines(fixture, layer),
        sequence.input_lines(lesson, layer),
        scoring.input_lines(fixture, layer),
        sinks.input_lines(layer),
        block.input_lines(fixture),
        backward.input_lines(fixture),
        model.input_lines(fixture),
    )
    for extra_lines, extra_shown in extras:
        lines += extra_lines
        shown += extra_shown
    if layer.masked and (layer.key_length is not None or layer.has_source):
        lines += sequence.mask_lines(layer)
        shown.append("visible")
    elif layer.causal:
        lines += [
            "",
            "# The mask: position i sees positions 1 to i (True where a query may see a key).",
            f"visible = np.tril(np.ones(({layer.n_q}, {layer.n_k}), dtype=bool))  # (n_q, n_k)",
        ]
        shown.append("visible")
    lines += ["", "show(" + ", ".join(f"{name}={name}" for name in shown) + ")"]
    return [
        markdown("## The lesson's numbers", "", intro + ", exactly as the lesson page gives them."),
        code(*lines),
    ]


def head_steps(layer, head):
    """Steps 1 to 6 for one head, one cell each, the softmax in its four parts."""
    n = head.name
    q, k, v = n("Q"), n("K"), n("V")
    scores, scale, scaled = n("scores"), n("scale"), n("scaled")
    source = sequence.keys_from(layer)
    shift, shifted, exps, sums, weights = n("shift"), n("shifted"), n("exps"), n("sums"), n("weights")
    reading = n("reading")
    title = f"## Head {head.number}" if layer.h > 1 else "## The head"
    cells = [markdown(title, "", f"Queries and keys of width d_k = {head.d_k}, values of width d_v = {head.d_v}.")]
    if layer.latent:
        cells.append(
            code(
                f"# Project: the head's queries are X times its {n('W_Q')}; its keys and values come from the "
                "latent rows C.",
                f"{q} = X @ {n('W_Q')}  # (n, d_model) @ (d_model, d_k) -> (n, d_k) = ({layer.n_q}, {head.d_k})",
                *latent.projection_lines(head),
                f"show({q}={q}, {k}={k}, {v}={v})",
            )
        )
    elif not layer.direct:
        cells.append(
            code(
                f"# Project: the head's queries, keys and values are X times its {n('W_Q')}, {n('W_K')}, {n('W_V')}.",
                f"{q} = X @ {n('W_Q')}  # (n, d_model) @ (d_model, d_k) -> (n, d_k) = ({layer.n_q}, {head.d_k})",
                f"{k} = {source} @ {n('W_K')}  # (n_k, d_k) = ({layer.n_k}, {head.d_k})",
                f"{v} = {source} @ {n('W_V')}  # (n_k, d_v) = ({layer.n_k}, {head.d_v})",
                f"show({q}={q}, {k}={k}, {v}={v})",
            )
        )
        if layer.encoding == "rotary":
            cells.append(sequence.rotation_cell(layer, head))
    elif layer.split:
        (qa, qb), (va, vb) = head.q_columns, head.v_columns
        cells.append(
            code(
                f"# Split: head {head.number} takes columns {qa + 1} to {qb} of Q and K, and {va + 1} to {vb} of V.",
                f"{q} = Q[:, {qa}:{qb}]  # (n_q, d_k) = ({layer.n_q}, {head.d_k})",
                f"{k} = K[:, {qa}:{qb}]  # (n_k, d_k) = ({layer.n_k}, {head.d_k})",
                f"{v} = V[:, {va}:{vb}]  # (n_k, d_v) = ({layer.n_k}, {head.d_v})",
                f"show({q}={q}, {k}={k}, {v}={v})",
            )
        )
    if layer.linear:
        return cells + linear.head_cells(layer, head, q, k, v)
    prepared, q_in, k_in = scoring.prepared_cells(layer, head, q, k)
    cells += prepared
    shape = f"({layer.n_q}, {layer.n_k})"
    if layer.additive:
        cells += [
            code(*scoring.scores_lines(q_in, k_in, scores, shape)),
            code(
                "# Scale: additive scores have no width to divide by, so the scale is 1.",
                f"{scale} = 1.0",
                f"{scaled} = {scores} * {scale}  # (n_q, n_k) = {shape}",
                f"show({scaled}={scaled})",
            ),
        ]
    else:
        cells += [
            code(
                "# Scores: each query's dot product with every key.",
                f"{scores} = {q_in} @ {k_in}.T  # (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k) = {shape}",
                f"show({scores}={scores})",
            ),
            code(
                "# Scale: divide by √d_k, so that the scores do not grow with the width of the keys.",
                f"{scale} = 1 / np.sqrt({q}.shape[1])  # 1/√d_k with d_k = {head.d_k}",
                f"{scaled} = {scores} * {scale}  # (n_q, n_k) = {shape}",
                f"show({scale}={scale}, {scaled}={scaled})",
            ),
        ]
    after_scale, before_mask = scoring.after_scale_cells(layer, head, scaled)
    cells += after_scale
    softmax_input = n("masked") if layer.masked else before_mask
    if layer.masked:
        cells.append(
            code(
                "# Mask: a score the query may not see becomes -inf, so its weight will be exactly 0.",
                f"{softmax_input} = np.where(visible, {before_mask}, -np.inf)  # (n_q, n_k) = {shape}",
                f"show({softmax_input}={softmax_input})",
            )
        )
    if layer.sinks:
        return (
            cells
            + sinks.softmax_cells(head, softmax_input, (shift, shifted, exps, sums, weights))
            + [reading_cell(layer, head, weights, v, reading)]
        )
    cells += [
        code(
            "# Stable softmax, shift: subtract each row's largest score, so no exponential can overflow.",
            f"{shift} = {softmax_input}.max(axis=1, keepdims=True)  # (n_q, 1) = ({layer.n_q}, 1)",
            f"{shifted} = {softmax_input} - {shift}  # (n_q, n_k): every entry is at most 0",
            f"show({shift}={shift}, {shifted}={shifted})",
        ),
        code(
            "# Stable softmax, exponentials: each lies between 0 and 1, and the row's largest is exp(0) = 1.",
            f"{exps} = np.exp({shifted})  # (n_q, n_k) = {shape}",
            f"show({exps}={exps})",
        ),
        code(
            "# Stable softmax, sum: each row's exponentials added up.",
            f"{sums} = {exps}.sum(axis=1, keepdims=True)  # (n_q, 1) = ({layer.n_q}, 1)",
            f"show({sums}={sums})",
        ),
        code(
            "# Stable softmax, divide: the attention weights; each row adds up to 1.",
            f"{weights} = {exps} / {sums}  # (n_q, n_k) = {shape}",
            f"show({weights}={weights})",
        ),
        reading_cell(layer, head, weights, v, reading),
    ]
    return cells


def reading_cell(layer, head, weights, v, reading):
    return code(
        "# Readings: each query's weighted average of the value rows.",
        f"{reading} = {weights} @ {v}  # (n_q, n_k) @ (n_k, d_v) -> (n_q, d_v) = ({layer.n_q}, {head.d_v})",
        f"show({reading}={reading})",
    )


def combine(layer):
    """Steps 7 and 8: the readings side by side, then W_O."""
    readings = ", ".join(head.name("reading") for head in layer.heads)
    width = sum(head.d_v for head in layer.heads)
    concatenate = "# Concatenate: the heads' readings side by side, in head order."
    if layer.h == 1:
        concatenate = "# Concatenate: with one head, the concatenation is its reading."
    output = [
        "# W_O: the output projection mixes the heads' features into the layer's output.",
        f"output = concat @ W_O  # (n_q, h · d_v) @ (h · d_v, d_out) -> (n_q, d_out) = ({layer.n_q}, {layer.d_out})",
        "show(output=output)",
    ]
    if not layer.has_W_O:
        output[1:1] = [
            "# This lesson has no W_O of its own: it is the identity, so the output equals the concatenation.",
            f"W_O = np.eye({width})  # (h · d_v, d_out) = ({width}, {layer.d_out})",
        ]
    return [
        markdown("## The layer's output"),
        code(
            concatenate,
            f"concat = np.hstack([{readings}])  # (n_q, h · d_v) = ({layer.n_q}, {width})",
            "show(concat=concat)",
        ),
        code(*output),
    ]


def computation(lesson, layer):
    fixture = lesson.fixture
    cells = [setup(lesson.decimals), *numbers(lesson, layer), *sequence.batch_note(layer), *block.before_layer(fixture)]
    cells += model.embedding_cells(fixture)
    if getattr(fixture, "layers", ()):  # a stack: each layer through one function, on the stream
        cells += model.stack_cells(fixture)
    else:
        cells += latent.latent_cell(layer)
        for head in layer.heads:
            cells += head_steps(layer, head)
        cells += combine(layer) + latent.absorbed_cells(layer) + tiles.computation(fixture, layer)
        cells += sinks.streaming_cells(fixture, layer) + block.after_layer(fixture)
        cells += backward.computation(fixture, layer)
    return cells + model.next_token_cells(fixture) + model.sampling_cells(fixture) + model.train_cells(fixture, layer)
