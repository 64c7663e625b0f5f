"""Masks beyond causal: padding from valid lengths, sliding windows, and a row with no key.

A mask is a boolean visibility matrix (n_q, n_k), True where a query may see a key, as
``steps.visibility`` makes it. Masks combine by logical and: a key is visible only when
every mask lets it through.

A batch of sequences of different lengths is written as one list of valid lengths, one per
sequence, all padded to the same n; each sequence is attended separately and gives its own
trace. Only keys are masked by padding: a padded query still reads the valid keys, and its
reading is the one a model discards.
"""

import numpy as np

from macros.engine import steps
from macros.engine.attention import attend_with
from macros.engine.attention import combine as combine_heads


def key_padding(n_q, n_k, key_length):
    """Keys at index >= key_length are padding: hidden from every query.

    A padded key carries no token, so no query may give it weight. key_length must lie in
    1..n_k: longer would point past the sequence, 0 would leave every query nothing to read.
    """
    if not 1 <= key_length <= n_k:
        raise ValueError(f"key_length must be between 1 and the number of keys ({n_k}), got {key_length}")
    return np.broadcast_to(np.arange(n_k) < key_length, (n_q, n_k)).copy()  # (n_q, n_k)


def combine(*masks):
    """A key is visible only where every mask shows it (causal and padding, say)."""
    return np.logical_and.reduce(masks)  # (n_q, n_k)


def sliding_window(n, window):
    """Causal with a horizon: query p sees keys p - window + 1 ... p, at most ``window`` of them.

    Each query then costs ``window`` scores instead of up to n. window >= n is plain causal.
    """
    if window < 1:
        raise ValueError(f"window must be at least 1 (a query always sees itself), got {window}")
    p, j = np.indices((n, n))
    return (j <= p) & (j > p - window)  # (n, n)


def batch_key_padding(n, key_lengths, causal=False):
    """One visibility per sequence of a padded batch: its own key mask, and causal if asked."""
    if len(key_lengths) == 0:
        raise ValueError("key_lengths must name at least one sequence, got an empty list")
    order = steps.visibility(n, n, causal)  # (n, n)
    return [combine(order, key_padding(n, n, length)) for length in key_lengths]


def check_every_row_sees_a_key(visible):
    """Refuse a query row whose every key is masked.

    Its softmax is 0/0: no exponentials to add, so no distribution to take. Returning zeros
    or a uniform row would invent a reading the mask forbids, so the engine refuses, naming
    the row (counted from 0), and the fixture layer reports it with its file and field.
    """
    empty = np.flatnonzero(~np.asarray(visible).any(axis=1))
    if empty.size:
        rows = ", ".join(str(int(i)) for i in empty)
        raise ValueError(f"query row(s) {rows} see no key: every key is masked, and the softmax of no scores is 0/0")
    return visible


def attend_visible(Q, K, V, visible, scoring=None):
    """A single head under any mask, refused when a row would see no key (its softmax is 0/0),
    unless the head has a sink, which such a row gives all its weight."""
    if scoring is None or scoring.sink is None:
        check_every_row_sees_a_key(visible)
    n_q, n_k = Q.shape[0], K.shape[0]
    if visible.shape != (n_q, n_k):
        raise ValueError(f"the mask must be {n_q}x{n_k} (queries x keys), got {visible.shape}")
    return attend_with(Q, K, V, visible, scoring)


def masked_self_attention(X, projections, visible, W_O=None, scorings=None):
    """Self-attention in which every head uses the same given mask, each head scored as its
    entry of ``scorings`` says (dot products when absent)."""
    scorings = scorings or [None] * len(projections)
    heads = [
        attend_visible(steps.project(X, W_Q), steps.project(X, W_K), steps.project(X, W_V), visible, scoring)
        for (W_Q, W_K, W_V), scoring in zip(projections, scorings, strict=True)
    ]
    return combine_heads(heads, W_O)


def batch_attention(batch, projections, key_lengths, causal=False, W_O=None):
    """A padded batch: X of shape (batch, n, d_model), one valid length per sequence, one trace each."""
    batch = np.asarray(batch, dtype=float)
    if len(key_lengths) != batch.shape[0]:
        raise ValueError(f"key_lengths must give one length per sequence ({batch.shape[0]}), got {len(key_lengths)}")
    masks = batch_key_padding(batch.shape[1], key_lengths, causal)
    return [masked_self_attention(X, projections, mask, W_O) for X, mask in zip(batch, masks, strict=True)]
