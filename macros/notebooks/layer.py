"""What a notebook needs to know about a lesson's layer: its form, its heads and their widths.

A lesson is written in one of two forms (see macros/sources/forms.py): self-attention, where each
head projects the input rows X with its own W_Q, W_K and W_V; or given directly, where Q, K
and V are the lesson's numbers and head i takes the i-th equal slice of their columns.
The notebook names each head's arrays with the head's number (Q1, weights2, ...); a lesson
with a single head drops the number (Q, weights).
"""

from dataclasses import dataclass

from macros.engine.scoring import LayerScoring
from macros.notebooks import scoring, sequence


@dataclass(frozen=True)
class Head:
    number: int  # from 1, as the lesson page counts heads
    suffix: str  # "" when the lesson has one head, else the head's number
    d_k: int
    d_v: int
    q_columns: tuple  # (start, stop) of this head's columns of Q and K, given directly
    v_columns: tuple  # (start, stop) of this head's columns of V, given directly

    def name(self, base):
        return f"{base}{self.suffix}"


@dataclass(frozen=True)
class Layer:
    direct: bool  # Q, K and V given directly, instead of X with projections
    n_q: int
    n_k: int
    d_in: int  # d_model (the width of X), or the width of Q when given directly
    d_out: int  # the output's width
    causal: bool
    has_W_O: bool
    heads: tuple  # of Head
    # The sequence keys (macros/notebooks/sequence.py): keys and values from a source, a
    # valid length (the batch's lengths when several), position encodings.
    has_source: bool = False
    key_length: int | None = None
    batch: tuple = ()
    encoding: str | None = None
    base: float = 10000.0
    # How heads score (macros/notebooks/scoring.py): the fixture's scoring keys, as given
    # (engine.scoring.LayerScoring: QK-norm, additive scoring, a cap, ALiBi's slopes).
    scoring: LayerScoring = LayerScoring()
    # Keys and values rebuilt from a shared latent (macros/notebooks/latent.py).
    latent: bool = False

    @property
    def additive(self):
        return self.scoring.additive is not None

    @property
    def slopes(self):
        return tuple(self.scoring.alibi or ())

    @property
    def linear(self):
        """Linear attention in place of the softmax (macros/notebooks/linear.py)."""
        return self.scoring.linear is not None

    @property
    def sinks(self):
        """Each head's sink logit, or () without one (macros/notebooks/sinks.py)."""
        return tuple(self.scoring.sink or ())

    @property
    def masked(self):
        """Whether a mask hides some keys: causal, or padding from a valid length."""
        return self.causal or self.key_length is not None

    @property
    def h(self):
        return len(self.heads)

    @property
    def split(self):
        """Given directly and cut into several heads: each head's step 1 takes its columns."""
        return self.direct and self.h > 1

    @property
    def fused_width(self):
        """The heads' shared width when every head has d_k = d_v = d_in / h, else None.

        That is the layout torch.nn.MultiheadAttention requires: one width for queries,
        keys and values, and the heads' widths adding up to the model's width.
        """
        if self.has_source or self.encoding == "rotary" or self.scoring.any or self.latent:
            return None  # nn.MultiheadAttention here would project X for keys, not rotate, not score otherwise
        widths = {(head.d_k, head.d_v) for head in self.heads}
        if len(widths) != 1:
            return None
        d_k, d_v = widths.pop()
        if d_k != d_v or d_k * self.h != self.d_in or self.d_out != self.d_in:
            return None
        return d_k


def describe(lesson):
    """The Layer of a loaded lesson (macros.lessons.Lesson), from its numbers and its trace."""
    fixture, trace = lesson.fixture, lesson.trace
    direct = fixture.X is None
    heads = []
    for i, head in enumerate(trace.heads):
        suffix = str(i + 1) if trace.n_heads > 1 else ""
        q_columns = (i * head.d_k, (i + 1) * head.d_k)
        v_columns = (i * head.d_v, (i + 1) * head.d_v)
        heads.append(Head(i + 1, suffix, head.d_k, head.d_v, q_columns, v_columns))
    n_q = trace.heads[0].Q.shape[0] if trace.heads else fixture.X.shape[0]  # a stack has no heads of its own
    n_k = trace.heads[0].K.shape[0] if trace.heads else fixture.X.shape[0]
    return Layer(
        direct=direct,
        n_q=n_q,
        n_k=n_k,
        d_in=fixture.Q.shape[1] if direct else fixture.X.shape[1],
        d_out=trace.output.shape[1],
        causal=fixture.causal,
        has_W_O=fixture.W_O is not None,
        heads=tuple(heads),
        **sequence.layer_fields(fixture),
        **scoring.layer_fields(fixture),
        latent=getattr(fixture, "latent", None) is not None,
    )
