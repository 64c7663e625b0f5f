"""A validated fixture in its JSON form: what the browser twin (docs/assets/js/engine.js) reads.

The form is the fixture.yaml's own, with ``extends`` already resolved and every default
written out (``causal``, and ``n_heads`` for a fixture given directly), so a widget never
has to know the YAML's defaults. Matrices are lists of rows of floats; W_O and the labels
appear only when the fixture gives them.
"""


def _rows(array):
    return array.astype(float).tolist()


def to_plain(fixture):
    """The JSON form of a validated Fixture: self-attention (X, heads) or given directly (Q, K, V)."""
    if fixture.X is not None:
        plain = {
            "X": _rows(fixture.X),
            "heads": [{name: _rows(getattr(head, name)) for name in ("W_Q", "W_K", "W_V")} for head in fixture.heads],
            "causal": fixture.causal,
        }
        if fixture.tokens:
            plain["tokens"] = list(fixture.tokens)
    else:
        plain = {
            "Q": _rows(fixture.Q),
            "K": _rows(fixture.K),
            "V": _rows(fixture.V),
            "n_heads": fixture.n_heads,
            "causal": fixture.causal,
        }
        if fixture.query_labels:
            plain["query_labels"] = list(fixture.query_labels)
        if fixture.key_labels:
            plain["key_labels"] = list(fixture.key_labels)
    if fixture.W_O is not None:
        plain["W_O"] = _rows(fixture.W_O)
    return plain
