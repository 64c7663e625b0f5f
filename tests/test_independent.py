"""The trace command against an independent implementation of attention, to 1e-9.

The reference below is written from the definition with plain Python loops and
math.exp (no numpy, no shared code with the engine): softmax over the visible keys of
each row, one head at a time, heads concatenated, then W_O. Hypothesis draws the
shapes, the mask, the projections and W_O; each case goes through ``python -m macros
trace`` (in process, by its main function) exactly as an author's fixture would.
"""

import contextlib
import io
import json
import math

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from macros.__main__ import main

TOLERANCE = 1e-9


def reference(X, heads, causal, W_O):
    """Multi-head self-attention from the definition, entry by entry."""

    def matmul(A, B):
        return [[sum(a * b for a, b in zip(row, col, strict=True)) for col in zip(*B, strict=True)] for row in A]

    readings = []
    for W_Q, W_K, W_V in heads:
        Q, K, V = matmul(X, W_Q), matmul(X, W_K), matmul(X, W_V)
        d_k = len(W_Q[0])
        head = []
        for i, q in enumerate(Q):
            seen = [j for j in range(len(K)) if not causal or j <= i]
            scores = {j: sum(a * b for a, b in zip(q, K[j], strict=True)) / math.sqrt(d_k) for j in seen}
            top = max(scores.values())
            exps = {j: math.exp(s - top) for j, s in scores.items()}
            total = sum(exps.values())
            head.append([sum(exps[j] / total * V[j][c] for j in seen) for c in range(len(V[0]))])
        readings.append(head)
    concat = [sum((head[i] for head in readings), []) for i in range(len(X))]
    return concat if W_O is None else matmul(concat, W_O)


def matrix(rows, cols):
    entry = st.floats(min_value=-3, max_value=3, allow_nan=False, allow_infinity=False)
    return st.lists(st.lists(entry, min_size=cols, max_size=cols), min_size=rows, max_size=rows)


@st.composite
def fixtures(draw):
    n, d_model, n_heads = draw(st.integers(1, 5)), draw(st.integers(1, 5)), draw(st.integers(1, 3))
    heads = []
    for _ in range(n_heads):
        d_k, d_v = draw(st.integers(1, 4)), draw(st.integers(1, 4))
        heads.append(
            {"W_Q": draw(matrix(d_model, d_k)), "W_K": draw(matrix(d_model, d_k)), "W_V": draw(matrix(d_model, d_v))}
        )
    data = {"X": draw(matrix(n, d_model)), "causal": draw(st.booleans()), "heads": heads}
    if draw(st.booleans()):
        data["W_O"] = draw(matrix(sum(len(h["W_V"][0]) for h in heads), d_model))
    return data


def trace_command(path):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["trace", str(path)]) == 0
    return json.loads(out.getvalue())


def close(a, b):
    return all(
        abs(x - y) <= TOLERANCE * max(1.0, abs(y))
        for row_a, row_b in zip(a, b, strict=True)
        for x, y in zip(row_a, row_b, strict=True)
    )


# How many cases: the "full" profile in conftest.py (150), or "fast" under `make test-fast`.
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=fixtures())
def test_trace_command_matches_the_definition(tmp_path, data):
    path = tmp_path / "fixture.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    heads = [(h["W_Q"], h["W_K"], h["W_V"]) for h in data["heads"]]
    expected = reference(data["X"], heads, data["causal"], data.get("W_O"))
    assert close(trace_command(path)["output"], expected)


def test_the_comparison_can_fail():
    """Negative control: a difference of 1e-6 is caught."""
    assert close([[1.0, 2.0]], [[1.0, 2.0]]) and not close([[1.0, 2.0]], [[1.0, 2.000001]])
