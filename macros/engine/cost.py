"""What one attention layer costs as the sequence grows: multiply-adds and numbers held.

Counts for n tokens, width d_model, h heads of width d_k (values as wide as keys), one
sequence, one pass through the layer. A multiply-add is one a * b + c (two floating-point
operations). Left out: biases (one addition per projected number), the scaling by
1/sqrt(d_k), the mask and the softmax's own work (a few operations per score, against the
2 * d_k multiply-adds of scoring a pair and weighting its value). Q, K and V grow linearly
with n (K and V are what a generating model keeps as its KV cache); the scores and the
weights grow with n^2, and their multiply-adds overtake the projections' at n = 2 * d_model.
"""

from dataclasses import asdict, dataclass


def _check_sizes(**sizes):
    for name, value in sizes.items():
        if int(value) != value or value < 1:
            raise ValueError(f"{name} must be a whole number of at least 1, got {value}")


def projection_macs(n, d_model, h, d_k):
    """Q, K and V for every head: three (n, d_model) @ (d_model, h * d_k) products."""
    return 3 * n * d_model * h * d_k


def score_macs(n, h, d_k):
    """Every query with every key, per head: (n, d_k) @ (d_k, n), n * n dot products of d_k."""
    return h * n * n * d_k


def weighting_macs(n, h, d_k):
    """Every query's weighted sum of the values, per head: (n, n) @ (n, d_k)."""
    return h * n * n * d_k


def output_macs(n, d_model, h, d_k):
    """W_O: (n, h * d_k) @ (h * d_k, d_model)."""
    return n * h * d_k * d_model


def causal_score_macs(n, h, d_k):
    """Scores under the causal mask, the hidden pairs skipped: n (n + 1) / 2 dot products of d_k."""
    return h * causal_pairs(n) * d_k


def causal_weighting_macs(n, h, d_k):
    """Each query weighs only the value rows of the keys it scored: as many as the scores."""
    return h * causal_pairs(n) * d_k


def score_numbers(n, h):
    """The scores of every head: h matrices of n x n; the weights are as many again."""
    return h * n * n


def kv_cache_numbers(n, h, d_k):
    """One key and one value of width d_k per head per token, kept for generation: the K and
    V part of projected_numbers, not an addition to them."""
    return 2 * n * h * d_k


def projected_numbers(n, h, d_k):
    """Q, K and V of every head."""
    return 3 * n * h * d_k


@dataclass(frozen=True)
class LayerCost:
    """One layer at one length n: multiply-adds and numbers held, split quadratic vs linear.

    The quadratic counts score all n x n pairs (no mask, or a causal mask applied after every
    score is computed); the causal ones skip the hidden pairs.
    """

    n: int
    h: int
    d_k: int
    projection_macs: int
    score_macs: int
    weighting_macs: int
    output_macs: int
    causal_score_macs: int
    causal_weighting_macs: int
    score_numbers: int
    weight_numbers: int
    projected_numbers: int
    kv_cache_numbers: int

    @property
    def quadratic_macs(self):
        return self.score_macs + self.weighting_macs

    @property
    def linear_macs(self):
        return self.projection_macs + self.output_macs

    @property
    def quadratic_share(self):
        """The scores' and weighting's share of the layer's multiply-adds: n / (n + 2 d_model)."""
        return self.quadratic_macs / (self.quadratic_macs + self.linear_macs)

    @property
    def causal_quadratic_macs(self):
        return self.causal_score_macs + self.causal_weighting_macs

    def window_macs(self, window):
        """Scores and weighting under a sliding window of ``window`` keys: each visible pair is
        one dot product of d_k (the score) and one weight times a value row of d_k."""
        pairs = window_pairs(self.n, window)  # at most n * window
        return 2 * self.h * pairs * self.d_k

    @property
    def quadratic_numbers(self):
        return self.score_numbers + self.weight_numbers

    @property
    def linear_numbers(self):
        """Q, K and V of every head. The KV cache is their K and V, so it is not added again."""
        return self.projected_numbers

    def to_dict(self):
        return {
            **asdict(self),
            "quadratic_macs": self.quadratic_macs,
            "linear_macs": self.linear_macs,
            "causal_quadratic_macs": self.causal_quadratic_macs,
            "quadratic_numbers": self.quadratic_numbers,
            "linear_numbers": self.linear_numbers,
        }


