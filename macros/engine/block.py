"""A transformer block: attention inside residual connections, layer normalisation and a
feed-forward layer.

Two orders are in use. The original transformer normalises after each residual addition
(post-norm); GPT-2 and most models since normalise each sublayer's input instead (pre-norm),
which leaves a clean residual path from the block's input to its output:

    pre:  norm_1 = LN(x); attention = attn(norm_1); residual_1 = x + attention;
          norm_2 = LN(residual_1); ffn = FFN(norm_2); output = residual_2 = residual_1 + ffn
    post: attention = attn(x); residual_1 = x + attention; norm_1 = LN(residual_1);
          ffn = FFN(norm_1); residual_2 = norm_1 + ffn; output = norm_2 = LN(residual_2)

LN normalises each row to mean 0 and variance 1 (the biased variance, with eps inside the
square root; gain 1 and bias 0, as at initialisation). FFN(z) = act(z W_1 + b_1) W_2 + b_2.
"""

import math
from dataclasses import dataclass

import numpy as np

from macros.engine.records import rows

ORDERS = ("pre", "post")
ACTIVATIONS = ("relu", "gelu", "gelu_tanh")
STEPS = ("norm_1", "attention", "residual_1", "norm_2", "pre_activation", "hidden", "ffn", "residual_2", "output")


@dataclass(frozen=True)
class BlockSpec:
    order: str  # "pre" or "post"
    eps: float
    W_1: np.ndarray  # (d_model, d_ff)
    b_1: np.ndarray  # (d_ff,)
    W_2: np.ndarray  # (d_ff, d_model)
    b_2: np.ndarray  # (d_model,)
    activation: str  # one of ACTIVATIONS


@dataclass(frozen=True)
class BlockTrace:
    """Every step of the block, by the names of the module docstring."""

    order: str
    norm_1: np.ndarray  # (n, d_model)
    attention: np.ndarray  # (n, d_model)  the attention layer's output
    residual_1: np.ndarray  # (n, d_model)
    norm_2: np.ndarray  # (n, d_model)
    pre_activation: np.ndarray  # (n, d_ff)
    hidden: np.ndarray  # (n, d_ff)
    ffn: np.ndarray  # (n, d_model)
    residual_2: np.ndarray  # (n, d_model)
    output: np.ndarray  # (n, d_model)

    def to_dict(self):
        return {"order": self.order, **{name: rows(getattr(self, name)) for name in STEPS}}


def spec_to_plain(spec):
    """The block's settings in the fixture's own JSON form."""
    plain = {"order": spec.order, "eps": spec.eps, "activation": spec.activation}
    return plain | {
        name: np.asarray(getattr(spec, name), dtype=float).tolist() for name in ("W_1", "b_1", "W_2", "b_2")
    }


def layer_norm(x, eps):
    """Each row minus its mean, divided by its standard deviation (biased variance, eps inside)."""
    mean = x.mean(axis=1, keepdims=True)  # (n, 1)
    variance = ((x - mean) ** 2).mean(axis=1, keepdims=True)  # (n, 1)
    return (x - mean) / np.sqrt(variance + eps)  # (n, d_model)


def relu(z):
    return np.maximum(z, 0.0)


def gelu(z):
    """z Φ(z), with Φ the standard normal's distribution function (exact, through erf)."""
    erf = np.vectorize(math.erf, otypes=[float])
    return 0.5 * z * (1.0 + erf(z / math.sqrt(2.0)))


def gelu_tanh(z):
    """GPT-2's approximation of GELU: 0.5 z (1 + tanh(√(2/π) (z + 0.044715 z³)))."""
    return 0.5 * z * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044715 * z**3)))


ACTIVATE = {"relu": relu, "gelu": gelu, "gelu_tanh": gelu_tanh}


def feed_forward(z, spec):
    """FFN(z) = act(z W_1 + b_1) W_2 + b_2, with its two intermediates."""
    pre_activation = z @ spec.W_1 + spec.b_1  # (n, d_model) @ (d_model, d_ff) -> (n, d_ff)
    hidden = ACTIVATE[spec.activation](pre_activation)  # (n, d_ff)
    return pre_activation, hidden, hidden @ spec.W_2 + spec.b_2  # (n, d_ff) @ (d_ff, d_model)


def pre_norm(x, attend, spec):
    """GPT-2's order: normalise, attend, add; normalise, feed forward, add. Returns (layer trace, block)."""
    norm_1 = layer_norm(x, spec.eps)
    layer = attend(norm_1)
    residual_1 = x + layer.output  # (n, d_model)
    norm_2 = layer_norm(residual_1, spec.eps)
    pre_activation, hidden, ffn = feed_forward(norm_2, spec)
    residual_2 = residual_1 + ffn
    steps = (norm_1, layer.output, residual_1, norm_2, pre_activation, hidden, ffn, residual_2, residual_2)
    return layer, BlockTrace("pre", *steps)


def post_norm(x, attend, spec):
    """The original order: attend, add, normalise; feed forward, add, normalise."""
    layer = attend(x)
    residual_1 = x + layer.output  # (n, d_model)
    norm_1 = layer_norm(residual_1, spec.eps)
    pre_activation, hidden, ffn = feed_forward(norm_1, spec)
    residual_2 = norm_1 + ffn
    norm_2 = layer_norm(residual_2, spec.eps)
    steps = (norm_1, layer.output, residual_1, norm_2, pre_activation, hidden, ffn, residual_2, norm_2)
    return layer, BlockTrace("post", *steps)


def transformer_block(x, attend, spec):
    """The block around ``attend`` (a function from input rows to the attention layer's trace)."""
    return (pre_norm if spec.order == "pre" else post_norm)(x, attend, spec)
