"""One layer with the sequence keys: a separate source, padding, and positions.

The steps themselves live in ``masks``, ``cross`` and ``positions``; this module only puts
them in the order a layer runs them, and keeps what they make in the trace's optional
fields (declared in ``trace.py``):

- ``PE``, ``X_encoded`` (and ``source_PE``, ``source_encoded``): sinusoidal encodings and
  the encoded inputs;
- ``heads[i].Q_projected``, ``K_projected``, ``theta``, ``q_angles``, ``k_angles``: rotary,
  before the turn (the head's own Q and K are the rotated ones, since they are what the
  scores multiply);
- ``batch[b]``: a whole layer per sequence when several valid lengths are given; the
  trace itself is the first sequence's.
"""

import dataclasses

from macros.engine import cross, masks, positions, steps
from macros.engine.attention import combine


def encode(M, encoding):
    """Sinusoidal encodings are added to the rows before any projection; rotary adds nothing here."""
    if encoding != "sinusoidal":
        return M, None
    PE = positions.sinusoidal(*M.shape)  # (n, d_model)
    return positions.add_positions(M, PE), PE


def head(X_in, keys_in, projection, visible, encoding=None, base=10000.0, scoring=None):
    """One head: project, rotate q and k when rotary, then attend under the given mask."""
    W_Q, W_K, W_V = projection
    Q = steps.project(X_in, W_Q)  # (n, d_model) @ (d_model, d_k) -> (n, d_k)
    K = steps.project(keys_in, W_K)  # (m, d_model) @ (d_model, d_k) -> (m, d_k)
    V = steps.project(keys_in, W_V)  # (m, d_model) @ (d_model, d_v) -> (m, d_v)
    if encoding != "rotary":
        return masks.attend_visible(Q, K, V, visible, scoring)
    q_angles = positions.rotary_angles(positions.position_indices(Q.shape[0]), Q.shape[1], base)  # (n, d_k/2)
    k_angles = positions.rotary_angles(positions.position_indices(K.shape[0]), K.shape[1], base)  # (m, d_k/2)
    Q_rotated = positions.rotate_pairs(Q, q_angles)  # (n, d_k)
    K_rotated = positions.rotate_pairs(K, k_angles)  # (m, d_k)
    turned = masks.attend_visible(Q_rotated, K_rotated, V, visible, scoring)
    theta = positions.rotary_frequencies(Q.shape[1], base)  # (d_k/2,)
    return dataclasses.replace(turned, Q_projected=Q, K_projected=K, theta=theta, q_angles=q_angles, k_angles=k_angles)


def layer(
    X, projections, causal=False, W_O=None, source=None, key_length=None, encoding=None, base=10000.0, scorings=None
):
    """The whole layer for one valid length (or none), with the optional fields its steps made."""
    X_in, PE = encode(X, encoding)
    positions_made = {} if PE is None else {"PE": PE, "X_encoded": X_in}
    keys_in = X_in
    if source is not None:
        source = cross.check_source(X, source)
        keys_in, source_PE = encode(source, encoding)
        if source_PE is not None:
            positions_made |= {"source_PE": source_PE, "source_encoded": keys_in}
    visible = cross.cross_visibility(X.shape[0], keys_in.shape[0], causal, key_length)  # (n, m)
    scorings = scorings or [None] * len(projections)
    heads = [
        head(X_in, keys_in, projection, visible, encoding, base, scoring)
        for projection, scoring in zip(projections, scorings, strict=True)
    ]
    return dataclasses.replace(combine(heads, W_O), **positions_made)


def sequence_attention(
    X, projections, causal=False, W_O=None, source=None, key_lengths=(), encoding=None, base=10000.0, scorings=None
):
    """One layer, or a padded batch: one trace per valid length, the first one's trace in front.

    Every sequence of the batch holds X's rows; sequence b's rows from key_lengths[b] on are
    padding, hidden as keys, so what they hold never reaches a weight.
    """
    lengths = list(key_lengths) or [None]
    traces = [layer(X, projections, causal, W_O, source, length, encoding, base, scorings) for length in lengths]
    first = traces[0]
    if len(traces) == 1:
        return first
    return dataclasses.replace(first, batch=tuple(traces))


def padding_mask(n_q, n_k, key_length):
    """The padding part of the mask alone, for a lesson to show before it is combined."""
    return masks.key_padding(n_q, n_k, key_length)  # (n_q, n_k)


__all__ = ["encode", "head", "layer", "padding_mask", "sequence_attention"]
