"""Notebooks of lessons written with the sequence keys compute what their pages show:
keys and values from the source, sinusoidal encodings added, rotary turns, the padding
mask from the valid length, and a plain note for a batch's other sequences."""

import pytest

from tests import computed


def source(slug):
    return computed.notebook(slug).decode("utf-8")


@pytest.mark.parametrize(
    ("slug", "expected"),
    [
        ("masks", ["key_length = 4", "visible = visible & (np.arange(4) < key_length)", "valid lengths 4, 3"]),
        ("cross-attention", ["source = np.array(", "K1 = source @ W_K1", "V2 = source @ W_V2", "key_length = 3"]),
        ("order-and-position", ["PE = sinusoidal(*X.shape)", "X = X + PE"]),
        ("rotary-by-hand", ["def rotary(M, base=100.0):", "Q = rotary(Q)", "K = rotary(K)"]),
    ],
)
def test_the_notebook_computes_the_new_steps(slug, expected):
    text = source(slug)
    missing = [line for line in expected if line not in text]
    assert missing == []


def test_multihead_comparison_is_left_out_where_it_would_not_apply():
    # nn.MultiheadAttention would project X for the keys (cross-attention) and not rotate.
    assert "torch.nn.MultiheadAttention(" not in source("cross-attention")
    assert "torch.nn.MultiheadAttention(" not in source("rotary-by-hand")
