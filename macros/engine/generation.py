"""The steps of generation a fixture asks for, run on its layer: kept apart from the Trace.

The layer's ``Trace`` (heads, concat, output) is the browser twin's contract; what is
computed here (each decoding step's cache, the grouped and multi-query variants, the
online softmax's blocks, the sliding window, the cost, decoding cost and memory tables) is read by the
lesson pages and printed by the trace command, but no lab recomputes it, so it stays out
of the twin's contract.
"""

from dataclasses import dataclass

from macros.engine import cost, decode_cost, decoding, groups, masks, online, paging, sinks
from macros.engine.attention import self_attention
from macros.engine.records import layer_record, rows

MEMORY_PARAMS = ("layers", "n_heads", "d_k", "bytes_per_number", "lengths")
COST_PARAMS = ("d_model", "n_heads", "d_k", "lengths")
PAGED_PARAMS = ("lengths", "max_length")  # and, for two sequences sharing a prompt, prompt_length and continuations
DECODE_COST_PARAMS = ("d_model", "n_heads", "d_k", "bytes_per_number", "lengths")


@dataclass(frozen=True)
class GroupVariant:
    """The layer with g shared key/value heads, mean-pooled from its own h heads."""

    kv_heads: int  # g
    kv_head_of: tuple  # for each query head, the key/value head it reads
    pooled: tuple  # g pairs (W_K, W_V)
    trace: object  # Trace of grouped attention
    copied: object  # Trace of multi-head attention with the pooled pairs copied across groups
    cache_per_token: int  # numbers one token leaves in the cache: a key and a value per kv head

    def to_dict(self):
        return {
            "kv_heads": self.kv_heads,
            "kv_head_of": list(self.kv_head_of),
            "pooled": [{"W_K": rows(W_K), "W_V": rows(W_V)} for W_K, W_V in self.pooled],
            "readings": [rows(head.output) for head in self.trace.heads],
            "output": rows(self.trace.output),
            "cache_per_token": self.cache_per_token,
        }


@dataclass(frozen=True)
class PerHead:
    """One record per head, named as the trace prints it: ``decoding.heads[i]``."""

    heads: tuple

    def __bool__(self):
        return bool(self.heads)

    def to_dict(self):
        return {"heads": [record.to_dict() for record in self.heads]}


@dataclass(frozen=True)
class Generation:
    decoding: PerHead = PerHead(())  # one DecodeTrace per head
    groups: tuple = ()  # GroupVariant for g = h, ..., 1 (every divisor of h)
    online: PerHead = PerHead(())  # one OnlineTrace per head
    window: object = None  # Trace of the layer under the sliding window
    window_pairs: int = 0
    causal_pairs: int = 0
    streaming: object = None  # Trace of the layer under the window with the first tokens kept (sinks)
    streaming_pairs: int = 0
    paged: object = None  # paging.PagedCache: pages, block tables and unused slots for params' lengths
    memory: tuple = ()  # (n, bytes) rows
    bytes_per_token: int = 0
    cost: tuple = ()  # LayerCost rows
    long_window_macs: tuple = ()  # score multiply-adds under params.long_window, per length
    decode_cost: tuple = ()  # DecodeCost rows: prefill, a cached step, an uncached step, per length

    def to_dict(self):
        out = {}
        if self.decoding:
            out["decoding"] = self.decoding.to_dict()
        if self.groups:
            out["groups"] = [g.to_dict() for g in self.groups]
        if self.online:
            out["online"] = self.online.to_dict()
        if self.window is not None:
            record = layer_record(self.window)
            out["window"] = {
                "weights": [head["weights"] for head in record["heads"]],
                "output": record["output"],
                "pairs": self.window_pairs,
                "causal_pairs": self.causal_pairs,
            }
        if self.streaming is not None:
            record = layer_record(self.streaming)
            out["streaming"] = {
                "weights": [head["weights"] for head in record["heads"]],
                "output": record["output"],
                "pairs": self.streaming_pairs,
            }
        if self.paged is not None:
            out["paged"] = self.paged.to_dict()
        if self.memory:
            out["memory"] = {"bytes_per_token": self.bytes_per_token, "rows": [list(r) for r in self.memory]}
        if self.cost:
            out["cost"] = [row.to_dict() for row in self.cost]
        if self.long_window_macs:
            out["long_window_macs"] = list(self.long_window_macs)
        if self.decode_cost:
            out["decode_cost"] = [row.to_dict() for row in self.decode_cost]
        return out


