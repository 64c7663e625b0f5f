"""Online softmax over blocks of keys: the idea behind FlashAttention.

The keys are read b at a time. For each query the running maximum m, the running sum l of
exp(score - m) and the running unnormalised reading acc are kept; when a block raises the
maximum, l and acc are rescaled by exp(m_old - m_new) so that every term is measured
against the same, new maximum. After the last block acc / l is the softmax reading, and
no n_q x n_k matrix of scores or weights was ever held: only one n_q x b block at a time.
"""

from dataclasses import dataclass

import numpy as np

from macros.engine import steps
from macros.engine.records import masked_rows, rows


@dataclass(frozen=True)
class BlockStep:
    """What block [start, stop) of keys did to the running values of every query."""

    start: int
    stop: int
    scaled: np.ndarray  # (n_q, b)  the block's scaled scores
    visible: np.ndarray  # (n_q, b)
    m: np.ndarray  # (n_q,)  running maximum after the block
    rescale: np.ndarray  # (n_q,)  exp(m_old - m_new), applied to the previous l and acc
    exps: np.ndarray  # (n_q, b)  exp(scaled - m_new); 0 where masked
    l: np.ndarray  # (n_q,)  running sum after the block  # noqa: E741
    acc: np.ndarray  # (n_q, d_v)  running unnormalised reading after the block

    def to_dict(self):
        return {
            "start": self.start,
            "stop": self.stop,
            "scaled": masked_rows(self.scaled, self.visible),
            **{name: rows(getattr(self, name)) for name in ("m", "rescale", "exps", "l", "acc")},
        }


@dataclass(frozen=True)
class OnlineTrace:
    """Every block's running values, the final reading, and what was never stored."""

    block_size: int
    blocks: tuple  # of BlockStep
    output: np.ndarray  # (n_q, d_v)  acc / l after the last block
    never_stored: int  # entries of the n_q x n_k score matrix that never existed at once

    def to_dict(self):
        return {
            "block_size": self.block_size,
            "blocks": [block.to_dict() for block in self.blocks],
            "output": rows(self.output),
            "never_stored": self.never_stored,
        }


def key_blocks(n_k, block_size):
    """Consecutive [start, stop) ranges of b keys; the last may be shorter."""
    if not 1 <= block_size <= n_k:
        raise ValueError(f"block_size must be between 1 and the number of keys ({n_k}), got {block_size}")
    return [(start, min(start + block_size, n_k)) for start in range(0, n_k, block_size)]


def block_max(scaled, visible):
    """The largest visible score of each query in this block; -inf if it sees none of the block."""
    return np.where(visible, scaled, -np.inf).max(axis=1)  # (n_q,)


def running_max(m_old, m_block):
    """The maximum over every key read so far."""
    return np.maximum(m_old, m_block)  # (n_q,)


def rescale_factor(m_old, m_new):
    """exp(m_old - m_new) <= 1: shrinks old terms to the new maximum's scale.

    Before any visible key, m_old = -inf and nothing has been added, so the factor is 0;
    while m_new is still -inf there is nothing to rescale, and the factor is 1.
    """
    finite = np.isfinite(m_new)
    with np.errstate(invalid="ignore"):
        return np.where(finite, np.exp(m_old - np.where(finite, m_new, 0.0)), 1.0)  # (n_q,)


def block_exponentials(scaled, visible, m_new):
    """exp(score - m_new) for the block's visible keys, exactly 0 for masked ones."""
    safe = np.where(np.isfinite(m_new), m_new, 0.0)[:, None]  # (n_q, 1)
    return np.exp(np.where(visible, scaled - safe, -np.inf))  # (n_q, b)


def update_sum(l_old, rescale, exps):
    """l_new = l_old * exp(m_old - m_new) + the block's exponentials."""
    return l_old * rescale + exps.sum(axis=1)  # (n_q,)


def update_reading(acc_old, rescale, exps, V_block):
    """acc_new = acc_old * exp(m_old - m_new) + the block's exponentials times its values."""
    return acc_old * rescale[:, None] + exps @ V_block  # (n_q, b) @ (b, d_v) -> (n_q, d_v)


def never_stored(n_q, n_k):
    """The full score matrix has n_q * n_k entries; the blocked pass never holds it."""
    return int(n_q) * int(n_k)


def online_attention(Q, K, V, block_size, visible=None):
    """Attention read block by block; the output equals the one-pass softmax reading."""
    n_q, n_k = Q.shape[0], K.shape[0]
    visible = np.ones((n_q, n_k), dtype=bool) if visible is None else visible
    factor = steps.scale_factor(Q.shape[1])
    m = np.full(n_q, -np.inf)  # (n_q,)
    total = np.zeros(n_q)  # (n_q,)  the running sum l
    acc = np.zeros((n_q, V.shape[1]))  # (n_q, d_v)
    blocks = []
    for start, stop in key_blocks(n_k, block_size):
        scaled = steps.scale(steps.score(Q, K[start:stop]), factor)  # (n_q, d_k) @ (d_k, b) -> (n_q, b)
        seen = visible[:, start:stop]  # (n_q, b)
        m_new = running_max(m, block_max(scaled, seen))
        rescale = rescale_factor(m, m_new)
        exps = block_exponentials(scaled, seen, m_new)
        total, acc = update_sum(total, rescale, exps), update_reading(acc, rescale, exps, V[start:stop])
        m = m_new
        blocks.append(BlockStep(start, stop, scaled, seen, m, rescale, exps, total, acc))
    if np.any(total == 0):
        empty = ", ".join(str(int(i)) for i in np.flatnonzero(total == 0))
        raise ValueError(f"query row(s) {empty} see no key: the softmax is 0/0")
    return OnlineTrace(block_size, tuple(blocks), acc / total[:, None], never_stored(n_q, n_k))  # (n_q, d_v)
