"""The fixture keys for generation: ``kv_heads``, ``window``, ``block_size``,
``query_block_size``, ``paged`` and ``params``.

Self-attention fixtures may carry them. ``kv_heads`` lists g shared (W_K, W_V) pairs, and
each entry of ``heads`` then holds only W_Q; query head i reads key/value head
i // (h / g), so g must divide h (g = 1 is multi-query). ``window`` is a sliding window
on top of the causal mask; ``block_size`` reads the keys in blocks for the online
softmax, and ``query_block_size`` with it tiles queries and keys as FlashAttention does (each
head's trace then keeps its ``tiles`` and ``logsumexp``); ``params`` holds named numbers
(see ``macros.sources.params``). ``paged: {page_size: B}`` counts a paged cache
for params' ``lengths`` (one per sequence, in request order) against a contiguous one reserving
params' ``max_length`` per sequence; params' ``prompt_length`` and ``continuations`` (two
numbers) add two sequences sharing a prompt.

The checks live here, apart from ``fixture.py``, which calls ``query_heads`` and
``check`` and otherwise knows nothing of these keys.
"""

from dataclasses import dataclass, field

import numpy as np

from macros.sources.forms import Projections
from macros.sources.found import describe
from macros.sources.params import check_params

FIELDS = {"kv_heads", "window", "block_size", "query_block_size", "paged", "params"}
KV_FIELDS = ("W_K", "W_V")


@dataclass(frozen=True)
class GenerationKeys:
    """What the keys asked for; None (or empty) where a key is absent."""

    kv_heads: int | None = None  # g, when the fixture shares key/value heads
    window: int | None = None
    block_size: int | None = None
    query_block_size: int | None = None  # with block_size: FlashAttention's tiles
    params: dict = field(default_factory=dict)
    sink_tokens: int | None = None  # with window: the first tokens kept (softmax_keys.py reads it)
    page_size: int | None = None  # a paged cache for params' lengths

    @property
    def any(self):
        return bool(
            self.kv_heads or self.window or self.block_size or self.query_block_size or self.params or self.page_size
        )


def _whole(check, data, name, expected, low, high=None):
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        check.fail(name, expected, describe(value))
    return value


