"""The self-attention form with the sequence keys: a source, valid lengths, positions.

``source`` (m × d_model) gives the keys and values (cross-attention); ``key_length`` hides
the padding keys, one whole number for one sequence or a list for a padded batch whose
sequences all hold X's rows; ``positions`` adds sinusoidal encodings to the inputs or
rotates each head's q and k (rotary). The layer is computed by
``macros.engine.sequence``; its trace keeps the usual names and fills the optional fields of its steps.
"""

from dataclasses import dataclass

import numpy as np

from macros.engine import sequence
from macros.errors import FixtureError
from macros.sources.forms import SelfAttention


@dataclass(frozen=True)
class SequenceAttention(SelfAttention):
    source: np.ndarray | None = None  # (m, d_model); None: keys and values come from X
    key_length: int | tuple | None = None  # as written: one length, or one per sequence
    positions: dict | None = None  # {"encoding": "sinusoidal"} or {"encoding": "rotary", "base": b}

    @property
    def key_lengths(self):
        """Every valid length as a tuple: () without padding, one entry per sequence otherwise."""
        if self.key_length is None:
            return ()
        return self.key_length if isinstance(self.key_length, tuple) else (self.key_length,)

    @property
    def encoding(self):
        return self.positions["encoding"] if self.positions else None

    @property
    def n_keys(self):
        return (self.X if self.source is None else self.source).shape[0]

    def attention(self):
        projections = self.projections
        base = self.positions.get("base", 10000.0) if self.positions else 10000.0
        try:
            return sequence.sequence_attention(
                self.X,
                projections,
                self.causal,
                self.W_O,
                self.source,
                self.key_lengths,
                self.encoding,
                base,
                self.scorings(len(projections)),
            )
        except ValueError as error:  # a mask that leaves a query no key: softmax 0/0
            expected = "a mask that leaves every query a key to read"
            raise FixtureError(self.path, "key_length", expected, str(error)) from None

    def _plain_fields(self):
        plain = super()._plain_fields()
        plain.pop("tokens", None)
        if self.query_labels:
            plain["tokens"] = list(self.query_labels)
        if self.source is not None:
            plain["source"] = self.source.astype(float).tolist()
            if self.key_labels:
                plain["source_tokens"] = list(self.key_labels)
        if self.key_length is not None:
            plain["key_length"] = list(self.key_length) if isinstance(self.key_length, tuple) else self.key_length
        if self.positions:
            plain["positions"] = dict(self.positions)
        return plain
