"""One set of a lesson's numbers, computed and read by path: what a practice question grades.

A record holds what ``python -m macros trace`` prints for the numbers (the layer's trace and
the steps of generation the fixture asks for) and what a question may ask beyond it, each
computed by the engine (macros/engine/derived.py, variants.py) only when a path reads it:

- ``swapped``, ``swapped_with_blocks``, ``average``: a layer of two heads or more with its
  heads in the other order (W_O kept, or W_O's row blocks moved with them: the output comes
  out unchanged) and the heads' weights averaged, the map many inspection tools draw;
- ``unscaled``: each head's softmax of its raw scores, without the division by √d_k;
  ``tempered``: of its scaled scores divided by params' ``asked_temperature``;
- ``wide``: the same queries, keys and values read by one head as wide as all of them;
- ``fused``: the queries of every head from one product with the W_Q side by side
  (``fused.Q``), and for each of its columns the head (``fused.head``) and the column within
  that head (``fused.column``) it belongs to, both counted from 1;
- ``tiles``: FlashAttention's tiles of head 1 counted (``tiles.skipped``, ``tiles.computed``,
  ``tiles.tiles``) and each query's running maximum and sum after each key block
  (``tiles.running_max.5.2``);
- ``kv_cache``: a model's KV cache (params ``layers``, ``n_heads``, ``d_k``,
  ``bytes_per_number``): its size after params' ``question_length`` tokens in GiB
  (``kv_cache.gib``) and the tokens that fit in params' ``budget_gib`` (``kv_cache.tokens``);
- ``window_cost``: for each of params' ``lengths``, the scores and weighting of one layer
  (params ``n_heads``, ``d_k``) under a sliding window of params' ``long_window`` keys:
  ``window_cost.0.pairs``, ``window_cost.0.macs``;
- ``millions.PATH``, ``billions.PATH``: the count at PATH in millions or billions;
  ``mib.PATH``, ``gib.PATH``: bytes at PATH in MiB or GiB, for a count too large to type digit
  by digit.

Paths are dotted: ``heads.1.weights.2.0``, ``online.heads.0.blocks.1.m.4``, ``swapped.output.2.0``.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from macros import compute
from macros.engine import cost, derived, steps, variants
from macros.engine.trace import LAYER_FIELDS, JsonView
from macros.sources.fixture import validate

UNITS = {"millions": 10**6, "billions": 10**9, "mib": 2**20, "gib": 2**30}  # a path prefix: the value below it, divided
# The top-level keys the steps of generation may give (macros/engine/generation.py): a key that
# is none of these is looked for without running them.
GENERATION_KEYS = frozenset(
    {
        "decoding",
        "groups",
        "online",
        "window",
        "streaming",
        "paged",
        "memory",
        "cost",
        "long_window_macs",
        "decode_cost",
    }
)


class Sections(Mapping):
    """The record's data by top-level key, each section computed on first read: the layer's
    trace, then the steps of generation, then the quantities beyond them (``BEYOND``)."""

    def __init__(self, record):
        self._record = record
        self._found = {}

    def _trace(self):
        return self._record.trace_data

    def _generation(self):
        return self._record.generation_data

    def __getitem__(self, key):
        if key not in self._found:
            if key in self._trace():
                self._found[key] = self._trace()[key]
            elif key in BEYOND and BEYOND[key][0](self._record):
                self._found[key] = BEYOND[key][1](self._record)
            elif key in GENERATION_KEYS and key in self._generation():
                self._found[key] = self._generation()[key]
            else:
                raise KeyError(key)
        return self._found[key]

    def __contains__(self, key):
        try:
            self[key]
        except KeyError:
            return False
        return True

    def __iter__(self):
        keys = [*self._trace(), *(k for k, (applies, _) in BEYOND.items() if applies(self._record))]
        return iter(dict.fromkeys([*keys, *self._generation()]))

    def __len__(self):
        return sum(1 for _ in self)


@dataclass(frozen=True)
class Record:
    fixture: object  # the validated Fixture
    trace: object  # its Trace

    @cached_property
    def trace_data(self):
        """The trace's JSON form, each field converted when first read."""
        return JsonView(self.trace, LAYER_FIELDS)

    @cached_property
    def generation(self):
        """The steps of generation the fixture asks for, or None."""
        return compute.generation_of(self.fixture, self.trace)

    @cached_property
    def generation_data(self):
        return self.generation.to_dict() if self.generation is not None else {}

    @cached_property
    def data(self):
        return Sections(self)

    @property
    def params(self):
        """The fixture's named numbers (params)."""
        own = getattr(self.fixture, "params", None) or getattr(
            getattr(self.fixture, "generation", None), "params", None
        )
        return dict(own or {})

    def value(self, path):
        """The value at a dotted path, or None when the path names nothing."""
        parts = str(path).split(".")
        if parts[0] in UNITS and len(parts) > 1:
            inner = self.value(".".join(parts[1:]))
            ok = isinstance(inner, int | float) and not isinstance(inner, bool)
            return inner / UNITS[parts[0]] if ok else None
        value = self.data
        for part in parts:
            if isinstance(value, list) and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
            elif isinstance(value, Mapping) and part in value:
                value = value[part]
            else:
                return None
        return value


# ---------------------------------------------------------------- beyond the trace


def _many_heads(rec):
    return rec.trace.n_heads >= 2


def _swaps(rec, with_blocks):
    """The layer with its heads in reverse order: W_O kept, or W_O's row blocks moved with them."""
    trace = rec.trace
    order = list(range(trace.n_heads))[::-1]
    concat = variants.reorder_heads(trace, order)  # (n_q, h * d_v)
    W_O = trace.W_O
    if with_blocks:
        W_O = variants.reorder_row_blocks(trace.W_O, [head.d_v for head in trace.heads], order)  # (h * d_v, d_out)
    return {"concat": concat.tolist(), "output": steps.output_projection(concat, W_O).tolist()}


