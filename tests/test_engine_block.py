"""The transformer block (macros/engine/block.py): layer norm and the activations by hand, rows of
mean 0 and variance 1, the two orders' definitions, and the located refusals."""

import math

import numpy as np
import pytest

from macros.engine import attention, block
from macros.errors import FixtureError
from macros.sources.fixture import load


def test_layer_norm_by_hand():
    # [1, 2, 3]: mean 2, biased variance ((−1)² + 0 + 1²) / 3 = 2/3, so (x − 2) / √(2/3) = [−√1.5, 0, √1.5].
    out = block.layer_norm(np.array([[1.0, 2.0, 3.0]]), eps=0.0)
    assert np.allclose(out, [[-math.sqrt(1.5), 0.0, math.sqrt(1.5)]], rtol=1e-15)


def test_layer_norm_rows_have_mean_0_and_variance_1():
    rows = np.random.default_rng(1).normal(3.0, 5.0, size=(4, 6))
    out = block.layer_norm(rows, eps=1e-12)
    assert np.allclose(out.mean(axis=1), 0, atol=1e-14) and np.allclose(out.var(axis=1), 1, rtol=1e-10)


def test_the_activations_by_hand():
    # GELU(1) = Φ(1) = 0.841344746…; the tanh form (GPT-2) gives 0.841191990…; ReLU cuts negatives.
    z = np.array([-1.0, 0.0, 1.0])
    assert np.array_equal(block.relu(z), [0.0, 0.0, 1.0])
    assert math.isclose(block.gelu(z)[2], 0.8413447460685429, rel_tol=1e-15) and block.gelu(z)[1] == 0
    assert math.isclose(block.gelu_tanh(z)[2], 0.8411919906082768, rel_tol=1e-14)


def spec(order, d_model=2, d_ff=3, seed=0):
    rng = np.random.default_rng(seed)
    return block.BlockSpec(
        order,
        1e-5,
        rng.normal(size=(d_model, d_ff)),
        rng.normal(size=d_ff),
        rng.normal(size=(d_ff, d_model)),
        rng.normal(size=d_model),
        "relu",
    )


def attend(X):
    return attention.self_attention(X, [(np.eye(2), np.eye(2), np.eye(2))], True)


@pytest.mark.parametrize("order", ["pre", "post"])
def test_each_order_follows_its_definition(order):
    x = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 3.0]])
    s = spec(order)
    layer, steps = block.transformer_block(x, attend, s)
    norm = lambda rows: block.layer_norm(rows, s.eps)  # noqa: E731
    ffn = lambda z: block.relu(z @ s.W_1 + s.b_1) @ s.W_2 + s.b_2  # noqa: E731
    if order == "pre":
        attended = attend(norm(x)).output
        expected = x + attended + ffn(norm(x + attended))
    else:
        attended = attend(x).output
        expected = norm(norm(x + attended) + ffn(norm(x + attended)))
    assert np.allclose(steps.attention, attended) and np.allclose(layer.output, attended)
    assert np.allclose(steps.output, expected, rtol=1e-14)


BASE = """X: [[1, 0], [0, 1], [1, 1]]
causal: true
heads:
  - {W_Q: [[1, 0], [0, 1]], W_K: [[1, 0], [0, 1]], W_V: [[1, 0], [0, 1]]}
"""
BLOCK = (
    "transformer: {order: pre, W_1: [[1, 0, 1], [0, 1, 1]], b_1: [0, 0, 0],"
    " W_2: [[1, 0], [0, 1], [1, 1]], b_2: [0, 0]}\n"
)


def test_the_fixture_key_puts_the_block_in_the_trace(tmp_path):
    path = tmp_path / "fixture.yaml"
    path.write_text(BASE + BLOCK)
    trace = load(path).run()
    assert trace.block.order == "pre" and trace.block.output.shape == (3, 2)
    assert np.allclose(trace.heads[0].Q, trace.block.norm_1)  # the heads read the normalised rows


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (BASE + BLOCK.replace("order: pre", "order: middle"), "transformer.order: expected one of pre, post"),
        (BASE + BLOCK.replace("b_2: [0, 0]", "b_2: [0]"), "transformer.b_2: expected a 1×2 matrix"),
        (BASE + BLOCK.replace("activation", "x") + "", None),
        (
            BASE + BLOCK.replace("}", ", activation: swish}"),
            "transformer.activation: expected one of relu, gelu, gelu_tanh",
        ),
        (BASE + BLOCK + "upstream: [[1, 0], [0, 1], [1, 1]]\n", "got also upstream"),
        (
            BASE.replace("W_V: [[1, 0], [0, 1]]", "W_V: [[1], [0]]") + BLOCK,
            "transformer: expected an attention output as wide as X (2)",
        ),
    ],
)
def test_mistakes_are_located(tmp_path, text, message):
    path = tmp_path / "fixture.yaml"
    path.write_text(text)
    if message is None:
        load(path)  # the control: the block as written is fine
        return
    with pytest.raises(FixtureError) as caught:
        load(path)
    assert message in str(caught.value) and str(caught.value).startswith(str(path))
