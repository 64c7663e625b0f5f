"""Multi-head latent attention (DeepSeek-V2, 2024): keys and values rebuilt from one latent.

Each token's row is compressed once into a latent row c = x W_DKV of width d_c, shared by
every head; head h rebuilds its keys and values from it, K_h = C W_UK^(h) and
V_h = C W_UV^(h). A cache keeps C alone: d_c numbers a token instead of 2·h·d_k. The scores
are the usual q·k/√d_k, so the head's softmax and reading are unchanged.

Since q k_jᵀ = q (c_j W_UK)ᵀ = (q W_UKᵀ) c_jᵀ, a head may score its queries against the latent
rows directly: the "absorbed" query q W_UKᵀ (width d_c) times cᵀ gives the same scores, still
scaled by 1/√d_k. Likewise the reading A_h V_h times head h's rows of W_O is A_h C (W_UV W_O),
so W_UV folds into W_O. The trace keeps both forms (``LatentTrace``).

DeepSeek-V2 also compresses the queries, and carries positions in a separate rotary key of
d_h^R numbers per token (cached beside c), scaling by 1/√(d_h + d_h^R); this is the teaching
core without them (a fixture with positions is refused).
"""

from dataclasses import dataclass

import numpy as np

from macros.engine import masks, steps
from macros.engine.attention import combine
from macros.engine.records import rows


@dataclass(frozen=True)
class LatentSpec:
    """The fixture's latent projections: W_DKV (d_model × d_c), and per head W_UK (d_c × d_k) and
    W_UV (d_c × d_v)."""

    W_DKV: np.ndarray
    W_UK: tuple
    W_UV: tuple

    @property
    def d_c(self):
        return self.W_DKV.shape[1]

    def folded(self):
        """Each head's (W_K, W_V) as one d_model-row matrix, W_DKV W_UK and W_DKV W_UV: the same
        keys and values computed without the latent in between (for steps that take projections)."""
        return [(self.W_DKV @ W_UK, self.W_DKV @ W_UV) for W_UK, W_UV in zip(self.W_UK, self.W_UV, strict=True)]

    def to_plain(self):
        return {
            "W_DKV": rows(self.W_DKV),
            "heads": [{"W_UK": rows(a), "W_UV": rows(b)} for a, b in zip(self.W_UK, self.W_UV, strict=True)],
        }


@dataclass(frozen=True)
class AbsorbedHead:
    """One head in the absorbed form: its queries in the latent's coordinates, its scores
    against C (the same as q·k), and W_UV W_O, its values folded into the output projection."""

    Q_absorbed: np.ndarray  # (n, d_c)
    scores: np.ndarray  # (n, n)
    W_VO: np.ndarray  # (d_c, d_out)


@dataclass(frozen=True)
class LatentTrace:
    c: np.ndarray  # (n, d_c): the latent rows, all the cache keeps
    heads: tuple  # of AbsorbedHead
    output: np.ndarray  # (n, d_out): Σ_h A_h C W_VO^(h), the layer's output the absorbed way

    def to_dict(self):
        return {
            "c": rows(self.c),
            "heads": [
                {"Q_absorbed": rows(h.Q_absorbed), "scores": rows(h.scores), "W_VO": rows(h.W_VO)} for h in self.heads
            ],
            "output": rows(self.output),
        }


def compress(X, W_DKV):
    """The latent rows: each token's row times W_DKV, shared by every head."""
    return X @ W_DKV  # (n, d_model) @ (d_model, d_c) -> (n, d_c)


def rebuild(c, W_U):
    """A head's keys (W_UK) or values (W_UV) from the latent rows."""
    return c @ W_U  # (n, d_c) @ (d_c, d) -> (n, d)


def absorbed_queries(Q, W_UK):
    """q W_UKᵀ: the queries moved into the latent's coordinates, so they meet c directly."""
    return Q @ W_UK.T  # (n, d_k) @ (d_k, d_c) -> (n, d_c)


def head_blocks(W_O, widths):
    """W_O cut into each head's block of rows (d_v rows for each head, in head order)."""
    edges = np.cumsum(widths)[:-1]
    return np.split(W_O, edges, axis=0)  # h x (d_v, d_out)


def absorbed(trace, c, spec):
    """The absorbed form of a computed layer: scores from the latent, W_UV folded into W_O."""
    blocks = head_blocks(trace.W_O, [head.d_v for head in trace.heads])
    heads, output = [], np.zeros_like(trace.output)
    for head, W_UK, W_UV, W_O_h in zip(trace.heads, spec.W_UK, spec.W_UV, blocks, strict=True):
        Q_absorbed = absorbed_queries(head.Q, W_UK)  # (n, d_c)
        W_VO = W_UV @ W_O_h  # (d_c, d_v) @ (d_v, d_out) -> (d_c, d_out)
        heads.append(AbsorbedHead(Q_absorbed, steps.score(Q_absorbed, c), W_VO))  # scores: (n, n)
        output = output + head.weights @ c @ W_VO  # (n, n) @ (n, d_c) @ (d_c, d_out) -> (n, d_out)
    return LatentTrace(c, tuple(heads), output)


def latent_attention(X, W_Qs, spec, causal=False, W_O=None, scorings=None):
    """The layer: C = X W_DKV, each head's K and V rebuilt from C, then attention as usual."""
    c = compress(X, spec.W_DKV)  # (n, d_c)
    visible = steps.visibility(X.shape[0], X.shape[0], causal)  # (n, n)
    scorings = scorings or [None] * len(W_Qs)
    heads = [
        masks.attend_visible(steps.project(X, W_Q), rebuild(c, W_UK), rebuild(c, W_UV), visible, scoring)
        for W_Q, W_UK, W_UV, scoring in zip(W_Qs, spec.W_UK, spec.W_UV, scorings, strict=True)
    ]
    trace = combine(heads, W_O)
    return trace, absorbed(trace, c, spec)


def cache_per_token(n_heads, d_h, kv_groups, d_c, d_rope):
    """The numbers one token leaves in one layer's cache, per form of attention, as DeepSeek-V2's
    Table 1 counts them: multi-head 2·h·d_h, grouped-query 2·g·d_h, multi-query 2·d_h, and
    multi-head latent d_c + d_h^R (the latent row and the decoupled rotary key)."""
    return (
        ("multi-head", 2 * n_heads * d_h),
        ("grouped-query", 2 * kv_groups * d_h),
        ("multi-query", 2 * d_h),
        ("multi-head latent", d_c + d_rope),
    )