def _softmax_record(parts, **extra):
    return {
        **extra,
        "shift": parts.shift.tolist(),
        "exps": parts.exps.tolist(),
        "sums": parts.sums.tolist(),
        "weights": parts.weights.tolist(),
    }


def _unscaled(rec):
    return {"heads": [_softmax_record(derived.unscaled_softmax(head)) for head in rec.trace.heads]}


def _tempered(rec):
    T = float(rec.params["asked_temperature"])
    heads = []
    for head in rec.trace.heads:
        divided = [
            [x / T if seen else None for x, seen in zip(row, v, strict=True)]
            for row, v in zip(head.scaled.tolist(), head.visible.tolist(), strict=True)
        ]
        heads.append(_softmax_record(derived.tempered_softmax(head, T), divided=divided))
    return {"temperature": T, "heads": heads}


def _wide(rec):
    head = derived.one_wide_head(rec.trace)
    return {
        "Q": head.Q.tolist(),
        "K": head.K.tolist(),
        "scale": float(head.scale),
        "scaled": [
            [x if v else None for x, v in zip(r, vs, strict=True)]
            for r, vs in zip(head.scaled.tolist(), head.visible.tolist(), strict=True)
        ],
        "visible": head.visible.tolist(),
        "weights": head.weights.tolist(),
        "shift": head.shift.tolist(),
        "exps": head.exps.tolist(),
        "sums": head.sums.tolist(),
        "output": head.output.tolist(),
    }


def _fused(rec):
    W_Qs = [head.W_Q for head in rec.fixture.heads]
    d_k = W_Qs[0].shape[1]
    Q = derived.fused_queries(rec.fixture.X, W_Qs)  # (n, h·d_k)
    owners = [derived.column_owner(c, d_k) for c in range(Q.shape[1])]
    return {
        "Q": Q.tolist(),
        "head": [h + 1 for h, _ in owners],
        "column": [j + 1 for _, j in owners],
        "d_k": int(d_k),
        "W_Q": [W.tolist() for W in W_Qs],
    }


def _has_tiles(rec):
    return bool(rec.trace.heads) and getattr(rec.trace.heads[0], "tiles", None) is not None


def _tiles(rec):
    tiles = rec.trace.heads[0].tiles
    m, total = derived.running_by_key_block(tiles, rec.trace.heads[0].scaled.shape[0])
    starts = sorted({tile.key_block[0] for tile in tiles})
    queries = sorted({tile.query_block for tile in tiles})
    return derived.tile_counts(tiles) | {
        "running_max": m,
        "running_sum": total,
        "key_blocks": [list(next(t.key_block for t in tiles if t.key_block[0] == s)) for s in starts],
        "query_blocks": [list(block) for block in queries],
        "skipped_tiles": [[list(t.query_block), list(t.key_block)] for t in tiles if t.skipped],
    }


KV_SIZES = ("layers", "n_heads", "d_k", "bytes_per_number")


def _has_kv_cache(rec):
    return all(name in rec.params for name in KV_SIZES) and (
        "question_length" in rec.params or "budget_gib" in rec.params
    )


def _kv_cache(rec):
    sizes = {name: int(rec.params[name]) for name in KV_SIZES}
    per_token = derived.cache_bytes(1, **sizes)
    found = {"sizes": sizes, "bytes_per_token": per_token}
    if "question_length" in rec.params:
        n = int(rec.params["question_length"])
        total = derived.cache_bytes(n, **sizes)
        found |= {"length": n, "bytes": total, "gib": total / derived.GIB}
    if "budget_gib" in rec.params:
        budget = float(rec.params["budget_gib"])
        found |= {"budget_gib": budget, "tokens": derived.tokens_that_fit(budget * derived.GIB, per_token)}
    return found


def _has_window_cost(rec):
    return all(name in rec.params for name in ("lengths", "long_window", "n_heads", "d_k"))


def _window_cost(rec):
    p = rec.params
    window, h, d_k = int(p["long_window"]), int(p["n_heads"]), int(p["d_k"])
    rows = []
    for n in p["lengths"]:
        pairs = cost.window_pairs(n, window)
        rows.append({"n": int(n), "window": window, "h": h, "d_k": d_k, "pairs": pairs, "macs": 2 * h * pairs * d_k})
    return rows


# key -> (whether the record has it, how it is computed)
BEYOND = {
    "swapped": (_many_heads, lambda rec: _swaps(rec, False)),
    "swapped_with_blocks": (_many_heads, lambda rec: _swaps(rec, True)),
    "average": (_many_heads, lambda rec: variants.head_average(rec.trace).tolist()),
    "unscaled": (lambda rec: bool(rec.trace.heads), _unscaled),
    "tempered": (lambda rec: bool(rec.trace.heads) and "asked_temperature" in rec.params, _tempered),
    "wide": (_many_heads, _wide),
    "fused": (
        lambda rec: _many_heads(rec) and hasattr(rec.fixture, "X") and getattr(rec.fixture, "latent", None) is None,
        _fused,
    ),
    "tiles": (_has_tiles, _tiles),
    "kv_cache": (_has_kv_cache, _kv_cache),
    "window_cost": (_has_window_cost, _window_cost),
}


def computed(plain, file):
    """The record of a fixture's JSON form: validated and computed; the steps of generation and
    what lies beyond the trace are computed when a path reads them."""
    fixture = validate(file, plain)
    return Record(fixture, compute.compute(fixture))
