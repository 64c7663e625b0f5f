"""Attention sinks: a row's weight may rest on something that is not a key's value.

Trained models put much of many rows' weight on the first token, whatever it says, as a
place to leave weight that the row has no use for. Two ways of keeping such a place:

- StreamingLLM (Xiao et al., 2023): a sliding window's cache keeps the first ``tokens``
  keys as well as the last ``window``: key j is visible to query i when j ≤ i and
  (j < tokens or j > i − window), positions counted from 0 as places in the text.
- A learned sink logit (gpt-oss): each head has one number s, appended to every row of
  what its softmax reads, with no value behind it. The row's weights on the keys then add
  up to 1 − e^(s − m) / (Σ e^(x − m) + e^(s − m)), less than one; a row that sees no key at
  all gives the sink everything, so it is well defined (its reading is 0).
"""

import numpy as np

from macros.engine import steps


def streaming_window(n, window, tokens):
    """Causal with a horizon of ``window`` recent keys, and the first ``tokens`` keys always
    kept: query p sees key j when j ≤ p and (j < tokens or j > p − window)."""
    if window < 1 or tokens < 0:
        raise ValueError(f"window must be at least 1 and tokens at least 0, got {window} and {tokens}")
    p, j = np.indices((n, n))
    return (j <= p) & ((j < tokens) | (j > p - window))  # (n, n)


def sink_shift(logits, visible, sink):
    """Step 5a with a sink: the largest of each row's visible logits and the sink logit, so the
    largest exponent is still e^0 = 1 (a row that sees no key shifts by the sink alone)."""
    with np.errstate(invalid="ignore"):
        visible_max = np.where(visible, logits, -np.inf).max(axis=1)  # (n_q,)
    return np.maximum(visible_max, sink)  # (n_q,)


def sink_softmax(logits, visible, sink):
    """Step 5 with a sink logit s: each row's softmax over its visible logits and s.

    Returns the softmax's parts (``steps.SoftmaxParts``: the shift and the sums count the
    sink's exponential, the weights are the keys' alone) and each row's weight on the sink.
    """
    shift = sink_shift(logits, visible, sink)  # (n_q,)
    shifted = steps.shift_scores(logits, visible, shift)  # (n_q, n_k), -inf where hidden
    exps = steps.exponentials(shifted)  # (n_q, n_k)
    sink_exps = np.exp(sink - shift)  # (n_q,)
    sums = steps.row_sums(exps) + sink_exps  # (n_q,)
    plain = steps.plain_exponentials(logits, visible)  # (n_q, n_k)
    with np.errstate(over="ignore"):
        plain_sums = steps.row_sums(plain) + np.exp(sink)  # (n_q,)
    parts = steps.SoftmaxParts(shift, shifted, exps, sums, steps.normalise(exps, sums), plain, plain_sums)
    return parts, sink_exps / sums  # (n_q,)
