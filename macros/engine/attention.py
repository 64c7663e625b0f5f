"""Attention assembled from the steps: one head, many heads, and a fixture's whole layer."""

import dataclasses

import numpy as np

from macros.engine import linear, sinks, steps
from macros.engine.scoring import Scoring, additive_scores, prepared, softmax_input
from macros.engine.trace import HeadTrace, Trace


def attend(Q, K, V, causal=False, scoring=None):
    """A single head given its queries, keys and values: steps 2 to 6."""
    visible = steps.visibility(Q.shape[0], K.shape[0], causal)  # (n_q, n_k)
    return attend_with(Q, K, V, visible, scoring)


def attend_with(Q, K, V, visible, scoring=None, factor=None):
    """A single head under a given mask (step 4's visibility): steps 2, 3, 5 and 6, scored as
    ``scoring`` says (``macros.engine.scoring``: QK-norm, additive scores, soft-capping, an
    ALiBi bias), or q·k/√d_k. ``factor`` replaces the head's own scale (a lesson's "what if").
    A sink logit joins each row's softmax; linear attention replaces the softmax altogether.
    """
    scoring = scoring or Scoring()
    if scoring.linear is not None:
        if factor not in (None, 1.0):
            raise ValueError(f"linear attention has no scale to change (it takes no 1/√d_k), got {factor}")
        return dataclasses.replace(linear.attend(Q, K, V, visible, scoring.linear), _scoring=scoring)
    Q_in, K_in, prepared_fields = prepared(Q, K, scoring)  # (n_q, d_k), (n_k, d_k)
    if scoring.additive is None:
        scores = steps.score(Q_in, K_in)  # (n_q, n_k)
        own = steps.scale_factor(Q.shape[1])
    else:
        scores = additive_scores(Q_in, K_in, scoring.additive)  # (n_q, n_k)
        own = 1.0  # no width to scale for: the scaled scores are the scores
    factor = own if factor is None else factor
    scaled = steps.scale(scores, factor)  # (n_q, n_k)
    logits, between = softmax_input(scaled, scoring)  # (n_q, n_k)
    sink = {}
    if scoring.sink is None:
        parts = steps.stable_softmax(logits, visible)
    else:
        parts, sink["sink_weight"] = sinks.sink_softmax(logits, visible, scoring.sink)  # (n_q,)
    output = steps.weigh_values(parts.weights, V)  # (n_q, n_k) @ (n_k, d_v) -> (n_q, d_v)
    return HeadTrace(
        Q=Q,
        K=K,
        V=V,
        scores=scores,
        scale=factor,
        scaled=scaled,
        visible=visible,
        shift=parts.shift,
        shifted=parts.shifted,
        exps=parts.exps,
        sums=parts.sums,
        weights=parts.weights,
        output=output,
        plain_exps=parts.plain_exps,
        plain_sums=parts.plain_sums,
        _scoring=scoring,
        **prepared_fields,
        **between,
        **sink,
    )


def combine(heads, W_O=None):
    """Steps 7 and 8: concatenate the heads and apply W_O (identity when absent)."""
    concat = steps.concatenate([head.output for head in heads])  # (n_q, h * d_v)
    if W_O is None:
        W_O = np.eye(concat.shape[1])
    return Trace(tuple(heads), concat, W_O, steps.output_projection(concat, W_O))


def self_attention(X, projections, causal=False, W_O=None, scorings=None):
    """Each head projects the same X with its own (W_Q, W_K, W_V): step 1, then attend, each
    head scored as its entry of ``scorings`` says (dot products when absent)."""
    scorings = scorings or [None] * len(projections)
    heads = [
        attend(steps.project(X, W_Q), steps.project(X, W_K), steps.project(X, W_V), causal, scoring)
        for (W_Q, W_K, W_V), scoring in zip(projections, scorings, strict=True)
    ]
    return combine(heads, W_O)


def split_columns(M, n_heads):
    """Head i takes the i-th equal slice of the columns: multi-head attention's split."""
    return np.split(M, n_heads, axis=1)  # (n, d) -> n_heads x (n, d / n_heads)


def split_attention(Q, K, V, n_heads=1, causal=False, W_O=None, scorings=None):
    """Queries, keys and values given directly, cut into n_heads equal column slices."""
    slices = zip(*(split_columns(M, n_heads) for M in (Q, K, V)), strict=True)
    scorings = scorings or [None] * n_heads
    return combine([attend(q, k, v, causal, s) for (q, k, v), s in zip(slices, scorings, strict=True)], W_O)