def layer_cost(n, d_model, h, d_k):
    """Every count of one layer at length n."""
    _check_sizes(n=n, d_model=d_model, h=h, d_k=d_k)
    n, d_model, h, d_k = int(n), int(d_model), int(h), int(d_k)
    return LayerCost(
        n=n,
        h=h,
        d_k=d_k,
        projection_macs=projection_macs(n, d_model, h, d_k),
        score_macs=score_macs(n, h, d_k),
        weighting_macs=weighting_macs(n, h, d_k),
        output_macs=output_macs(n, d_model, h, d_k),
        causal_score_macs=causal_score_macs(n, h, d_k),
        causal_weighting_macs=causal_weighting_macs(n, h, d_k),
        score_numbers=score_numbers(n, h),
        weight_numbers=score_numbers(n, h),
        projected_numbers=projected_numbers(n, h, d_k),
        kv_cache_numbers=kv_cache_numbers(n, h, d_k),
    )


def cost_table(lengths, d_model, h, d_k):
    """One LayerCost per sequence length, for a table or a chart."""
    return [layer_cost(n, d_model, h, d_k) for n in lengths]


def window_pairs(n, window):
    """Query-key pairs a sliding window scores: query p sees min(p + 1, window) keys.

    Summed in closed form, since n reaches millions in the cost lessons: the first
    min(n, window) queries see 1, 2, ... keys (a triangle), every later query sees window."""
    _check_sizes(n=n, window=window)
    n, window = int(n), int(window)
    filling = min(n, window)
    return causal_pairs(filling) + (n - filling) * window


def causal_pairs(n):
    """Query-key pairs under the plain causal mask: 1 + 2 + ... + n."""
    _check_sizes(n=n)
    return int(n) * (int(n) + 1) // 2


def window_score_macs(n, window, h, d_k):
    """Score multiply-adds under a sliding window: at most n * window dot products, linear in n."""
    return h * window_pairs(n, window) * d_k


def head_split_counts(n, d_model, h):
    """h heads of width d_model / h against one head of width d_model: the same parameters and work.

    Splitting the width into heads changes what the layer can attend to, not its size: W_Q,
    W_K, W_V hold 3 * d_model^2 numbers either way, W_O d_model^2, and the score and
    weighting products total n^2 * d_model either way. Only the number of n x n score
    matrices changes: h of them instead of one.
    """
    _check_sizes(n=n, d_model=d_model, h=h)
    if d_model % h:
        raise ValueError(f"the number of heads must divide d_model ({d_model}), got {h}")

    def counts(heads):
        d_k = d_model // heads
        cost = layer_cost(n, d_model, heads, d_k)
        return {
            "heads": heads,
            "d_k": d_k,
            "parameters": 3 * d_model * heads * d_k + heads * d_k * d_model,
            "macs": cost.linear_macs + cost.quadratic_macs,
            "score_numbers": cost.score_numbers,
        }

    return {"split": counts(int(h)), "single": counts(1)}


def linear_state_macs(n, d_k, d_v):
    """Linear attention, one head, causal, over n tokens: per token, the state update
    M += φ(k)ᵀ v (d_k·d_v), N += φ(k) (d_k additions, counted as multiply-adds), the reading's
    φ(q) M (d_k·d_v) and φ(q) · N (d_k); no pair of tokens is ever scored."""
    _check_sizes(n=n, d_k=d_k, d_v=d_v)
    return n * (2 * d_k * d_v + 2 * d_k)


def causal_pair_macs(n, d_k, d_v):
    """Softmax attention, one head, causal, over n tokens: each of the n(n+1)/2 pairs is scored
    (d_k) and weighs a value (d_v); the exponentials and sums are not counted."""
    _check_sizes(n=n, d_k=d_k, d_v=d_v)
    return causal_pairs(n) * (d_k + d_v)
