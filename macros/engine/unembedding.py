"""From the last rows to the next token: logits, probabilities, the loss and its gradient.

The unembedding W_U (d_model × n_vocab) scores every token of the vocabulary against each
output row: logits = Y W_U. Many models tie it to the embedding, W_U = Eᵀ, so a row scores a
token by its dot product with that token's own embedding. A softmax over each row of logits
gives the model's probabilities for the next token. Training lowers the cross-entropy of
the true next tokens, the mean over positions of −log(probability of the true token); its
gradient with respect to the logits is (probs − one_hot(targets)) / n, one row per position.
"""

from dataclasses import dataclass

import numpy as np

from macros.engine import steps


@dataclass(frozen=True)
class UnembeddingSpec:
    """The fixture's unembedding: W_U (d_out × n_vocab), or None when tied to the embedding
    (W_U = Eᵀ); the true next ids, one per position, or () without a loss."""

    W_U: np.ndarray | None
    targets: tuple = ()

    @property
    def tied(self):
        return self.W_U is None


@dataclass(frozen=True)
class NextToken:
    """What the unembedding computes: the logits, their softmax and, with targets, the loss."""

    W_U: np.ndarray  # (d_out, n_vocab)  the matrix used (Eᵀ when tied)
    logits: np.ndarray  # (n, n_vocab)
    probs: np.ndarray  # (n, n_vocab)
    loss: float | None = None
    d_logits: np.ndarray | None = None  # (n, n_vocab)


def unembedding_matrix(spec, E):
    """W_U as given, or Eᵀ when tied."""
    return E.T if spec.tied else spec.W_U  # (d_model, n_vocab)


def logits_of(Y, W_U):
    """Each output row scored against every token of the vocabulary."""
    return Y @ W_U  # (n, d_out) @ (d_out, n_vocab) -> (n, n_vocab)


def probabilities(logits):
    """The stable softmax of each row of logits (every token visible)."""
    return steps.stable_softmax(logits, np.ones(logits.shape, dtype=bool)).weights  # (n, n_vocab)


def cross_entropy(probs, targets):
    """The mean over positions of −log(the probability given to the true next token)."""
    picked = probs[np.arange(len(targets)), list(targets)]  # (n,)
    return float(-np.log(picked).mean())


def logits_gradient(probs, targets):
    """∂loss/∂logits: (probs − one_hot(targets)) / n, row by row."""
    n, n_vocab = probs.shape
    return (probs - np.eye(n_vocab)[list(targets)]) / n  # (n, n_vocab)


def next_token(Y, spec, E=None):
    """Logits, probabilities and, where the fixture gives targets, the loss and its gradient."""
    W_U = unembedding_matrix(spec, E)
    logits = logits_of(Y, W_U)
    probs = probabilities(logits)
    if not spec.targets:
        return NextToken(W_U, logits, probs)
    return NextToken(W_U, logits, probs, cross_entropy(probs, spec.targets), logits_gradient(probs, spec.targets))
