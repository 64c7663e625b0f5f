"""The backward pass (macros/engine/backward.py): the softmax's gradient worked by hand, every
gradient of whole layers against central finite differences, and the located refusals."""

import numpy as np
import pytest

from macros.engine import attention, backward
from macros.errors import FixtureError
from macros.sources.fixture import load


def test_the_softmax_gradient_by_hand():
    # a = [1/2, 1/2], d_a = [1, 0]: J = diag(a) − a aᵀ = [[1/4, −1/4], [−1/4, 1/4]], so J d_a = [1/4, −1/4];
    # the formula a ⊙ (d_a − d_a · a) gives [1/2 (1 − 1/2), 1/2 (0 − 1/2)], the same.
    a, d_a = np.array([[0.5, 0.5]]), np.array([[1.0, 0.0]])
    assert np.array_equal(backward.softmax_jacobian(a[0]), [[0.25, -0.25], [-0.25, 0.25]])
    assert np.array_equal(backward.softmax_gradient(a, d_a), [[0.25, -0.25]])


def test_a_hidden_key_gets_no_gradient():
    # A weight of exactly 0 makes its row of a ⊙ (…) exactly 0, whatever d_a holds there.
    a, d_a = np.array([[1.0, 0.0]]), np.array([[3.0, -7.0]])
    assert np.array_equal(backward.softmax_gradient(a, d_a), [[0.0, 0.0]])


def test_the_output_projection_by_hand():
    # Y = C W_O with C = [[1, 2]], W_O = [[1], [3]]: dL/dW_O = Cᵀ d_Y = [[1], [2]] · 5; dL/dC = d_Y W_Oᵀ = 5 [1, 3].
    d_W_O, d_C = backward.output_projection_gradients(
        np.array([[1.0, 2.0]]), np.array([[1.0], [3.0]]), np.array([[5.0]])
    )
    assert np.array_equal(d_W_O, [[5.0], [10.0]]) and np.array_equal(d_C, [[5.0, 15.0]])


def loss(X, projections, W_O, causal, upstream):
    return float((upstream * attention.self_attention(X, projections, causal, W_O).output).sum())


def numerical(X, projections, W_O, causal, upstream, which, step=1e-6):
    """Central differences of the loss with respect to every entry of one array."""
    arrays = [X, W_O] + [m for p in projections for m in p]
    grad = np.zeros_like(arrays[which])
    for index in np.ndindex(arrays[which].shape):
        values = []
        for sign in (1, -1):
            changed = [a.copy() for a in arrays]
            changed[which][index] += sign * step
            heads = [tuple(changed[2 + 3 * h : 5 + 3 * h]) for h in range(len(projections))]
            values.append(loss(changed[0], heads, changed[1], causal, upstream))
        grad[index] = (values[0] - values[1]) / (2 * step)
    return grad


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("causal", [False, True])
def test_every_gradient_agrees_with_finite_differences(seed, causal):
    rng = np.random.default_rng(seed)
    n, d_model, widths = 3, 4, [(2, 2), (1, 3)]
    X = rng.normal(size=(n, d_model))
    projections = [tuple(rng.normal(size=(d_model, w)) for w in (d_k, d_k, d_v)) for d_k, d_v in widths]
    W_O = rng.normal(size=(5, d_model))
    upstream = rng.normal(size=(n, d_model))
    trace = attention.self_attention(X, projections, causal, W_O)
    grads = backward.backward(X, projections, trace, upstream)
    ours = [grads.d_X, grads.d_W_O] + [getattr(h, f"d_W_{m}") for h in grads.heads for m in "QKV"]
    for which, mine in enumerate(ours):
        assert np.allclose(mine, numerical(X, projections, W_O, causal, upstream, which), rtol=1e-6, atol=1e-8)
    if causal:  # no gradient flows through a pair the mask hides
        assert all((h.d_scaled[~t.visible] == 0).all() for h, t in zip(grads.heads, trace.heads, strict=True))


BASE = """X: [[1, 0], [0, 1], [1, 1]]
causal: true
heads:
  - {W_Q: [[1, 0], [0, 1]], W_K: [[1, 0], [0, 1]], W_V: [[1, 0], [0, 1]]}
"""


def test_the_fixture_key_puts_the_gradients_in_the_trace(tmp_path):
    path = tmp_path / "fixture.yaml"
    path.write_text(BASE + "upstream: [[1, 0], [0, 1], [1, 1]]\n")
    trace = load(path).run()
    assert trace.backward.d_X.shape == (3, 2) and trace.backward.heads[0].d_W_Q.shape == (2, 2)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("upstream: [[1, 0], [0, 1]]\n", "upstream: expected a 3×2 matrix"),
        ("upstream: [[1, 0], [0, 1], [1, 1]]\nkey_length: 2\n", "upstream: expected a plain self-attention layer"),
        ("upstream: [[1, 0], [0, 1], [1, 1]]\nalibi: [0.5]\n", "got also alibi"),
    ],
)
def test_mistakes_are_located(tmp_path, extra, message):
    path = tmp_path / "fixture.yaml"
    path.write_text(BASE + extra)
    with pytest.raises(FixtureError) as caught:
        load(path)
    assert message in str(caught.value) and str(caught.value).startswith(str(path))
