"""How a head scores its keys, beyond q·k/√d_k: additive scoring and a linear bias (ALiBi).

- Additive (Bahdanau) scoring: score_ij = v_a · tanh(q_i W_a + k_j U_a). A small network of
  its own compares each query with each key; there is no √d_k to divide by, so the head's
  scale is 1 and its scaled scores are its scores.
- ALiBi: no position encodings; each head adds −m_h · (i − j) to its scaled scores, a
  penalty that grows with the distance back to key j, with a slope m_h of its own. With h
  heads the ALiBi paper takes the geometric slopes m_h = 2^(−8h/H), h = 1, …, H.

- QK-norm: each row of Q and of K divided by its root mean square, √(mean(x²) + ε), gain 1,
  before the scores, which keep their 1/√d_k (OLMo 2, Gemma 3). A row's length then no
  longer sets how sharp its weights are. (A rotation keeps a row's root mean square, so
  under rotary positions it makes no difference whether q and k are normalised before or
  after they are turned.)
- Logit soft-capping: each scaled score s becomes cap · tanh(s / cap), which stays between
  −cap and cap and is nearly s itself while |s| is small (Gemma 2 caps attention logits
  at 50). It comes before a bias and the mask.

- An attention sink (gpt-oss): a learned logit s per head joins each row's softmax as one
  more entry with no value behind it, so a row may give part of its weight to nothing
  (``macros.engine.sinks``).
- Linear attention: a feature map φ in place of the softmax, φ(q)·φ(k) in place of
  e^(q·k/√d_k) (``macros.engine.linear``).

A ``Scoring`` says what one head does; the default (none of these) is plain dot-product
attention. ``LayerScoring`` holds the keys as a fixture gives them for the whole layer.
``prepared`` and ``softmax_input`` apply them around the scores, so the layer's assembly
(``macros.engine.attention``) does not change when a step of scoring is added here.
"""

from dataclasses import dataclass, fields

import numpy as np

from macros.engine.steps import add_bias


@dataclass(frozen=True)
class Additive:
    W_a: np.ndarray  # (d_k, d_a): the query side
    U_a: np.ndarray  # (d_k, d_a): the key side
    v_a: np.ndarray  # (d_a,)


QK_NORM_EPS = 1e-6  # the ε under QK-norm's root mean square


@dataclass(frozen=True)
class Scoring:
    """One head's scoring: each of these optional."""

    additive: Additive | None = None  # additive scoring instead of dot products
    slope: float | None = None  # ALiBi's slope m
    softcap: float | None = None  # logit soft-capping: cap · tanh(s / cap)
    qk_norm: bool = False  # q and k rows divided by their root mean square
    sink: float | None = None  # this head's sink logit s
    linear: str | None = None  # linear attention's feature map ("elu_plus_one"), in place of the softmax


# The fields of a Scoring that each head has its own of, from a list of one per head in the layer's.
PER_HEAD = {"slope": "alibi", "sink": "sink"}


@dataclass(frozen=True)
class LayerScoring:
    """The scoring keys of a fixture, for the whole layer: every head shares them, except that
    ALiBi gives each head its own slope and a sink its own logit."""

    additive: Additive | None = None
    alibi: tuple | None = None  # one slope per head
    softcap: float | None = None
    qk_norm: bool = False
    sink: tuple | None = None  # one sink logit per head
    linear: str | None = None

    @property
    def any(self):
        return self != LayerScoring()

    def heads(self, n_heads):
        """Each head's Scoring, or None when the layer scores with plain dot products: the
        layer's keys, which a head's Scoring names alike, and each head's own ALiBi slope."""
        if not self.any:
            return None
        shared = {f.name: getattr(self, f.name) for f in fields(Scoring) if f.name not in PER_HEAD}
        own = [getattr(self, layer) or (None,) * n_heads for layer in PER_HEAD.values()]
        return [Scoring(**shared, **dict(zip(PER_HEAD, values, strict=True))) for values in zip(*own, strict=True)]

    def to_plain(self):
        """The keys as the fixture's JSON form writes them (only those given)."""
        plain = {}
        if self.additive is not None:
            plain["additive"] = {name: getattr(self.additive, name).tolist() for name in ("W_a", "U_a", "v_a")}
        if self.alibi is not None:
            plain["alibi"] = list(self.alibi)
        if self.sink is not None:
            plain["sink"] = {"logits": list(self.sink)}
        if self.linear is not None:
            plain["linear"] = {"feature": self.linear}
        for f in fields(self):
            if (
                f.name not in plain
                and f.name not in ("additive", "sink", "linear")
                and getattr(self, f.name) != f.default
            ):
                plain[f.name] = getattr(self, f.name)
        return plain


def rms_normalise(M, eps=QK_NORM_EPS):
    """Each row divided by its root mean square, √(mean(x²) + ε): QK-norm with gain 1."""
    rms = np.sqrt(np.mean(M**2, axis=1, keepdims=True) + eps)  # (n, 1)
    return M / rms  # (n, d_k)


def soft_cap(scaled, cap):
    """cap · tanh(s / cap): close to s while |s| is small, never beyond ±cap."""
    return cap * np.tanh(scaled / cap)  # (n_q, n_k)


def additive_scores(Q, K, additive):
    """score_ij = v_a · tanh(Q_i W_a + K_j U_a), for every query i and key j."""
    queries = Q @ additive.W_a  # (n_q, d_k) @ (d_k, d_a) -> (n_q, d_a)
    keys = K @ additive.U_a  # (n_k, d_k) @ (d_k, d_a) -> (n_k, d_a)
    hidden = np.tanh(queries[:, None, :] + keys[None, :, :])  # (n_q, n_k, d_a)
    return hidden @ additive.v_a  # (n_q, n_k, d_a) @ (d_a,) -> (n_q, n_k)


def alibi_slopes(n_heads):
    """The ALiBi paper's slopes for H heads: 2^(−8h/H) for h = 1, …, H (1/2, 1/4, … for 8 heads)."""
    return [2.0 ** (-8.0 * h / n_heads) for h in range(1, n_heads + 1)]


def alibi_bias(n_q, n_k, slope):
    """−slope · (i − j): zero on the diagonal, more negative the further back key j lies.

    Above the diagonal (j > i) the bias is positive, but a causal mask hides those keys, so
    ALiBi is only used with one.
    """
    i, j = np.indices((n_q, n_k))
    return -slope * (i - j).astype(float)  # (n_q, n_k)


def prepared(Q, K, scoring):
    """The queries and keys the scores are computed from, and the trace fields of that step:
    Q and K themselves, or their rows normalised (QK-norm)."""
    if not scoring.qk_norm:
        return Q, K, {}
    Q_normed, K_normed = rms_normalise(Q), rms_normalise(K)  # (n_q, d_k), (n_k, d_k)
    return Q_normed, K_normed, {"Q_normed": Q_normed, "K_normed": K_normed}


def softmax_input(scaled, scoring):
    """What the softmax reads, and the trace fields of the steps between: the scaled scores,
    capped (soft-capping), then with ALiBi's bias added."""
    n_q, n_k = scaled.shape
    fields = {}
    logits = scaled  # (n_q, n_k)
    if scoring.softcap is not None:
        logits = fields["capped"] = soft_cap(logits, scoring.softcap)  # (n_q, n_k)
    if scoring.slope is not None:
        fields["bias"] = alibi_bias(n_q, n_k, scoring.slope)  # (n_q, n_k)
        logits = fields["biased"] = add_bias(logits, fields["bias"])  # (n_q, n_k)
    return logits, fields
