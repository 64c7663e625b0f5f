"""From token ids to the input rows X: the embedding lookup, and learned positions added.

A tokenizer turns text into ids, whole numbers from 0 to n_vocab − 1, one per position. The
embedding matrix E holds one learned row of width d_model per id, and a lookup takes the
rows of the ids: E[ids]. The same rows come out of a product, one_hot(ids) E, since each
one-hot row has a single 1, in its id's column; that product is why E's gradient is
one_hot(ids)ᵀ dX. GPT-2 then adds a learned row per position, P[0:n], so that the same
token at two positions gives two different rows:

    X = E[ids] + P[0:n]            (without P: X = E[ids])
"""

from dataclasses import dataclass

import numpy as np

from macros.engine.records import rows


@dataclass(frozen=True)
class EmbeddingSpec:
    """The fixture's embedding: E (n_vocab × d_model), one id per position, and optional
    learned positions P (n_max × d_model, n_max at least the number of positions)."""

    E: np.ndarray
    ids: tuple
    P: np.ndarray | None = None

    def to_plain(self):
        plain = {"E": rows(self.E), "ids": list(self.ids)}
        return plain | ({"P": rows(self.P)} if self.P is not None else {})


@dataclass(frozen=True)
class Embedding:
    """The lookup step by step: the one-hot rows, the rows of E they pick, the positions added."""

    ids: tuple  # one id per position
    one_hot: np.ndarray  # (n, n_vocab)
    rows: np.ndarray  # (n, d_model)  E[ids]
    positions: np.ndarray | None  # (n, d_model)  P[0:n], or None without learned positions
    X: np.ndarray  # (n, d_model)  rows + positions

    def to_dict(self):
        record = {"ids": list(self.ids), "one_hot": rows(self.one_hot), "rows": rows(self.rows)}
        if self.positions is not None:
            record["positions"] = rows(self.positions)
        return record | {"X": rows(self.X)}


def one_hot(ids, n_vocab):
    """One row per position: 1 in its id's column, 0 elsewhere."""
    return np.eye(n_vocab)[list(ids)]  # (n, n_vocab)


def look_up(E, ids):
    """The rows of E at the ids: the same as one_hot(ids) @ E, without the multiplications."""
    return E[list(ids)]  # (n, d_model)


def position_rows(P, n):
    """The first n learned position rows, one per position."""
    return P[:n]  # (n, d_model)


def embed(spec):
    """X = E[ids] + P[0:n] (or E[ids] alone), with every step kept."""
    looked_up = look_up(spec.E, spec.ids)  # (n, d_model)
    if spec.P is None:
        return Embedding(tuple(spec.ids), one_hot(spec.ids, spec.E.shape[0]), looked_up, None, looked_up)
    added = position_rows(spec.P, len(spec.ids))  # (n, d_model)
    return Embedding(tuple(spec.ids), one_hot(spec.ids, spec.E.shape[0]), looked_up, added, looked_up + added)