def query_heads(check, data, d_model):
    """With ``kv_heads``: each query head's W_Q, paired with its group's shared W_K and W_V.

    The pairs are copied across each group, so the layer computed from them is grouped-query
    attention exactly (copying is what sharing means).
    """
    shared = data["kv_heads"]
    if not isinstance(shared, list) or not shared:
        check.fail("kv_heads", "a list with one entry (W_K, W_V) per shared key/value head", describe(shared))
    heads = data["heads"]
    if not isinstance(heads, list) or not heads:
        check.fail("heads", "a list with one entry (W_Q) per query head", describe(heads))
    if len(heads) % len(shared):
        check.fail(
            "kv_heads",
            f"a number of key/value heads that divides the number of query heads ({len(heads)})",
            f"{len(shared)}",
        )
    pairs = [_kv_head(check, entry, f"kv_heads[{j}]", d_model) for j, entry in enumerate(shared)]
    size = len(heads) // len(shared)
    projections = []
    for i, head in enumerate(heads):
        path = f"heads[{i}]"
        if not isinstance(head, dict):
            check.fail(path, "a mapping with W_Q (keys and values come from kv_heads)", describe(head))
        for name in KV_FIELDS:
            if name in head:
                check.fail(f"{path}.{name}", "only W_Q here: keys and values come from kv_heads", f"{name} as well")
        check.fields(head, f"{path}.", {"W_Q"}, ("W_Q",))
        W_K, W_V = pairs[i // size]
        W_Q = check.matrix(
            head["W_Q"], f"{path}.W_Q", W_K.shape, f"d_model × d_k, as wide as kv_heads[{i // size}].W_K"
        )
        projections.append(Projections(W_Q, W_K, W_V))
    return projections


def _kv_head(check, entry, path, d_model):
    if not isinstance(entry, dict):
        check.fail(path, "a mapping with W_K and W_V", describe(entry))
    check.fields(entry, f"{path}.", set(KV_FIELDS), KV_FIELDS)
    matrices = []
    for name in KV_FIELDS:
        M = check.matrix(entry[name], f"{path}.{name}")
        if M.shape[0] != d_model:
            check.fail(f"{path}.{name}", f"a matrix with {d_model} rows (d_model)", f"{M.shape[0]}×{M.shape[1]}")
        matrices.append(M)
    return tuple(np.asarray(M) for M in matrices)


def check(check, data, n, causal):
    """The generation keys of a self-attention fixture with n tokens, checked."""
    window = block_size = None
    if "window" in data:
        window = _whole(check, data, "window", "a whole number of at least 1 (a token always sees itself)", 1)
        if not causal:
            check.fail("window", "causal: true alongside it (a sliding window looks back only)", "causal: false")
    if "block_size" in data:
        expected = f"a whole number from 1 to the number of tokens ({n})"
        block_size = _whole(check, data, "block_size", expected, 1, n)
    query_block_size = _query_block_size(check, data, n) if "query_block_size" in data else None
    params = check_params(check, data)
    kv_heads = len(data["kv_heads"]) if "kv_heads" in data else None
    page_size = _paged(check, data, params) if "paged" in data else None
    return GenerationKeys(kv_heads, window, block_size, query_block_size, params, page_size=page_size)


def _whole_param(check, params, name, low, high=None):
    """A whole number of params (or each of a list), from ``low`` to ``high``."""
    values = params[name] if isinstance(params[name], tuple) else (params[name],)
    for i, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            path = f"params.{name}" + (f"[{i}]" if isinstance(params[name], tuple) else "")
            top = f" to {high}" if high is not None else " or more"
            check.fail(path, f"a whole number from {low}{top}", describe(value))
    return params[name]


def _paged(check, data, params):
    """The page size, with params' lengths (each from 1 to max_length) and, when given, a prompt
    and two continuations."""
    value = data["paged"]
    if not isinstance(value, dict):
        check.fail("paged", "a mapping such as {page_size: 4}", describe(value))
    check.fields(value, "paged.", {"page_size"}, ("page_size",))
    page_size = _whole(
        check, {"paged.page_size": value["page_size"]}, "paged.page_size", "a whole number of at least 1", 1
    )
    for name in ("lengths", "max_length"):
        if name not in params:
            check.fail("paged", f"params.{name} alongside it (the sequences the cache holds)", f"no params.{name}")
    max_length = _whole_param(check, params, "max_length", 1)
    if not isinstance(params["lengths"], tuple):
        check.fail(
            "params.lengths", "a list of lengths, one per sequence in request order", describe(params["lengths"])
        )
    _whole_param(check, params, "lengths", 1, max_length)
    if ("prompt_length" in params) != ("continuations" in params):
        check.fail("paged", "params.prompt_length and params.continuations together, or neither", "one of them")
    if "prompt_length" in params:
        _whole_param(check, params, "prompt_length", 1)
        if not isinstance(params["continuations"], tuple) or len(params["continuations"]) != 2:
            check.fail("params.continuations", "two numbers: the new tokens of each sequence", "something else")
        _whole_param(check, params, "continuations", 1)
    return page_size


def _query_block_size(check, data, n):
    """FlashAttention's query blocks: they tile against the key blocks of ``block_size``."""
    if "block_size" not in data:
        check.fail("query_block_size", "block_size alongside it (the key blocks each tile reads)", "no block_size")
    for other in ("alibi", "additive"):
        if other in data:
            check.fail("query_block_size", "plain dot-product scores (the tiles compute q·k/√d_k)", f"also {other}")
    return _whole(check, data, "query_block_size", f"a whole number from 1 to the number of tokens ({n})", 1, n)
