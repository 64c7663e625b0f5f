"""The notebook's share of how heads score their keys: additive scoring and ALiBi's bias.

A lesson with ``additive`` gets W_a, U_a and v_a among its numbers and each head's scores as
v_a · tanh(q W_a + k U_a), with a scale of 1; a lesson with ``alibi`` gets its slopes, and in
each head the bias −m·(i − j) added to the scaled scores before the mask and the softmax.
"""

from macros.notebooks import literals
from macros.notebooks.cells import code


def layer_fields(fixture):
    """The fields Layer takes from the scoring keys."""
    return {"additive": fixture.additive is not None, "slopes": tuple(fixture.alibi) if fixture.alibi else ()}


def input_lines(fixture, layer):
    """Lines among the lesson's numbers: the additive network, the slopes."""
    lines, shown = [], []
    if layer.additive:
        lines.append("")
        lines.append("# Additive scoring: a small network compares each query with each key.")
        for name in ("W_a", "U_a", "v_a"):
            value = getattr(fixture.additive, name)
            lines.append(literals.assign(name, value, f"{value.shape}"))
            shown.append(name)
    if layer.slopes:
        lines += ["", literals.assign("slopes", list(layer.slopes), "ALiBi: one slope m per head")]
        shown.append("slopes")
    return lines, shown


def scores_lines(q, k, scores, shape):
    """The additive scores of one head, for the scores cell."""
    return [
        "# Scores, additive: v_a · tanh(q W_a + k U_a) for every query and key.",
        f"hidden = np.tanh(({q} @ W_a)[:, None, :] + ({k} @ U_a)[None, :, :])  # (n_q, n_k, d_a)",
        f"{scores} = hidden @ v_a  # (n_q, n_k) = {shape}",
        f"show({scores}={scores})",
    ]


def bias_cell(layer, head, scaled, bias, biased):
    """ALiBi: the bias −m·(i − j) of this head's slope, added to its scaled scores."""
    return code(
        f"# ALiBi: head {head.number}'s bias, -m·(i - j) with its slope m, added before the mask and the softmax.",
        f"i, j = np.indices(({layer.n_q}, {layer.n_k}))",
        f"{bias} = -slopes[{head.number - 1}] * (i - j)  # (n_q, n_k)",
        f"{biased} = {scaled} + {bias}  # (n_q, n_k)",
        f"show({bias}={bias}, {biased}={biased})",
    )
