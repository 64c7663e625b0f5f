"""The fixture keys that change the softmax itself: ``sink`` and ``linear``.

    sink:                      # attention sinks, either or both:
      logits: [0.5, -1.0]      #   a learned logit per head, joining each row's softmax (gpt-oss)
      tokens: 1                #   StreamingLLM: under `window`, the first tokens stay visible to
                               #   every later query (needs causal and window; not with rotary
                               #   positions or ALiBi, since it keeps places in the text)
    linear:                    # linear attention in place of the softmax (no scale):
      feature: elu_plus_one    #   φ(x) = elu(x) + 1, the one feature map there is

Either form of fixture may carry ``sink.logits`` and ``linear``; ``sink.tokens`` needs the
self-attention form's window. Linear attention replaces what the scoring keys and the
online softmax act on, so it is refused beside them, each at its key.
"""

import dataclasses

from macros.engine.linear import FEATURES
from macros.sources.found import describe

FIELDS = {"sink", "linear"}
SINK_FIELDS = ("logits", "tokens")
NOT_WITH_LINEAR = {
    "additive": "additive scoring",
    "alibi": "ALiBi's bias",
    "softcap": "soft-capping",
    "qk_norm": "QK-norm",
    "sink": "a sink",
    "block_size": "the online softmax's blocks",
    "upstream": "the backward pass",
}


def check_logits(check, value, n_heads):
    if not isinstance(value, list) or len(value) != n_heads:
        check.fail("sink.logits", f"a list of {n_heads} numbers, one logit per head", describe(value))
    return tuple(check.number(x, f"sink.logits[{i}]") for i, x in enumerate(value))


def check_tokens(check, data, value, n):
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < n:
        check.fail("sink.tokens", f"a whole number from 1 to {n - 1} (fewer than the tokens)", describe(value))
    if not data.get("causal"):
        check.fail("sink.tokens", "causal: true alongside it (the first tokens stay visible to later ones)", "no")
    if "window" not in data:
        check.fail("sink.tokens", "window alongside it (the recent keys kept besides the first tokens)", "no window")
    if data.get("positions", {}).get("encoding") == "rotary" or "alibi" in data:
        check.fail("sink.tokens", "no rotary positions or ALiBi (the kept tokens keep their places)", "one of them")
    return value


def check_sink(check, data, fixture, n_heads):
    """(the logits, the number of first tokens kept), each None when not given."""
    value = data["sink"]
    if not isinstance(value, dict) or not value:
        check.fail("sink", "a mapping with logits, tokens or both", describe(value))
    check.fields(value, "sink.", set(SINK_FIELDS), ())
    logits = check_logits(check, value["logits"], n_heads) if "logits" in value else None
    tokens = None
    if "tokens" in value:
        if fixture.X is None:
            check.fail("sink.tokens", "the self-attention form (X and heads), with a window", "Q, K and V given")
        tokens = check_tokens(check, data, value["tokens"], fixture.X.shape[0])
    return logits, tokens


def check_linear(check, data):
    value = data["linear"]
    if not isinstance(value, dict):
        check.fail("linear", "a mapping such as {feature: elu_plus_one}", describe(value))
    check.fields(value, "linear.", {"feature"}, ("feature",))
    if value["feature"] not in FEATURES:
        check.fail("linear.feature", f"one of {', '.join(FEATURES)}", describe(value["feature"]))
    for key, what in NOT_WITH_LINEAR.items():
        if key in data:
            check.fail("linear", f"no {key} alongside it (it replaces the softmax {what} acts on)", f"{key} as well")
    return value["feature"]


def extend(check, data, fixture):
    """The fixture with a sink or linear attention, unchanged without these keys."""
    if not FIELDS & set(data):
        return fixture
    n_heads = len(fixture.heads) or fixture.n_heads
    logits, tokens = check_sink(check, data, fixture, n_heads) if "sink" in data else (None, None)
    feature = check_linear(check, data) if "linear" in data else None
    scoring = dataclasses.replace(fixture.scoring, sink=logits, linear=feature)
    changed = {"scoring": scoring}
    if tokens is not None:
        changed["generation"] = dataclasses.replace(fixture.generation, sink_tokens=tokens)
    return dataclasses.replace(fixture, **changed)
