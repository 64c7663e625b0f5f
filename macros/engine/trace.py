"""The named record of every intermediate, and its JSON form (the trace command's output)."""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class HeadTrace:
    """One head, step by step. Shapes use n_q queries, n_k keys."""

    Q: np.ndarray  # (n_q, d_k)
    K: np.ndarray  # (n_k, d_k)
    V: np.ndarray  # (n_k, d_v)
    scores: np.ndarray  # (n_q, n_k)  raw dot products
    scale: float  # 1 / sqrt(d_k)
    scaled: np.ndarray  # (n_q, n_k)  before the mask is applied
    visible: np.ndarray  # (n_q, n_k)  bool, False where the mask hides a key
    shift: np.ndarray  # (n_q,)
    shifted: np.ndarray  # (n_q, n_k)  scaled - shift; -inf where masked
    exps: np.ndarray  # (n_q, n_k)
    sums: np.ndarray  # (n_q,)
    weights: np.ndarray  # (n_q, n_k)
    output: np.ndarray  # (n_q, d_v)
    plain_exps: np.ndarray  # (n_q, n_k)  exp(scaled) without the shift; inf on overflow
    plain_sums: np.ndarray  # (n_q,)

    @property
    def d_k(self):
        return self.Q.shape[1]

    @property
    def d_v(self):
        return self.V.shape[1]


@dataclass(frozen=True)
class Trace:
    """The whole layer: its heads, their concatenation and the output projection."""

    heads: tuple  # of HeadTrace, in head order
    concat: np.ndarray  # (n_q, h * d_v)
    W_O: np.ndarray  # (h * d_v, d_out)
    output: np.ndarray  # (n_q, d_out)

    @property
    def n_heads(self):
        return len(self.heads)


def _rows(array):
    """A matrix or vector as nested lists of Python floats (JSON has no numpy types).

    A non-finite value (an overflowed plain exponential) becomes None, JSON's null.
    """
    array = np.asarray(array, dtype=float)
    return np.where(np.isfinite(array), array, None).tolist()


def _masked_rows(scaled, visible):
    """Scaled scores with masked (or non-finite) entries as None, which JSON writes as null."""
    shown = np.asarray(visible) & np.isfinite(scaled)
    return [
        [float(x) if ok else None for x, ok in zip(row, keep, strict=True)]
        for row, keep in zip(scaled, shown, strict=True)
    ]


def head_to_dict(head):
    return {
        "Q": _rows(head.Q),
        "K": _rows(head.K),
        "V": _rows(head.V),
        "scores": _rows(head.scores),
        "scale": float(head.scale),
        "scaled": _masked_rows(head.scaled, head.visible),
        "shift": _rows(head.shift),
        "exps": _rows(head.exps),
        "sums": _rows(head.sums),
        "weights": _rows(head.weights),
        "output": _rows(head.output),
        "plain_exps": _rows(head.plain_exps),
        "plain_sums": _rows(head.plain_sums),
    }


def to_dict(trace):
    """The contract shared with the browser twin: matrices as lists of rows."""
    return {
        "heads": [head_to_dict(head) for head in trace.heads],
        "concat": _rows(trace.concat),
        "W_O": _rows(trace.W_O),
        "output": _rows(trace.output),
    }
