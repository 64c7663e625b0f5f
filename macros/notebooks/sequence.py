"""The notebook's share of the sequence keys: a source, valid lengths and positions.

A lesson written with ``source``, ``key_length`` or ``positions`` gets, in its notebook:
the source's rows (keys and values are projected from them), the sinusoidal encodings
added to the inputs, each head's queries and keys turned by rotary, and a mask from the
valid length. A padded batch is computed for its first sequence, the one the check
compares; a markdown cell says so and how to compute another.
"""

from macros.notebooks import literals
from macros.notebooks.cells import code, markdown


def layer_fields(fixture):
    """The fields Layer takes from the sequence keys; none for the other forms."""
    lengths = getattr(fixture, "key_lengths", ())
    positions = getattr(fixture, "positions", None) or {}
    return {
        "has_source": getattr(fixture, "source", None) is not None,
        "key_length": lengths[0] if lengths else None,
        "batch": tuple(lengths) if len(lengths) > 1 else (),
        "encoding": positions.get("encoding"),
        "base": positions.get("base", 10000.0),
    }


def input_lines(lesson, layer):
    """Lines after X and the projections: the source, the sinusoidal encodings."""
    fixture, lines, shown = lesson.fixture, [], []
    if layer.has_source:
        if fixture.key_labels:
            lines.append(f"source_tokens = {literals.labels(fixture.key_labels)}")
        lines.append(literals.assign("source", fixture.source, f"(m, d_model) = {fixture.source.shape}"))
        shown.append("source")
    if layer.encoding == "sinusoidal":
        lines += [
            "",
            "",
            "def sinusoidal(n, d_model):",
            '    """PE[p, 2i] = sin(p / 10000^(2i/d_model)), PE[p, 2i+1] = cos(the same angle)."""',
            "    angles = np.outer(np.arange(n), 1 / 10000 ** (np.arange(0, d_model, 2) / d_model))",
            "    PE = np.empty((n, d_model))",
            "    PE[:, 0::2] = np.sin(angles)",
            "    PE[:, 1::2] = np.cos(angles[:, : d_model // 2])",
            "    return PE  # (n, d_model)",
            "",
            "",
            "# Position encodings are added to the input rows before any projection.",
            "PE = sinusoidal(*X.shape)  # (n, d_model)",
            "X = X + PE",
        ]
        shown.append("PE")  # show() prints X after the encodings were added
        if layer.has_source:
            lines.append("source = source + sinusoidal(*source.shape)  # each source row gets its own position's")
    if layer.encoding == "rotary":
        lines += [
            "",
            "",
            f"def rotary(M, base={layer.base!r}):",
            '    """Turn pair (2i, 2i+1) of the row at position p by the angle p * base^(-2i/d_k)."""',
            "    angles = np.outer(np.arange(M.shape[0]), base ** (-np.arange(0, M.shape[1], 2) / M.shape[1]))",
            "    x, y, out = M[:, 0::2], M[:, 1::2], np.empty_like(M)",
            "    out[:, 0::2] = x * np.cos(angles) - y * np.sin(angles)",
            "    out[:, 1::2] = x * np.sin(angles) + y * np.cos(angles)",
            "    return out  # (n, d_k)",
        ]
    return lines, shown


def mask_lines(layer):
    """The visible matrix: causal, then keys from the valid length on hidden."""
    lines = ["", "# The mask: True where a query may see a key."]
    if layer.causal:
        lines.append(f"visible = np.tril(np.ones(({layer.n_q}, {layer.n_k}), dtype=bool))  # (n_q, n_k)")
    else:
        lines.append(f"visible = np.ones(({layer.n_q}, {layer.n_k}), dtype=bool)  # (n_q, n_k)")
    if layer.key_length is not None:
        lines += [
            f"key_length = {layer.key_length}  # keys at this index and after are padding",
            f"visible = visible & (np.arange({layer.n_k}) < key_length)  # (n_q, n_k)",
        ]
    return lines


def keys_from(layer):
    return "source" if layer.has_source else "X"


def rotation_cell(layer, head):
    n = head.name
    q, k = n("Q"), n("K")
    return code(
        "# Rotary: turn each query and key row by its position; the values are not turned.",
        f"{q} = rotary({q})  # (n_q, d_k) = ({layer.n_q}, {head.d_k})",
        f"{k} = rotary({k})  # (n_k, d_k) = ({layer.n_k}, {head.d_k})",
        f"show({q}={q}, {k}={k})",
    )


def batch_note(layer):
    if not layer.batch:
        return []
    lengths = ", ".join(str(length) for length in layer.batch)
    return [
        markdown(
            "## The other sequences of the batch",
            "",
            f"The lesson's batch has valid lengths {lengths}. This notebook computes the first sequence, "
            "the one the check below compares. To compute another, set `key_length` in the cell above "
            "to its length and run the cells again; the check will then report the values that moved.",
        )
    ]
