"""Generating one token at a time with a KV cache, and what the cache costs in memory.

At step t only the new row x_t is projected: q_t, k_t, v_t. k_t and v_t are appended to
the cache of earlier keys and values, and q_t attends over the cache. Keys before t never
change, so nothing is recomputed, and the cache holds exactly what a causal mask would let
row t see: each step's reading equals row t of the full causal computation.
"""

from dataclasses import dataclass

import numpy as np

from macros.engine import steps
from macros.engine.records import rows


@dataclass(frozen=True)
class DecodeStep:
    """Step t (from 0): the new query, the cache after appending, and the reading."""

    t: int
    q: np.ndarray  # (d_k,)
    k: np.ndarray  # (d_k,)
    v: np.ndarray  # (d_v,)
    K_cache: np.ndarray  # (t + 1, d_k)
    V_cache: np.ndarray  # (t + 1, d_v)
    scores: np.ndarray  # (t + 1,)
    scaled: np.ndarray  # (t + 1,)
    weights: np.ndarray  # (t + 1,)
    reading: np.ndarray  # (d_v,)

    def to_dict(self):
        return {
            "t": self.t,
            **{name: rows(getattr(self, name)) for name in ("q", "k", "v", "K_cache", "V_cache")},
            **{name: rows(getattr(self, name)) for name in ("scores", "scaled", "weights", "reading")},
        }


@dataclass(frozen=True)
class DecodeTrace:
    """Every step of one head's generation, in order."""

    steps: tuple  # of DecodeStep

    @property
    def readings(self):
        return np.vstack([step.reading for step in self.steps])  # n x (d_v,) -> (n, d_v)

    def to_dict(self):
        return {"steps": [step.to_dict() for step in self.steps], "readings": rows(self.readings)}


def empty_cache(width):
    """A cache with no rows yet: generation starts from nothing remembered."""
    return np.zeros((0, width))  # (0, width)


def append_to_cache(cache, row):
    """The cache grows by one row per step; earlier rows are kept as they were."""
    return np.vstack([cache, row[None, :]])  # (t, d) + (1, d) -> (t + 1, d)


def decode_step(t, x_t, W_Q, W_K, W_V, K_cache, V_cache):
    """One generation step: project the new row only, extend the cache, attend over it."""
    x = x_t[None, :]  # (1, d_model)
    q, k, v = (steps.project(x, W)[0] for W in (W_Q, W_K, W_V))  # (1, d_model) @ (d_model, d) -> (d,)
    K_cache = append_to_cache(K_cache, k)  # (t + 1, d_k)
    V_cache = append_to_cache(V_cache, v)  # (t + 1, d_v)
    scores = steps.score(q[None, :], K_cache)  # (1, d_k) @ (d_k, t + 1) -> (1, t + 1)
    scaled = steps.scale(scores, steps.scale_factor(q.shape[0]))  # (1, t + 1)
    visible = np.ones_like(scaled, dtype=bool)  # the cache holds only keys q_t may see
    weights = steps.stable_softmax(scaled, visible).weights  # (1, t + 1)
    reading = steps.weigh_values(weights, V_cache)[0]  # (1, t + 1) @ (t + 1, d_v) -> (d_v,)
    return DecodeStep(t, q, k, v, K_cache, V_cache, scores[0], scaled[0], weights[0], reading)


def decode(X, W_Q, W_K, W_V):
    """Generate over the rows of X one at a time, keeping each step's cache in the trace."""
    K_cache, V_cache = empty_cache(W_K.shape[1]), empty_cache(W_V.shape[1])
    trace = []
    for t, x_t in enumerate(X):
        step = decode_step(t, x_t, W_Q, W_K, W_V, K_cache, V_cache)
        K_cache, V_cache = step.K_cache, step.V_cache
        trace.append(step)
    return DecodeTrace(tuple(trace))


# ---------------------------------------------------------------- memory


def _check_positive(**sizes):
    for name, value in sizes.items():
        if int(value) != value or value < 1:
            raise ValueError(f"{name} must be a whole number of at least 1, got {value}")


def kv_bytes_per_token(layers, kv_heads, d_k, bytes_per_number, d_v=None):
    """Each token leaves one key (d_k numbers) and one value (d_v) per key/value head per layer."""
    d_v = d_k if d_v is None else d_v
    _check_positive(layers=layers, kv_heads=kv_heads, d_k=d_k, d_v=d_v, bytes_per_number=bytes_per_number)
    return int(layers * kv_heads * (d_k + d_v) * bytes_per_number)


def kv_cache_bytes(n, layers, kv_heads, d_k, bytes_per_number, d_v=None):
    """The whole cache after n tokens: it grows linearly with the sequence."""
    _check_positive(n=n)
    return int(n) * kv_bytes_per_token(layers, kv_heads, d_k, bytes_per_number, d_v)


def kv_cache_table(lengths, layers, kv_heads, d_k, bytes_per_number, d_v=None):
    """Rows of (sequence length, cache bytes) for a memory table."""
    return [(int(n), kv_cache_bytes(n, layers, kv_heads, d_k, bytes_per_number, d_v)) for n in lengths]
