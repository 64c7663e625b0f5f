"""A lesson's layer computed again with one thing changed, for the questions a lesson asks of
its own numbers ("what if this head used the single head's scale?", "and with a causal
mask?", "and with the tokens in another order?"). Only the engine's steps compute; this
module chooses what to repeat.
"""

import dataclasses

import numpy as np

from macros.engine import attention, steps
from macros.engine.scoring import LayerScoring

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
    }