def divisors_descending(h):
    return [g for g in range(h, 0, -1) if h % g == 0]


def group_variants(X, projections, causal, W_O):
    """Every g dividing h, from multi-head (g = h) down to multi-query (g = 1)."""
    h, d_k = len(projections), projections[0][1].shape[1]
    variants = []
    for g in divisors_descending(h):
        pooled = groups.pool_kv(projections, g)
        trace = groups.grouped_attention(X, [W_Q for W_Q, _, _ in projections], pooled, causal, W_O)
        copies = groups.copy_across_groups(pooled, h)
        copied = self_attention(
            X, [(W_Q, W_K, W_V) for (W_Q, _, _), (W_K, W_V) in zip(projections, copies, strict=True)], causal, W_O
        )
        variants.append(GroupVariant(g, tuple(groups.kv_head_map(h, g)), tuple(pooled), trace, copied, 2 * g * d_k))
    return tuple(variants)


def memory_rows(params):
    sizes = {name: params[name] for name in ("layers", "d_k", "bytes_per_number")}
    table = decoding.kv_cache_table(params["lengths"], kv_heads=params["n_heads"], **sizes)
    return tuple(table), decoding.kv_bytes_per_token(kv_heads=params["n_heads"], **sizes)


def streaming_parts(X, projections, W_O, window, tokens, scorings):
    """The layer under the window with the first ``tokens`` keys kept (StreamingLLM), and its pairs."""
    visible = sinks.streaming_window(X.shape[0], window, tokens)  # (n, n)
    layer = masks.masked_self_attention(X, projections, visible, W_O, scorings)
    return {"streaming": layer, "streaming_pairs": int(visible.sum())}


def paged_parts(params, page_size):
    """The paged cache for params' lengths against a contiguous cache of params' max_length."""
    shared = (params["prompt_length"], params["continuations"]) if "prompt_length" in params else (None, None)
    return paging.paged_cache(params["lengths"], page_size, params["max_length"], *shared)


def generate(
    X,
    projections,
    causal,
    W_O,
    trace,
    kv_heads=None,
    window=None,
    block_size=None,
    params=None,
    scorings=None,
    sink_tokens=None,
    page_size=None,
):
    """What the fixture's generation keys ask for. ``trace`` is the layer's own Trace; each
    head's ``scorings`` entry (a cap, a sink, linear attention...) applies under a window too.
    The token-by-token run and the grouped variants are softmax attention's, and are left out
    for linear attention, whose state is its cache."""
    params = params or {}
    parts = {}
    softmax = not any(s is not None and s.linear for s in scorings or ())
    if causal and softmax:
        parts["decoding"] = PerHead(tuple(decoding.decode(X, *p) for p in projections))
    if len(projections) > 1 and kv_heads is None and softmax:
        parts["groups"] = group_variants(X, projections, causal, W_O)
    if block_size:
        parts["online"] = PerHead(
            tuple(online.online_attention(head.Q, head.K, head.V, block_size, head.visible) for head in trace.heads)
        )
    if window:
        n = X.shape[0]
        parts["window"] = masks.masked_self_attention(X, projections, masks.sliding_window(n, window), W_O, scorings)
        parts["window_pairs"], parts["causal_pairs"] = cost.window_pairs(n, window), cost.causal_pairs(n)
        if sink_tokens:
            parts |= streaming_parts(X, projections, W_O, window, sink_tokens, scorings)
    if page_size:
        parts["paged"] = paged_parts(params, page_size)
    if all(name in params for name in MEMORY_PARAMS):
        parts["memory"], parts["bytes_per_token"] = memory_rows(params)
    if all(name in params for name in COST_PARAMS):
        parts["cost"] = tuple(cost.cost_table(params["lengths"], params["d_model"], params["n_heads"], params["d_k"]))
        if "long_window" in params:
            parts["long_window_macs"] = tuple(
                cost.window_score_macs(n, params["long_window"], params["n_heads"], params["d_k"])
                for n in params["lengths"]
            )
    if all(name in params for name in DECODE_COST_PARAMS):
        sizes = [params[name] for name in DECODE_COST_PARAMS[:-1]]
        parts["decode_cost"] = tuple(decode_cost.table(params["lengths"], *sizes))
    return Generation(**parts)
