"""A head's last steps rerun with one thing changed, for the questions a lesson asks of its
own numbers ("what if this head used the single head's scale?"). Only the engine's steps
compute; this module chooses which ones to repeat.
"""

import numpy as np

from macros.engine import steps


def with_scale(head, factor):
    """The head's weights and readings had its scores been multiplied by ``factor`` instead
    of 1/sqrt(d_k): (weights, output), one row per query."""
    scaled = steps.scale(head.scores, factor)  # (n_q, n_k)
    weights = steps.stable_softmax(scaled, head.visible).weights  # (n_q, n_k)
    return weights, steps.weigh_values(weights, head.V)  # (n_q, d_v)


def without_mask(head):
    """The head's weights and readings had no key been hidden: (weights, output)."""
    every = np.ones_like(head.visible, dtype=bool)  # (n_q, n_k)
    weights = steps.stable_softmax(head.scaled, every).weights  # (n_q, n_k)
    return weights, steps.weigh_values(weights, head.V)  # (n_q, d_v)


def causal(head):
    """The head's weights and readings had the layer been causal (position i sees 1..i)."""
    n_q, n_k = head.visible.shape
    seen = head.visible & steps.visibility(n_q, n_k, causal=True)  # (n_q, n_k)
    weights = steps.stable_softmax(head.scaled, seen).weights  # (n_q, n_k)
    return weights, steps.weigh_values(weights, head.V)  # (n_q, d_v)
