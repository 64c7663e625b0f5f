"""Position: sinusoidal encodings added to X, and rotary rotation of each head's q and k.

Attention alone does not see order: permuting X's rows permutes the readings. Sinusoidal
encodings add a position-dependent vector to each row before the projections. Rotary
embedding instead rotates each head's q and k by an angle proportional to the position, so
that a score depends on the two positions only through their difference.

Positions count from 0. Rotary pairs coordinates (2i, 2i+1), the RoFormer layout; many
libraries pair i with i + d_k/2 instead ("rotate half", ``rotate_half``): on the same
weights that gives other numbers, and the two agree once the columns of W_Q and W_K are
reordered (``half_order``).
"""

from dataclasses import dataclass

import numpy as np

from macros.engine import masks, steps
from macros.engine.records import head_record, rows
from macros.engine.trace import HeadTrace

ENCODINGS = ("sinusoidal", "rotary")


def check_encoding(encoding):
    """An encoding must be one the engine knows; a typo must not fall back to none."""
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
    return encoding


def position_indices(n, start=0):
    """Positions start, start + 1, ...: 0-based, as in data."""
    return np.arange(start, start + n, dtype=float)  # (n,)


# ---------------------------------------------------------------- sinusoidal


def sinusoidal_frequencies(d_model):
    """1 / 10000^(2i/d_model) for each pair i: the first pair turns fastest, the last slowest."""
    if d_model < 1:
        raise ValueError(f"d_model must be at least 1, got {d_model}")
    two_i = np.arange(0, d_model, 2, dtype=float)  # (ceil(d_model/2),)
    return 1.0 / 10000.0 ** (two_i / d_model)


