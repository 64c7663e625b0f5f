"""Load a lesson's fixture.yaml and check every field before the engine sees it.

Two forms are accepted. Self-attention: X (n × d_model) and per-head projections.
Given directly: Q, K and V, optionally cut into n_heads equal column slices. Either form
may start from another lesson's fixture with ``extends: <slug>`` and override fields.
Nothing is defaulted silently: an unknown key is an error, since a typo must not fall
back to a default.
"""

import math
from pathlib import Path

import numpy as np

from macros.errors import FixtureError
from macros.sources import (
    generation_keys,
    latent_keys,
    model_keys,
    params,
    reads,
    scoring_keys,
    sequence_keys,
    softmax_keys,
    training_keys,
    yamlfile,
)
from macros.sources.forms import Fixture, GivenQKV, Projections, SelfAttention
from macros.sources.found import closest_name, describe

__all__ = ["Fixture", "GivenQKV", "Projections", "SelfAttention", "load", "validate"]

SELF_FIELDS = (
    {"tokens", "X", "causal", "heads", "W_O", "extends", "params"}
    | sequence_keys.FIELDS
    | generation_keys.FIELDS
    | scoring_keys.FIELDS
    | softmax_keys.FIELDS
    | latent_keys.FIELDS
    | training_keys.FIELDS
    | model_keys.FIELDS
)
DIRECT_FIELDS = (
    {
        "Q",
        "K",
        "V",
        "n_heads",
        "causal",
        "W_O",
        "query_labels",
        "key_labels",
        "extends",
        "params",
    }
    | scoring_keys.FIELDS
    | softmax_keys.FIELDS
)
# New numbers for the lesson's exercise: set aside here, checked by macros/sources/practice_key.py.
ASIDE = "practice"
HEAD_FIELDS = ("W_Q", "W_K", "W_V")


# ---------------------------------------------------------------- reading YAML


def read_yaml(file):
    """The raw mapping in a fixture file, or a FixtureError naming the line of a YAML mistake."""
    data = yamlfile.read(file, FixtureError)
    if not isinstance(data, dict):
        raise FixtureError(file, "", "a mapping of fields (X, heads, ... or Q, K, V)", describe(data))
    return data


def closest_field(key, allowed):
    """The allowed field a typo most likely meant (``found.closest_name``), or None."""
    return closest_name(key, allowed)


def _looks_numeric(text):
    """YAML 1.1 reads 1e-3 (no dot) as text; such a value is a number the author meant."""
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def shape_text(rows, cols):
    return f"{rows}×{cols}"


# ---------------------------------------------------------------- checking fields


def _finite(number):
    """Whether an int or float is a finite float (an int too large for a float is not)."""
    try:
        return math.isfinite(number)
    except OverflowError:
        return False


def plain_matrix(value):
    """The float array of a list of equally long, non-empty lists of finite ints and floats;
    None for anything else, which ``Checker.matrix_entries`` then reads entry by entry.

    The practice check validates about a hundred drawn fixtures per lesson: this quick
    reading is most of what makes that cheap.
    """
    if type(value) is not list or not value or type(value[0]) is not list or not value[0]:
        return None
    width = len(value[0])
    for row in value:
        if type(row) is not list or len(row) != width:
            return None
        for x in row:
            if (type(x) is not float and type(x) is not int) or not _finite(x):
                return None
    return np.array(value, dtype=np.float64)  # [rows, cols]


