"""The fixture keys for how heads score their keys: ``additive``, ``alibi``, ``softcap`` and
``qk_norm``.

    additive:                  # additive (Bahdanau) scoring for every head, instead of q·k/√d_k:
      W_a: [[...]]             #   d_k × d_a, the query side
      U_a: [[...]]             #   d_k × d_a, the key side
      v_a: [...]               #   d_a numbers
    alibi: [0.0625, 0.0039]    # one slope per head, added to the scaled scores as −m·(i − j);
                               #   needs causal: true
    softcap: 50.0              # each scaled score s becomes cap · tanh(s / cap), before a bias
    qk_norm: true              # each row of Q and K divided by its root mean square first

Either form of fixture may carry them (every head must then have the same d_k for
``additive``). Each mistake names its field; a key is refused where it cannot apply.
"""

import dataclasses

import numpy as np

from macros.engine.scoring import Additive, LayerScoring
from macros.sources.found import describe

FIELDS = {"additive", "alibi", "softcap", "qk_norm"}
ADDITIVE_FIELDS = ("W_a", "U_a", "v_a")


def head_widths(fixture):
    """The query/key width of each head of either form."""
    if fixture.X is not None:
        return [head.W_Q.shape[1] for head in fixture.heads]
    return [fixture.Q.shape[1] // fixture.n_heads] * fixture.n_heads


def check_additive(check, value, widths):
    if not isinstance(value, dict):
        check.fail("additive", "a mapping with W_a, U_a and v_a", describe(value))
    check.fields(value, "additive.", set(ADDITIVE_FIELDS), ADDITIVE_FIELDS)
    if len(set(widths)) != 1:
        check.fail("additive", "heads of one width d_k (one W_a and U_a serve them all)", f"widths {widths}")
    d_k = widths[0]
    W_a = check.matrix(value["W_a"], "additive.W_a")
    if W_a.shape[0] != d_k:
        check.fail("additive.W_a", f"a matrix with {d_k} rows (d_k × d_a)", f"{W_a.shape[0]}×{W_a.shape[1]}")
    d_a = W_a.shape[1]
    U_a = check.matrix(value["U_a"], "additive.U_a", (d_k, d_a), "d_k × d_a, like W_a")
    v_a = check.matrix(
        [value["v_a"]] if isinstance(value["v_a"], list) else value["v_a"],
        "additive.v_a",
        (1, d_a),
        f"{d_a} numbers (d_a)",
    )
    return Additive(W_a, U_a, np.asarray(v_a[0], dtype=float))


def check_alibi(check, value, n_heads, causal):
    if not causal:
        check.fail("alibi", "causal: true alongside it (ALiBi's bias looks back only)", "causal: false")
    if not isinstance(value, list) or len(value) != n_heads:
        check.fail("alibi", f"a list of {n_heads} slopes, one per head", describe(value))
    slopes = []
    for i, slope in enumerate(value):
        number = check.number(slope, f"alibi[{i}]")
        if number < 0:
            check.fail(f"alibi[{i}]", "a slope of at least 0", describe(slope))
        slopes.append(float(number))
    return tuple(slopes)


def check_softcap(check, value):
    cap = check.number(value, "softcap")
    if cap <= 0:
        check.fail("softcap", "a cap greater than 0 (the scores stay between −cap and cap)", describe(value))
    return cap


def extend(check, data, fixture):
    """The fixture with its heads' scoring, unchanged without these keys."""
    if not FIELDS & set(data):
        return fixture
    widths = head_widths(fixture)
    scoring = LayerScoring(
        additive=check_additive(check, data["additive"], widths) if "additive" in data else None,
        alibi=check_alibi(check, data["alibi"], len(widths), fixture.causal) if "alibi" in data else None,
        softcap=check_softcap(check, data["softcap"]) if "softcap" in data else None,
        qk_norm=check.boolean(data["qk_norm"], "qk_norm") if "qk_norm" in data else False,
    )
    return dataclasses.replace(fixture, scoring=scoring)
