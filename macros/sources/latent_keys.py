"""The fixture key for multi-head latent attention: ``latent``.

    heads:                     # each entry holds only W_Q (keys and values come from the latent)
      - {W_Q: [[...]]}
    latent:
      W_DKV: [[...]]           # d_model × d_c: every token's row compressed into its latent row
      heads:                   # one entry per query head, in head order
        - {W_UK: [[...]], W_UV: [[...]]}   # d_c × d_k and d_c × d_v

The self-attention form only, on X itself: a source, padding, positions (DeepSeek-V2 carries
them in a separate rotary key), shared key/value heads and the backward pass are refused
with it, each at its key. The heads' W_K and W_V are read as W_DKV W_UK and W_DKV W_UV, the
same keys and values, so that the steps which take projections (generation) need no change;
the layer itself is computed through the latent (macros.engine.latent).
"""

import dataclasses

from macros.engine.latent import LatentSpec
from macros.sources.forms import Projections
from macros.sources.found import describe

FIELDS = {"latent"}
LATENT_FIELDS = ("W_DKV", "heads")
UP_FIELDS = ("W_UK", "W_UV")
REFUSED = {
    "kv_heads": "the latent is what the heads share",
    "source": "the latent compresses X's own rows",
    "key_length": "padding is not modelled with a latent",
    "positions": "DeepSeek-V2 carries positions in a separate rotary key, which this form does not model",
    "upstream": "the backward pass is not modelled with a latent",
}


def _mapping(check, value, path, what):
    if not isinstance(value, dict):
        check.fail(path, f"a mapping with {what}", describe(value))
    return value


def _up(check, entry, path, d_c, d_k):
    _mapping(check, entry, path, "W_UK and W_UV")
    check.fields(entry, f"{path}.", set(UP_FIELDS), UP_FIELDS)
    W_UK = check.matrix(entry["W_UK"], f"{path}.W_UK", (d_c, d_k), "d_c × d_k: as wide as the head's W_Q")
    W_UV = check.matrix(entry["W_UV"], f"{path}.W_UV")
    if W_UV.shape[0] != d_c:
        check.fail(f"{path}.W_UV", f"a matrix with {d_c} rows (d_c × d_v)", f"{W_UV.shape[0]}×{W_UV.shape[1]}")
    return W_UK, W_UV


def spec(check, data, d_model):
    """The latent projections, checked against each query head's W_Q."""
    for key, why in REFUSED.items():
        if key in data:
            check.fail("latent", f"no {key} alongside it ({why})", f"{key} as well")
    value = _mapping(check, data["latent"], "latent", "W_DKV and heads")
    check.fields(value, "latent.", set(LATENT_FIELDS), LATENT_FIELDS)
    W_DKV = check.matrix(value["W_DKV"], "latent.W_DKV")
    if W_DKV.shape[0] != d_model:
        check.fail(
            "latent.W_DKV", f"a matrix with {d_model} rows (d_model × d_c)", f"{W_DKV.shape[0]}×{W_DKV.shape[1]}"
        )
    heads, ups = data["heads"], value["heads"]
    if not isinstance(heads, list) or not heads:
        check.fail("heads", "a list with one entry (W_Q) per query head", describe(heads))
    if not isinstance(ups, list) or len(ups) != len(heads):
        check.fail("latent.heads", f"a list of {len(heads)} entries (W_UK, W_UV), one per head", describe(ups))
    W_Qs, W_UKs, W_UVs = [], [], []
    for i, head in enumerate(heads):
        _mapping(check, head, f"heads[{i}]", "W_Q (keys and values come from latent)")
        for name in ("W_K", "W_V"):
            if name in head:
                check.fail(f"heads[{i}].{name}", "only W_Q here: keys and values come from latent", f"{name} as well")
        check.fields(head, f"heads[{i}].", {"W_Q"}, ("W_Q",))
        W_Q = check.matrix(head["W_Q"], f"heads[{i}].W_Q")
        if W_Q.shape[0] != d_model:
            check.fail(f"heads[{i}].W_Q", f"a matrix with {d_model} rows (d_model)", f"{W_Q.shape[0]}×{W_Q.shape[1]}")
        W_UK, W_UV = _up(check, ups[i], f"latent.heads[{i}]", W_DKV.shape[1], W_Q.shape[1])
        W_Qs.append(W_Q)
        W_UKs.append(W_UK)
        W_UVs.append(W_UV)
    return W_Qs, LatentSpec(W_DKV, tuple(W_UKs), tuple(W_UVs))


def query_heads(check, data, d_model):
    """Each head's projections, W_K and W_V read through the latent, and the latent itself."""
    W_Qs, latent = spec(check, data, d_model)
    folded = latent.folded()
    return [Projections(W_Q, W_K, W_V) for W_Q, (W_K, W_V) in zip(W_Qs, folded, strict=True)], latent


def extend(fixture, latent):
    """The fixture with its latent, unchanged without one."""
    return fixture if latent is None else dataclasses.replace(fixture, latent=latent)