class Checker:
    """Checks one fixture file; every error names that file, the line and the field's path."""

    def __init__(self, file, lines=None):
        self.file = file
        self.lines = lines  # read from the file only when a mistake needs its line

    def fail(self, path, expected, found):
        if self.lines is None:
            self.lines = yamlfile.field_lines(self.file)
        raise FixtureError(self.file, path, expected, found, yamlfile.line_of(self.lines, path))

    def fields(self, data, path, allowed, required):
        for key in data:
            if key not in allowed:
                close = closest_field(str(key), allowed)
                hint = f" (did you mean {close}?)" if close else ""
                self.fail(f"{path}{key}", f"one of the fields {', '.join(sorted(allowed))}", f"an unknown field{hint}")
        for key in required:
            if key not in data:
                self.fail(f"{path}{key}", "this field", "nothing: it is missing")

    def number(self, value, path):
        if isinstance(value, str) and _looks_numeric(value):
            self.fail(
                path, "a number", f"{describe(value)}, which YAML reads as text (write 1e-3 as 1.0e-3, 1e5 as 1.0e+5)"
            )
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(path, "a number", describe(value))
        if not _finite(value):
            self.fail(path, "a finite number", describe(value))
        return float(value)

    def matrix(self, value, path, shape=None, meaning=""):
        """A non-empty rectangular list of rows of finite numbers, of ``shape`` when given."""
        array = plain_matrix(value)
        if array is None:  # something is wrong with it: found entry by entry, to name it
            array = self.matrix_entries(value, path)
        if shape is not None and array.shape != shape:
            detail = f" ({meaning})" if meaning else ""
            self.fail(path, f"a {shape_text(*shape)} matrix{detail}", shape_text(*array.shape))
        return array

    def matrix_entries(self, value, path):
        """The matrix read entry by entry, failing at the first entry that is not a finite number."""
        if not isinstance(value, list) or not value:
            self.fail(path, "a matrix written as a list of rows", describe(value))
        rows = []
        for i, row in enumerate(value):
            if not isinstance(row, list) or not row:
                self.fail(f"{path}[{i}]", "a row: a non-empty list of numbers", describe(row))
            if rows and len(row) != len(rows[0]):
                self.fail(f"{path}[{i}]", f"{len(rows[0])} numbers like the first row", f"{len(row)}")
            rows.append([self.number(x, f"{path}[{i}][{j}]") for j, x in enumerate(row)])
        return np.array(rows, dtype=np.float64)

    def boolean(self, value, path):
        if not isinstance(value, bool):
            self.fail(path, "true or false", describe(value))
        return value

    def labels(self, value, path, count, of):
        if not isinstance(value, list) or not all(isinstance(x, str | int) and not isinstance(x, bool) for x in value):
            self.fail(path, "a list of labels (text)", describe(value))
        if len(value) != count:
            self.fail(path, f"{count} labels, one per {of}", f"{len(value)}")
        return tuple(str(x) for x in value)

    def positive_int(self, value, path):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            self.fail(path, "a whole number of at least 1", describe(value))
        return value

    def output_projection(self, data, rows, cols=None):
        """W_O maps the concatenated heads (rows wide) to the output; identity when absent."""
        if "W_O" not in data:
            return None
        W_O = self.matrix(data["W_O"], "W_O")
        expected_cols = W_O.shape[1] if cols is None else cols
        if W_O.shape != (rows, expected_cols):
            meaning = "heads · d_v × d_model" if cols is not None else "heads · d_v rows"
            self.fail("W_O", f"a {shape_text(rows, expected_cols)} matrix ({meaning})", shape_text(*W_O.shape))
        return W_O


# ---------------------------------------------------------------- the two forms


def check_self_attention(check, data):
    check.fields(data, "", SELF_FIELDS, ())
    X, embedding, words = model_keys.input_rows(check, data)
    n, d_model = X.shape
    if "layers" in data:
        return check_stack(check, data, X, embedding, words)
    if "heads" not in data:
        check.fail("heads", "this field, or layers (a stack of them)", "nothing: it is missing")
    heads, latent = data["heads"], None
    if "latent" in data:
        projections, latent = latent_keys.query_heads(check, data, d_model)
    elif "kv_heads" in data:
        projections = generation_keys.query_heads(check, data, d_model)
    elif not isinstance(heads, list) or not heads:
        check.fail("heads", "a list with one entry (W_Q, W_K, W_V) per head", describe(heads))
    else:
        projections = [check_head(check, head, f"heads[{i}]", d_model) for i, head in enumerate(heads)]
    d_v_total = sum(p.W_V.shape[1] for p in projections)
    tokens = token_labels(check, data, n, embedding, words)
    causal = check.boolean(data.get("causal", False), "causal")
    plain = SelfAttention(
        path=str(check.file),
        causal=causal,
        generation=generation_keys.check(check, data, n, causal),
        W_O=check.output_projection(data, d_v_total, d_model),
        X=X,
        heads=tuple(projections),
        query_labels=tokens,
        key_labels=tokens,
        params=params.check_params(check, data),
        vocabulary=words,
        embedding=embedding,
    )
    scored = softmax_keys.extend(check, data, scoring_keys.extend(check, data, latent_keys.extend(plain, latent)))
    layer = sequence_keys.extend(check, data, scored)
    return model_keys.extend(check, data, training_keys.extend(check, data, layer), words)


def token_labels(check, data, n, embedding, words):
    """The rows' labels: as given, or the vocabulary's words at the embedding's ids."""
    if embedding is not None:
        return tuple(words[i] for i in embedding.ids)
    return check.labels(data["tokens"], "tokens", n, "row of X") if "tokens" in data else ()


def check_stack(check, data, X, embedding, words):
    """A stack of attention layers on the residual stream, in place of heads and W_O."""
    stack = model_keys.layers(check, data, X.shape[1], check_head)
    causal = check.boolean(data.get("causal", False), "causal")
    tokens = token_labels(check, data, X.shape[0], embedding, words)
    plain = SelfAttention(
        path=str(check.file),
        causal=causal,
        W_O=None,
        X=X,
        query_labels=tokens,
        key_labels=tokens,
        params=params.check_params(check, data),
        vocabulary=words,
        embedding=embedding,
        layers=stack,
    )
    return model_keys.extend(check, data, plain, words)


