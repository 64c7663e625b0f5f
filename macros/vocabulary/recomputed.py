"""A lesson's layer computed again with one thing changed, for the questions a lesson asks of
its own numbers ("what if this head used the single head's scale?", "and with a causal
mask?", "and with the tokens in another order?"). Only the engine's steps compute; this
module chooses what to repeat.
"""

import dataclasses
from types import SimpleNamespace

import numpy as np

from macros.engine import attention, linear, sinks, steps
from macros.engine.scoring import LayerScoring, Scoring

SCORING_KEYS = {f.name for f in dataclasses.fields(LayerScoring)}


def again(head, visible=None, factor=None):
    """The head computed again by the engine with every one of its steps (QK-norm, a cap, a
    bias: ``head._scoring``), under another mask or scale when given."""
    visible = head.visible if visible is None else visible  # (n_q, n_k)
    return attention.attend_with(head.Q, head.K, head.V, visible, head._scoring, factor)


def with_scale(head, factor):
    """The head's weights and readings had its scores been multiplied by ``factor`` instead
    of 1/sqrt(d_k): (weights, output), one row per query."""
    redone = again(head, factor=factor)
    return redone.weights, redone.output  # (n_q, n_k), (n_q, d_v)


def without_mask(head):
    """The head's weights and readings had no key been hidden: (weights, output)."""
    redone = again(head, visible=np.ones_like(head.visible, dtype=bool))
    return redone.weights, redone.output  # (n_q, n_k), (n_q, d_v)


def causal(head):
    """The head's weights and readings had the layer been causal (position i sees 1..i)."""
    n_q, n_k = head.visible.shape
    redone = again(head, visible=head.visible & steps.visibility(n_q, n_k, causal=True))
    return redone.weights, redone.output  # (n_q, n_k), (n_q, d_v)


def with_sink(head, logit, visible=None):
    """The head computed again with a sink logit (gpt-oss): one more entry in every row's
    softmax, with no value; under another mask when given (a window's)."""
    scoring = dataclasses.replace(head._scoring or Scoring(), sink=float(logit))
    visible = head.visible if visible is None else np.asarray(visible, dtype=bool)  # (n_q, n_k)
    return attention.attend_with(head.Q, head.K, head.V, visible, scoring)


def sink_row(logits, visible, logit):
    """One row's softmax with a sink logit, some or all of its keys hidden: (weights on the
    keys, the sink's weight). A row that sees no key gives the sink all of it."""
    row = np.atleast_2d(np.asarray(logits, dtype=float))  # (1, n_k)
    seen = np.atleast_2d(np.asarray(visible, dtype=bool))  # (1, n_k)
    parts, sink_weight = sinks.sink_softmax(np.where(seen, row, 0.0), seen, float(logit))
    return parts.weights[0], float(sink_weight[0])


def linear_next(head, q, k, v):
    """One more token after a causal linear-attention head's last: its φ(q) and φ(k), the state
    and normaliser after it, and its reading, from the head's last state alone."""
    feature = linear.FEATURES[head._scoring.linear]
    phi_q, phi_k = feature(np.asarray(q, dtype=float)), feature(np.asarray(k, dtype=float))  # (d_k,)
    M, N, reading = linear.step(head.states[-1], head.normalizers[-1], phi_q, phi_k, np.asarray(v, dtype=float))
    return SimpleNamespace(phi_q=phi_q, phi_k=phi_k, M=M, N=N, reading=reading)


def changed(fixture, **changes):
    """The same lesson's numbers with some fields changed, not yet computed. A scoring key
    (additive, alibi, softcap, qk_norm) is changed inside the fixture's scoring."""
    scoring = {name: changes.pop(name) for name in list(changes) if name in SCORING_KEYS}
    if scoring:
        changes["scoring"] = dataclasses.replace(fixture.scoring, **scoring)
    return dataclasses.replace(fixture, **changes)


def recomputed(fixture, **changes):
    """The same lesson's layer with some fields changed: causal=True, positions=None, X=...

    Labels follow a change of X's rows only when given; the numbers are the engine's.
    """
    return changed(fixture, **changes).run()


def take_rows(M, order):
    """The rows of M in ``order``, counted from 1 as the lessons count positions."""
    return np.asarray(M)[[i - 1 for i in order]]


def permuted(fixture, order):
    """The layer on X's rows taken in ``order`` (counted from 1), labels following their rows."""
    labels = tuple(take_rows(fixture.query_labels, order)) if fixture.query_labels else ()
    return recomputed(fixture, X=take_rows(fixture.X, order), query_labels=labels, key_labels=labels)


def names():
    return {
        "with_scale": with_scale,
        "without_mask": without_mask,
        "as_causal": causal,
        "changed": changed,
        "recomputed": recomputed,
        "permuted": permuted,
        "take_rows": take_rows,
        "with_sink": with_sink,
        "sink_row": sink_row,
        "linear_next": linear_next,
    }
