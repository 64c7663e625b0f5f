"""One step of gradient descent on a tiny model: embed, one attention layer, unembed, the loss.

The loss's gradient with respect to the logits is (probs − one_hot(targets)) / n; through
logits = Y W_U it gives dW_U = Yᵀ d_logits and the upstream gradient of the layer's output,
dY = d_logits W_Uᵀ, from which the layer's backward pass (macros/engine/backward.py) gives
every projection's gradient and dX. Through X = E[ids] + P[0:n], each position's row of dX
goes to its id's row of E (dE = one_hot(ids)ᵀ dX: an id used twice gets both rows) and to its
own row of P. With tied weights (W_U = Eᵀ) E is reached both ways, and its gradient is the
sum of the two: one_hot(ids)ᵀ dX + dW_Uᵀ.

Every matrix the loss reaches then steps against its gradient, W ← W − lr · dW, and the loss
is computed again with the stepped matrices.
"""

import dataclasses
from dataclasses import dataclass

import numpy as np

from macros.engine import attention, backward, embedding, unembedding
from macros.engine.records import rows

ORDER = ("E", "P", "W_Q", "W_K", "W_V", "W_O", "W_U")  # the gradients, in the order the model uses them
PER_HEAD = ("W_Q", "W_K", "W_V")


@dataclass(frozen=True)
class Parameters:
    """The matrices a step may change; None where the model does not have one as a parameter
    (E and P without an embedding, W_O when it is the identity, W_U when tied to E)."""

    E: np.ndarray | None  # (n_vocab, d_model)
    P: np.ndarray | None  # (n_max, d_model)
    W_Q: tuple  # one (d_model, d_k) per head
    W_K: tuple
    W_V: tuple  # one (d_model, d_v) per head
    W_O: np.ndarray | None  # (h · d_v, d_out)
    W_U: np.ndarray | None  # (d_out, n_vocab)

    def named(self):
        """The parameters present, by name, in ORDER."""
        return {name: getattr(self, name) for name in ORDER if _present(getattr(self, name))}

    def stepped(self, grads, lr):
        """W − lr · dW for every parameter with a gradient."""
        moved = {}
        for name, grad in grads.items():
            value = getattr(self, name)
            if name in PER_HEAD:
                moved[name] = tuple(w - lr * g for w, g in zip(value, grad, strict=True))
            else:
                moved[name] = value - lr * grad
        return dataclasses.replace(self, **moved)


def _present(value):
    return value is not None and not (isinstance(value, tuple) and not value)


@dataclass(frozen=True)
class TrainSpec:
    lr: float  # the learning rate, above 0

    def to_plain(self):
        return {"lr": self.lr}


@dataclass(frozen=True)
class Train:
    lr: float
    grads: dict  # by name, in ORDER; W_Q, W_K, W_V as one matrix per head
    loss_before: float
    loss_after: float

    def to_dict(self):
        grads = {name: [rows(g) for g in grad] if name in PER_HEAD else rows(grad) for name, grad in self.grads.items()}
        return {"lr": self.lr, "grads": grads, "loss_before": self.loss_before, "loss_after": self.loss_after}


def input_rows(params, ids, X):
    """X = E[ids] + P[0:n] with an embedding, else the rows given."""
    if params.E is None:
        return X
    return embedding.embed(embedding.EmbeddingSpec(params.E, ids, params.P)).X


def forward(params, ids, X, targets, causal):
    """The model's forward pass: (its input rows, the layer's trace, the next-token record)."""
    rows_in = input_rows(params, ids, X)
    layer = attention.self_attention(
        rows_in, list(zip(params.W_Q, params.W_K, params.W_V, strict=True)), causal, params.W_O
    )
    spec = unembedding.UnembeddingSpec(params.W_U, tuple(targets))
    return rows_in, layer, unembedding.next_token(layer.output, spec, params.E)


def unembedding_gradients(Y, W_U, d_logits):
    """logits = Y W_U: the gradient of W_U, and the upstream gradient of the layer's output."""
    return Y.T @ d_logits, d_logits @ W_U.T  # (d_out, n) @ (n, n_vocab); (n, n_vocab) @ (n_vocab, d_out)


def embedding_gradients(params, ids, d_X, d_W_U):
    """X = E[ids] + P[0:n]: each row of dX to its id's row of E and to its position's row of P;
    with tied weights, E's gradient also takes dW_Uᵀ, the path through the logits."""
    found = {}
    if params.E is not None:
        d_E = embedding.one_hot(ids, params.E.shape[0]).T @ d_X  # (n_vocab, n) @ (n, d_model)
        found["E"] = d_E + d_W_U.T if params.W_U is None else d_E  # (n_vocab, d_model)
    if params.P is not None:
        d_P = np.zeros_like(params.P)  # (n_max, d_model): positions past the text get 0
        d_P[: len(ids)] = d_X
        found["P"] = d_P
    return found


def gradients(params, ids, X, layer, next_token):
    """Every parameter's gradient, and the layer's backward pass (from dY = d_logits W_Uᵀ)."""
    d_W_U, d_Y = unembedding_gradients(layer.output, next_token.W_U, next_token.d_logits)
    projections = list(zip(params.W_Q, params.W_K, params.W_V, strict=True))
    back = backward.backward(X, projections, layer, d_Y)
    found = embedding_gradients(params, ids, back.d_X, d_W_U)
    found |= {name: tuple(getattr(head, f"d_{name}") for head in back.heads) for name in PER_HEAD}
    if params.W_O is not None:
        found["W_O"] = back.d_W_O
    if params.W_U is not None:
        found["W_U"] = d_W_U
    return {name: found[name] for name in ORDER if name in found}, back


def train_step(params, ids, X, targets, causal, lr):
    """One step: (the Train record, the layer's backward pass)."""
    rows_in, layer, next_token = forward(params, ids, X, targets, causal)
    grads, back = gradients(params, ids, rows_in, layer, next_token)
    after = forward(params.stepped(grads, lr), ids, X, targets, causal)[2]
    return Train(lr, grads, next_token.loss, after.loss), back