def check_head(check, head, path, d_model):
    if not isinstance(head, dict):
        check.fail(path, "a mapping with W_Q, W_K and W_V", describe(head))
    check.fields(head, f"{path}.", set(HEAD_FIELDS), HEAD_FIELDS)
    W_Q = check.matrix(head["W_Q"], f"{path}.W_Q")
    if W_Q.shape[0] != d_model:
        check.fail(f"{path}.W_Q", f"a matrix with {d_model} rows (d_model)", shape_text(*W_Q.shape))
    d_k = W_Q.shape[1]
    W_K = check.matrix(head["W_K"], f"{path}.W_K", (d_model, d_k), "d_model × d_k")
    W_V = check.matrix(head["W_V"], f"{path}.W_V")
    if W_V.shape[0] != d_model:
        check.fail(f"{path}.W_V", f"a matrix with {d_model} rows (d_model × d_v)", shape_text(*W_V.shape))
    return Projections(W_Q, W_K, W_V)


def check_direct(check, data):
    check.fields(data, "", DIRECT_FIELDS, ("Q", "K", "V"))
    Q = check.matrix(data["Q"], "Q")
    K = check.matrix(data["K"], "K")
    if K.shape[1] != Q.shape[1]:
        check.fail("K", f"rows of {Q.shape[1]} numbers, as wide as Q (d_k)", shape_text(*K.shape))
    V = check.matrix(data["V"], "V")
    if V.shape[0] != K.shape[0]:
        check.fail("V", f"{K.shape[0]} rows, one value per key", shape_text(*V.shape))
    n_heads = check.positive_int(data.get("n_heads", 1), "n_heads")
    for name, width in (("Q", Q.shape[1]), ("V", V.shape[1])):
        if width % n_heads:
            check.fail("n_heads", f"a number of heads that divides the width of {name} ({width})", str(n_heads))
    causal = check.boolean(data.get("causal", False), "causal")
    if causal and Q.shape[0] != K.shape[0]:
        check.fail("causal", "false when there are not as many queries as keys", "true")
    given = GivenQKV(
        path=str(check.file),
        causal=causal,
        W_O=check.output_projection(data, V.shape[1]),
        Q=Q,
        K=K,
        V=V,
        n_heads=n_heads,
        query_labels=check.labels(data["query_labels"], "query_labels", Q.shape[0], "query")
        if "query_labels" in data
        else (),
        key_labels=check.labels(data["key_labels"], "key_labels", K.shape[0], "key") if "key_labels" in data else (),
        params=params.check_params(check, data),
    )
    return softmax_keys.extend(check, data, scoring_keys.extend(check, data, given))


# ---------------------------------------------------------------- entry point


def _line(file, path="extends"):
    return yamlfile.line_of(yamlfile.field_lines(file), path)


def merged_data(file, seen=()):
    """The fixture's fields, on top of the fields of the lesson it extends, if any.

    A parent's ``practice`` block is not inherited: it is drawn for the parent's exercise,
    so a child that wants new numbers declares its own.
    """
    data = read_yaml(file)
    if "extends" not in data:
        return data
    parent = data.pop("extends")
    parent_file = Path(file).parent.parent / str(parent) / "fixture.yaml"
    if not isinstance(parent, str) or not reads.exists(parent_file):
        raise FixtureError(
            file, "extends", "the folder name of another lesson that has a fixture.yaml", describe(parent), _line(file)
        )
    if parent_file.resolve() in seen or parent_file.resolve() == Path(file).resolve():
        raise FixtureError(
            file, "extends", "a chain of lessons that ends", "a loop back to " + repr(parent), _line(file)
        )
    parent_data = merged_data(parent_file, (*seen, Path(file).resolve()))
    validate(parent_file, parent_data)  # a mistake in the parent is reported under the parent's name
    parent_data.pop("practice", None)
    return {**parent_data, **data}


def load(file):
    """A validated Fixture from ``file``, or a FixtureError that says what to fix."""
    return validate(file, merged_data(file))


def validate(file, data):
    """The Fixture that ``data`` (read from ``file``) describes, in whichever form it is written."""
    check = Checker(file)
    data = {key: value for key, value in data.items() if key != ASIDE}
    if "X" in data and "Q" in data:
        check.fail("Q", "either X with heads (self-attention) or Q, K and V (given directly)", "both forms")
    if {"X", "heads", "embedding", "layers"} & set(data):
        return check_self_attention(check, data)
    if "Q" in data or "K" in data or "V" in data:
        return check_direct(check, data)
    check.fail("", "X with heads (self-attention), or Q, K and V (given directly)", "neither")