def sinusoidal(n, d_model):
    """PE[p, 2i] = sin(p / 10000^(2i/d_model)), PE[p, 2i+1] = cos(p / 10000^(2i/d_model)).

    Each position gets a distinct pattern of waves of geometric wavelengths; an odd d_model
    keeps the last sine without its cosine.
    """
    angles = np.outer(position_indices(n), sinusoidal_frequencies(d_model))  # (n,) x (d/2,) -> (n, ceil(d/2))
    PE = np.empty((n, d_model))
    PE[:, 0::2] = np.sin(angles)
    PE[:, 1::2] = np.cos(angles[:, : d_model // 2])
    return PE  # (n, d_model)


def add_positions(X, PE):
    """The encoded input: the same row at two positions now differs, so scores can see order."""
    if PE.shape != X.shape:
        raise ValueError(f"the encodings must be {X.shape[0]}x{X.shape[1]} like X, got {PE.shape[0]}x{PE.shape[1]}")
    return X + PE  # (n, d_model)


# ---------------------------------------------------------------- rotary


def check_rotary_width(d_k):
    """Rotary turns coordinates in pairs, so a head's d_k must be even."""
    if d_k < 2 or d_k % 2:
        raise ValueError(f"rotary needs an even d_k (coordinates are rotated in pairs), got d_k = {d_k}")
    return d_k


def rotary_frequencies(d_k, base=10000.0):
    """theta_i = base^(-2i/d_k), one per pair (2i, 2i+1)."""
    check_rotary_width(d_k)
    if not base > 0:
        raise ValueError(f"the rotary base must be a positive number, got {base}")
    return float(base) ** (-np.arange(0, d_k, 2, dtype=float) / d_k)  # (d_k/2,)


def rotary_angles(positions, d_k, base=10000.0):
    """The angle p * theta_i by which pair i of the row at position p turns."""
    return np.outer(np.asarray(positions, dtype=float), rotary_frequencies(d_k, base))  # (n,) x (d_k/2,) -> (n, d_k/2)


def rotate_pairs(M, angles):
    """Turn each pair (x, y) = (M[:, 2i], M[:, 2i+1]) by its angle a: (x cos a - y sin a, x sin a + y cos a).

    A rotation keeps lengths, and R(a)^T R(b) = R(b - a): the root of the offset identity.
    """
    check_rotary_width(M.shape[1])
    if angles.shape != (M.shape[0], M.shape[1] // 2):
        raise ValueError(f"angles must be {M.shape[0]}x{M.shape[1] // 2} (rows x pairs), got {angles.shape}")
    x, y = M[:, 0::2], M[:, 1::2]  # (n, d_k/2) each
    cos, sin = np.cos(angles), np.sin(angles)
    out = np.empty_like(M, dtype=float)
    out[:, 0::2] = x * cos - y * sin
    out[:, 1::2] = x * sin + y * cos
    return out  # (n, d_k)


def rotate_half(M, angles):
    """The other common layout ("rotate half", as many libraries write it): pair i is
    (M[:, i], M[:, i + d_k/2]), turned by the same angle. On the same weights it gives other
    numbers; it equals ``rotate_pairs`` once the columns are reordered (``half_order``)."""
    check_rotary_width(M.shape[1])
    half = M.shape[1] // 2
    x, y = M[:, :half], M[:, half:]  # (n, d_k/2) each
    cos, sin = np.cos(angles), np.sin(angles)
    return np.hstack([x * cos - y * sin, x * sin + y * cos])  # (n, d_k)


def half_order(d_k):
    """The column order that takes the interleaved layout to rotate-half: 0, 2, 4, …, 1, 3, 5, …"""
    return np.concatenate([np.arange(0, d_k, 2), np.arange(1, d_k, 2)])  # (d_k,)


LAYOUTS = {"interleaved": rotate_pairs, "half": rotate_half}


def rotary(M, positions, base=10000.0, layout="interleaved"):
    """A head's q or k rows, each rotated by its own position, in either layout."""
    return LAYOUTS[layout](M, rotary_angles(positions, M.shape[1], base))  # (n, d_k)


def rotary_score(q, k, q_position, k_position, base=10000.0, layout="interleaved"):
    """The raw score of one query and one key after rotation: depends on k_position - q_position only."""
    q_rot = rotary(np.asarray(q, dtype=float)[None, :], [q_position], base, layout)  # (1, d_k)
    k_rot = rotary(np.asarray(k, dtype=float)[None, :], [k_position], base, layout)  # (1, d_k)
    return float(steps.score(q_rot, k_rot)[0, 0])  # (1, d_k) @ (d_k, 1) -> (1, 1)


@dataclass(frozen=True)
class RotaryTrace:
    """One rotary head: the angles, the q and k before and after rotation, then attention."""

    Q: np.ndarray  # (n_q, d_k)  before rotation
    K: np.ndarray  # (n_k, d_k)  before rotation
    q_angles: np.ndarray  # (n_q, d_k/2)
    k_angles: np.ndarray  # (n_k, d_k/2)
    head: HeadTrace  # attention over the rotated rows (head.Q, head.K are rotated)

    def to_dict(self):
        return {
            "Q": rows(self.Q),
            "K": rows(self.K),
            "q_angles": rows(self.q_angles),
            "k_angles": rows(self.k_angles),
            "head": head_record(self.head),
        }


def rotary_head(Q, K, V, causal=False, base=10000.0, q_positions=None, k_positions=None):
    """Rotate q and k by their positions (0, 1, ... unless given), then attend as usual; V is not rotated."""
    q_positions = position_indices(Q.shape[0]) if q_positions is None else np.asarray(q_positions, dtype=float)
    k_positions = position_indices(K.shape[0]) if k_positions is None else np.asarray(k_positions, dtype=float)
    q_angles = rotary_angles(q_positions, Q.shape[1], base)  # (n_q, d_k/2)
    k_angles = rotary_angles(k_positions, K.shape[1], base)  # (n_k, d_k/2)
    visible = steps.visibility(Q.shape[0], K.shape[0], causal)  # (n_q, n_k)
    head = masks.attend_visible(rotate_pairs(Q, q_angles), rotate_pairs(K, k_angles), V, visible)
    return RotaryTrace(Q, K, q_angles, k_angles, head)
