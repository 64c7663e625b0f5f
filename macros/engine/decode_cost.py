"""What generating a token costs one attention layer: prefill against a decode step, with and
without the KV cache, in multiply-adds and in bytes read.

Sizes: width d_model, h heads of width d_k (values as wide as keys), W_O of (h * d_k, d_model);
every stored number takes bytes_per_number bytes. n is the number of tokens in the text when
the pass ends, the newest one included, so a pass attends over n keys.

- prefill(p): the p tokens of a prompt go through the layer at once, causal (the hidden pairs
  skipped), and leave p keys and values per head in the cache.
- cached_step(n): one new token, the n-th: its q, k, v (one row), its k and v appended to the
  cache, its query scored against the n cached keys, its reading, its W_O row.
- uncached_step(n): the same token without a cache: the whole text of n tokens through the
  layer again, which is prefill(n). Within one layer, recomputing only the earlier keys and
  values would do; in a stack, layer 2's keys are made from layer 1's outputs at every earlier
  position, so every layer below the top must recompute every row in full. We count that.

Numbers read: every weight (W_Q, W_K, W_V of every head and W_O: 4 * d_model * h * d_k) and
the keys and values the pass attends over (2 * n * h * d_k): read from the cache by a decode
step, written to it and read back by a prefill. Left out, as small beside these for one token:
the rows entering and leaving the layer (d_model numbers per token each way), and the scaling,
mask and softmax (a few operations per score; see macros/engine/cost.py).

A cached step reads each number once and does one multiply-add with it: each weight meets the
one new row once, each cached key number the one query once, each cached value number its one
weight once. So its multiply-adds equal its numbers read, at every length: 1 / bytes_per_number
multiply-adds per byte. A prefill uses each weight for all p rows.
"""

from dataclasses import asdict, dataclass

from macros.engine import cost


def weight_numbers(d_model, h, d_k):
    """W_Q, W_K, W_V: h blocks of (d_model, d_k) each; W_O: (h * d_k, d_model)."""
    return 3 * d_model * h * d_k + h * d_k * d_model


def step_score_macs(n, h, d_k):
    """One query against n keys, per head: (1, d_k) @ (d_k, n), n dot products of d_k."""
    return h * n * d_k


def step_weighting_macs(n, h, d_k):
    """One query's weighted sum of n value rows, per head: (1, n) @ (n, d_k)."""
    return h * n * d_k


@dataclass(frozen=True)
class Pass:
    """One pass through one layer: ``tokens`` rows go through it, the last attending over ``keys`` keys."""

    tokens: int  # rows projected in this pass
    keys: int  # keys (and values) in the cache when the pass ends
    projection_macs: int
    score_macs: int
    weighting_macs: int
    output_macs: int
    weight_numbers: int  # W_Q, W_K, W_V, W_O
    cache_numbers: int  # the keys and values attended over
    bytes_per_number: int

    @property
    def macs(self):
        return self.projection_macs + self.score_macs + self.weighting_macs + self.output_macs

    @property
    def linear_macs(self):
        """The projections and W_O: the part that uses the weights."""
        return self.projection_macs + self.output_macs

    @property
    def attention_macs(self):
        """The scores and the weighting: the part that uses the keys and values."""
        return self.score_macs + self.weighting_macs

    @property
    def numbers_read(self):
        return self.weight_numbers + self.cache_numbers

    @property
    def weight_bytes(self):
        return self.weight_numbers * self.bytes_per_number

    @property
    def cache_bytes(self):
        return self.cache_numbers * self.bytes_per_number

    @property
    def bytes_read(self):
        return self.numbers_read * self.bytes_per_number

    @property
    def intensity(self):
        """Arithmetic intensity: multiply-adds per byte read."""
        return self.macs / self.bytes_read

    def to_dict(self):
        return {
            **asdict(self),
            "macs": self.macs,
            "linear_macs": self.linear_macs,
            "attention_macs": self.attention_macs,
            "numbers_read": self.numbers_read,
            "weight_bytes": self.weight_bytes,
            "cache_bytes": self.cache_bytes,
            "bytes_read": self.bytes_read,
            "intensity": self.intensity,
        }


def _sizes(n, d_model, h, d_k, bytes_per_number):
    cost._check_sizes(n=n, d_model=d_model, h=h, d_k=d_k, bytes_per_number=bytes_per_number)
    return int(n), int(d_model), int(h), int(d_k), int(bytes_per_number)


def prefill(p, d_model, h, d_k, bytes_per_number):
    """A prompt of p tokens at once, causal: the layer's cost.py counts with the hidden pairs skipped."""
    p, d_model, h, d_k, b = _sizes(p, d_model, h, d_k, bytes_per_number)
    return Pass(
        tokens=p,
        keys=p,
        projection_macs=cost.projection_macs(p, d_model, h, d_k),  # (p, d_model) @ (d_model, h d_k), three times
        score_macs=cost.causal_score_macs(p, h, d_k),  # p (p + 1) / 2 dot products of d_k, per head
        weighting_macs=cost.causal_weighting_macs(p, h, d_k),
        output_macs=cost.output_macs(p, d_model, h, d_k),  # (p, h d_k) @ (h d_k, d_model)
        weight_numbers=weight_numbers(d_model, h, d_k),
        cache_numbers=cost.kv_cache_numbers(p, h, d_k),  # p keys and p values, per head
        bytes_per_number=b,
    )


def cached_step(n, d_model, h, d_k, bytes_per_number):
    """The n-th token with the cache: one row projected, its query against the n cached keys."""
    n, d_model, h, d_k, b = _sizes(n, d_model, h, d_k, bytes_per_number)
    return Pass(
        tokens=1,
        keys=n,
        projection_macs=cost.projection_macs(1, d_model, h, d_k),  # (1, d_model) @ (d_model, h d_k), three times
        score_macs=step_score_macs(n, h, d_k),  # (1, d_k) @ (d_k, n), per head
        weighting_macs=step_weighting_macs(n, h, d_k),  # (1, n) @ (n, d_k), per head
        output_macs=cost.output_macs(1, d_model, h, d_k),  # (1, h d_k) @ (h d_k, d_model)
        weight_numbers=weight_numbers(d_model, h, d_k),
        cache_numbers=cost.kv_cache_numbers(n, h, d_k),  # the whole cache, read once
        bytes_per_number=b,
    )


def uncached_step(n, d_model, h, d_k, bytes_per_number):
    """The n-th token without a cache: every row of the text through the layer again (see the
    module's note on why a stack cannot do less), which is a prefill of n tokens."""
    return prefill(n, d_model, h, d_k, bytes_per_number)


@dataclass(frozen=True)
class DecodeCost:
    """A text of n tokens: its prefill as a prompt, and the step that adds its n-th token with
    the cache and without it."""

    n: int
    prefill: Pass
    step: Pass
    uncached: Pass

    def to_dict(self):
        return {
            "n": self.n,
            "prefill": self.prefill.to_dict(),
            "step": self.step.to_dict(),
            "uncached": self.uncached.to_dict(),
        }


def at_length(n, d_model, h, d_k, bytes_per_number):
    """Every pass of one layer at a text of n tokens."""
    sizes = (d_model, h, d_k, bytes_per_number)
    return DecodeCost(int(n), prefill(n, *sizes), cached_step(n, *sizes), uncached_step(n, *sizes))


def table(lengths, d_model, h, d_k, bytes_per_number):
    """One DecodeCost per length, for a table."""
    return [at_length(n, d_model, h, d_k, bytes_per_number) for n in lengths]
