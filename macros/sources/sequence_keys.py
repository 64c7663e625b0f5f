"""Checks for the sequence keys of the self-attention form: source, key_length, positions.

Each mistake is refused with the file, the line, the field's path, what was expected and
what was found, like every other field. A fixture without these keys stays the plain
self-attention form; with any of them it becomes ``SequenceAttention``.
"""

import dataclasses

from macros.engine import positions as position_steps
from macros.sources.found import describe
from macros.sources.sequences import SequenceAttention

FIELDS = {"source", "source_tokens", "key_length", "positions"}
POSITION_FIELDS = {"encoding", "base"}


def check_source(check, data, d_model):
    """The source's rows are multiplied by the same W_K and W_V as X's, so it is as wide as X."""
    if "source" not in data:
        if "source_tokens" in data:
            check.fail("source_tokens", "no labels without a source (label X's rows with tokens)", "labels")
        return None
    source = check.matrix(data["source"], "source")
    if source.shape[1] != d_model:
        found = f"{source.shape[0]}×{source.shape[1]}"
        check.fail("source", f"a matrix with {d_model} columns (d_model, as wide as X)", found)
    return source


def check_length(check, value, path, n_keys):
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n_keys:
        check.fail(path, f"a whole number from 1 to {n_keys} (the number of keys)", describe(value))
    return value


def check_key_length(check, data, n_keys):
    """One valid length, or a list of them (a padded batch); each from 1 to the number of keys.

    A length of 0 would leave every query no key to read: a softmax over nothing, 0/0.
    """
    if "key_length" not in data:
        return None
    value = data["key_length"]
    if isinstance(value, list):
        if not value:
            check.fail("key_length", "a whole number, or a list with one length per sequence", "an empty list")
        return tuple(check_length(check, x, f"key_length[{i}]", n_keys) for i, x in enumerate(value))
    return check_length(check, value, "key_length", n_keys)


def check_positions(check, data, heads):
    """sinusoidal (added to the inputs) or rotary (each head's d_k even; base a positive number)."""
    if "positions" not in data:
        return None
    value = data["positions"]
    if not isinstance(value, dict):
        check.fail("positions", "a mapping such as {encoding: sinusoidal}", describe(value))
    check.fields(value, "positions.", POSITION_FIELDS, ("encoding",))
    encoding = value["encoding"]
    if encoding not in position_steps.ENCODINGS:
        check.fail("positions.encoding", f"one of {', '.join(position_steps.ENCODINGS)}", describe(encoding))
    if encoding != "rotary":
        if "base" in value:
            check.fail("positions.base", "no base: only rotary takes one", describe(value["base"]))
        return {"encoding": encoding}
    base = check.number(value.get("base", 10000.0), "positions.base")
    if base <= 0:
        check.fail("positions.base", "a positive number", describe(value["base"]))
    for i, head in enumerate(heads):
        d_k = head.W_Q.shape[1]
        if d_k % 2:
            check.fail(
                f"heads[{i}].W_Q",
                "an even number of columns (d_k): rotary turns coordinates in pairs",
                f"{head.W_Q.shape[0]}×{d_k}",
            )
    return {"encoding": encoding, "base": base}


def extend(check, data, fixture):
    """The fixture as SequenceAttention when it uses the sequence keys, unchanged otherwise."""
    if not FIELDS & set(data):
        return fixture
    d_model = fixture.X.shape[1]
    source = check_source(check, data, d_model)
    n_keys = fixture.X.shape[0] if source is None else source.shape[0]
    if source is not None and fixture.causal and n_keys != fixture.X.shape[0]:
        check.fail("causal", f"false when the source has not as many rows as X ({fixture.X.shape[0]})", "true")
    key_labels = fixture.key_labels
    if source is not None:
        tokens = data.get("source_tokens")
        key_labels = check.labels(tokens, "source_tokens", n_keys, "row of source") if tokens is not None else ()
    fields = {f.name: getattr(fixture, f.name) for f in dataclasses.fields(fixture)}
    return SequenceAttention(
        **{**fields, "key_labels": key_labels},
        source=source,
        key_length=check_key_length(check, data, n_keys),
        positions=check_positions(check, data, fixture.heads),
    )
