"""The fixture keys around one layer: ``transformer`` (a block) and ``upstream`` (the backward pass).

    transformer:               # a transformer block around the attention layer
      order: pre               #   pre (GPT-2) or post (the original transformer)
      eps: 1.0e-5              #   optional: layer norm's epsilon (1e-5 when absent)
      W_1: [[...]]             #   d_model × d_ff, with b_1: [d_ff]
      b_1: [...]
      W_2: [[...]]             #   d_ff × d_model, with b_2: [d_model]
      b_2: [...]
      activation: relu         #   optional: relu (when absent), gelu or gelu_tanh
    upstream: [[...]]          # n × d_out: the gradient of a loss with respect to the output

Both take the plain self-attention form only (X, heads, tokens, causal, W_O, params): the
block and the backward pass are computed for that layer, and a key that changes it (a source,
padding, positions, shared key/value heads, another scoring) is refused with a located error,
as is the one key with the other. Each mistake names its field.
"""

import dataclasses

import numpy as np

from macros.engine.block import ACTIVATIONS, ORDERS, BlockSpec
from macros.sources.found import describe

FIELDS = {"transformer", "upstream"}
PLAIN = {"X", "heads", "tokens", "causal", "W_O", "params", "extends", "practice", "transformer", "upstream"}
BLOCK_FIELDS = {"order", "eps", "W_1", "b_1", "W_2", "b_2", "activation"}
EPS = 1e-5


def check_plain_layer(check, data, key):
    """Refuse, at ``key``, any other key that changes the layer."""
    other = sorted(set(data) - PLAIN) or sorted(FIELDS & set(data) - {key})
    if other:
        check.fail(key, "a plain self-attention layer (X, heads, causal, W_O) around it", f"also {other[0]}")


def _vector(check, value, path, length, meaning):
    rows = check.matrix([value] if isinstance(value, list) else value, path, (1, length), meaning)
    return np.asarray(rows[0], dtype=float)


def check_block(check, value, d_model, width):
    if not isinstance(value, dict):
        check.fail("transformer", "a mapping with order, W_1, b_1, W_2 and b_2", describe(value))
    check.fields(value, "transformer.", BLOCK_FIELDS, ("order", "W_1", "b_1", "W_2", "b_2"))
    if value["order"] not in ORDERS:
        check.fail("transformer.order", f"one of {', '.join(ORDERS)}", describe(value["order"]))
    if width != d_model:
        check.fail("transformer", f"an attention output as wide as X ({d_model}): W_O's columns", f"{width}")
    W_1 = check.matrix(value["W_1"], "transformer.W_1")
    if W_1.shape[0] != d_model:
        check.fail(
            "transformer.W_1", f"a matrix with {d_model} rows (d_model × d_ff)", f"{W_1.shape[0]}×{W_1.shape[1]}"
        )
    d_ff = W_1.shape[1]
    b_1 = _vector(check, value["b_1"], "transformer.b_1", d_ff, f"{d_ff} numbers (d_ff)")
    W_2 = check.matrix(value["W_2"], "transformer.W_2", (d_ff, d_model), "d_ff × d_model")
    b_2 = _vector(check, value["b_2"], "transformer.b_2", d_model, f"{d_model} numbers (d_model)")
    eps = check.number(value.get("eps", EPS), "transformer.eps")
    if eps <= 0:
        check.fail("transformer.eps", "a number above 0", describe(value["eps"]))
    activation = value.get("activation", "relu")
    if activation not in ACTIVATIONS:
        check.fail("transformer.activation", f"one of {', '.join(ACTIVATIONS)}", describe(activation))
    return BlockSpec(value["order"], eps, W_1, b_1, W_2, b_2, activation)


def output_width(fixture):
    """The attention layer's output width: W_O's columns, or the heads' values side by side."""
    if fixture.W_O is not None:
        return fixture.W_O.shape[1]
    return sum(head.W_V.shape[1] for head in fixture.heads)


def extend(check, data, fixture):
    """The fixture with its block and its output's gradient, unchanged without these keys."""
    found = FIELDS & set(data)
    if not found:
        return fixture
    for key in sorted(found):
        check_plain_layer(check, data, key)
    n, d_model = fixture.X.shape
    changes = {}
    if "transformer" in data:
        changes["transformer"] = check_block(check, data["transformer"], d_model, output_width(fixture))
    if "upstream" in data:
        shape = (n, output_width(fixture))
        changes["upstream"] = check.matrix(data["upstream"], "upstream", shape, "n × d_out, the output's shape")
    return dataclasses.replace(fixture, **changes)
