"""The two forms a fixture is written in, each answering for itself.

Self-attention gives the input X and each head's projections; the direct form gives the
queries, keys and values themselves, cut into ``n_heads`` equal column slices. Whatever
differs between them (how the layer is computed, the JSON form a widget reads, the
labels of queries and keys) is a method of the form, so no caller asks which form it has.

A template may still test ``fixture.X is none``: each form reads the other form's fields
as absent rather than as an error.
"""

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from macros.engine import attention, backward, block, embedding, latent, sampling, stack, tiles, training, unembedding
from macros.engine.scoring import LayerScoring


def _rows(array):
    return array.astype(float).tolist()


@dataclass(frozen=True)
class Projections:
    W_Q: np.ndarray  # (d_model, d_k)
    W_K: np.ndarray  # (d_model, d_k)
    W_V: np.ndarray  # (d_model, d_v)


@dataclass(frozen=True)
class Fixture:
    """What both forms share: the file, the mask, W_O and the labels."""

    path: str
    causal: bool
    W_O: np.ndarray | None  # (h · d_v, d_out); None means identity
    query_labels: tuple = ()
    key_labels: tuple = ()
    params: dict = field(default_factory=dict)  # named numbers beyond attention's inputs (params.py)
    # How the heads score their keys beyond q·k/√d_k (scoring_keys.py): additive, alibi,
    # softcap, qk_norm, as the fixture gives them.
    scoring: LayerScoring = field(default_factory=LayerScoring)

    # The other form's fields, absent (templates may ask `fixture.X is none`).
    X = None
    heads = ()
    Q = K = V = None

    @property
    def tokens(self):
        """Self-attention labels one row of X per token; queries and keys share them."""
        return self.key_labels

    def run(self):
        """The fixture's whole layer: a Trace."""
        raise NotImplementedError

    @property
    def additive(self):
        """The additive scoring network every head uses (engine.scoring.Additive), or None."""
        return self.scoring.additive

    @property
    def alibi(self):
        """One ALiBi slope per head, or None."""
        return self.scoring.alibi

    def scorings(self, n_heads):
        """Each head's scoring (engine.scoring.Scoring), or None for plain dot products."""
        return self.scoring.heads(n_heads)

    def to_plain(self):
        """The JSON form the browser twin (docs/assets/js/engine.js) reads.

        The fixture.yaml's own form, with ``extends`` already resolved and every default
        written out (``causal``, and ``n_heads`` for the direct form), so a widget never
        has to know the YAML's defaults. W_O and the labels appear only when given.
        """
        plain = self._plain_fields()
        if self.W_O is not None:
            plain["W_O"] = _rows(self.W_O)
        if self.params:
            plain["params"] = {k: list(v) if isinstance(v, tuple) else v for k, v in self.params.items()}
        for key, value in self.scoring.to_plain().items():
            plain[key] = {**plain[key], **value} if key in plain else value  # a sink's logits beside its tokens
        return plain


@dataclass(frozen=True)
class SelfAttention(Fixture):
    """X (n × d_model) and one (W_Q, W_K, W_V) per head."""

    X: np.ndarray = None  # (n, d_model)
    heads: tuple = ()  # of Projections
    generation: object = None  # generation_keys.GenerationKeys: kv_heads, window, block_size, params
    upstream: np.ndarray | None = None  # (n, d_out): the output's gradient, for the backward pass
    transformer: object = None  # engine.block.BlockSpec: a transformer block around the layer
    latent: object = None  # engine.latent.LatentSpec: keys and values rebuilt from a shared latent
    # The model around attention (model_keys.py): the vocabulary, X from an embedding, a stack of
    # layers in place of the heads, the unembedding, the next token's draw and a training step.
    vocabulary: tuple = ()
    embedding: object = None  # engine.embedding.EmbeddingSpec; X above is then E[ids] + P[0:n]
    layers: tuple = ()  # of engine.stack.LayerSpec; heads and W_O are then empty
    unembedding: object = None  # engine.unembedding.UnembeddingSpec
    sampling: object = None  # engine.sampling.SamplingSpec
    train: object = None  # engine.training.TrainSpec

    @property
    def n_heads(self):
        return len(self.heads)

    @property
    def projections(self):
        return [(head.W_Q, head.W_K, head.W_V) for head in self.heads]

    def run(self):
        """The layer (or the stack of layers), inside its transformer block when the fixture has one,
        with its optional steps and the model around it. With an embedding, X is made from it here,
        so that a lesson's "what if" with other ids or another E computes from those."""
        if self.embedding is not None:
            return self.embedded()._run()
        return self._run()

    def embedded(self):
        """The fixture with X = E[ids] + P[0:n] from its embedding, labelled with the ids' words."""
        labels = tuple(self.vocabulary[i] for i in self.embedding.ids)
        X = embedding.embed(self.embedding).X  # (n, d_model)
        return dataclasses.replace(self, X=X, query_labels=labels, key_labels=labels)

    def _run(self):
        if self.layers:
            return self.with_model(stack.stack(self.X, self.layers, self.causal))
        if self.transformer is None:
            return self.with_model(self.with_steps(self.attention()))
        layer, steps = block.transformer_block(self.X, self.attention_on, self.transformer)
        return dataclasses.replace(layer, block=steps)

    def parameters(self):
        """The matrices a training step changes (engine.training.Parameters)."""
        emb, unemb = self.embedding, self.unembedding
        return training.Parameters(
            E=emb.E if emb else None,
            P=emb.P if emb else None,
            W_Q=tuple(head.W_Q for head in self.heads),
            W_K=tuple(head.W_K for head in self.heads),
            W_V=tuple(head.W_V for head in self.heads),
            W_O=self.W_O,
            W_U=None if unemb.tied else unemb.W_U,
        )

    def with_model(self, trace):
        """The embedding's steps, the logits and loss, the next token's draw and a training step,
        where the fixture asks for them."""
        changes = {}
        if self.embedding is not None:
            changes["embedding"] = embedding.embed(self.embedding)
        if self.unembedding is not None:
            E = self.embedding.E if self.embedding is not None else None
            found = unembedding.next_token(trace.output, self.unembedding, E)
            changes |= {"logits": found.logits, "probs": found.probs, "loss": found.loss, "d_logits": found.d_logits}
        if self.sampling is not None:
            changes["sampling"] = sampling.sample(changes["logits"][-1], self.sampling)
        if self.train is not None:
            ids = self.embedding.ids if self.embedding is not None else ()
            changes["train"], changes["backward"] = training.train_step(
                self.parameters(), ids, self.X, self.unembedding.targets, self.causal, self.train.lr
            )
        return dataclasses.replace(trace, **changes) if changes else trace

    def attention(self):
        """The attention layer on X: each form (and sequences.py) computes its own."""
        scorings = self.scorings(self.n_heads)
        if self.latent is not None:
            W_Qs = [head.W_Q for head in self.heads]
            trace, record = latent.latent_attention(self.X, W_Qs, self.latent, self.causal, self.W_O, scorings)
            return dataclasses.replace(trace, latent=record)
        return attention.self_attention(self.X, self.projections, self.causal, self.W_O, scorings)

    def attention_on(self, X):
        """The same layer on other input rows (a block's normalised rows), with its optional steps."""
        return self.with_steps(dataclasses.replace(self, X=X, transformer=None).attention())

    def with_steps(self, trace):
        """FlashAttention's tiles and the backward pass, where the fixture asks for them."""
        generation = self.generation
        if generation is not None and generation.query_block_size:
            trace = tiles.with_tiles(trace, generation.query_block_size, generation.block_size)
        if self.upstream is not None:
            trace = dataclasses.replace(
                trace, backward=backward.backward(self.X, self.projections, trace, self.upstream)
            )
        return trace

    def _plain_fields(self):
        own = ("W_Q",) if self.latent is not None else ("W_Q", "W_K", "W_V")  # with a latent, K and V come from it
        plain = self._input_fields()
        if self.layers:
            plain["layers"] = [layer.to_plain() for layer in self.layers]
        else:
            plain["heads"] = [{name: _rows(getattr(head, name)) for name in own} for head in self.heads]
        plain["causal"] = self.causal
        if self.latent is not None:
            plain["latent"] = self.latent.to_plain()
        if self.tokens and self.embedding is None:  # with an embedding, the tokens are the vocabulary's words
            plain["tokens"] = list(self.tokens)
        for name in ("window", "block_size", "query_block_size"):  # the settings a recomputation needs
            value = getattr(self.generation, name, None)
            if value is not None:
                plain[name] = value
        if getattr(self.generation, "sink_tokens", None):
            plain["sink"] = {"tokens": self.generation.sink_tokens}
        if getattr(self.generation, "page_size", None):
            plain["paged"] = {"page_size": self.generation.page_size}
        if self.upstream is not None:
            plain["upstream"] = _rows(self.upstream)
        if self.transformer is not None:
            plain["transformer"] = block.spec_to_plain(self.transformer)
        return plain | self._model_fields()

    def _input_fields(self):
        """X, or the vocabulary and embedding it is made from."""
        if self.embedding is None:
            return {"X": _rows(self.X)} | ({"vocabulary": list(self.vocabulary)} if self.vocabulary else {})
        return {"vocabulary": list(self.vocabulary), "embedding": self.embedding.to_plain()}

    def _model_fields(self):
        plain = {}
        if self.unembedding is not None:
            W_U = "tied" if self.unembedding.tied else _rows(self.unembedding.W_U)
            targets = {"targets": list(self.unembedding.targets)} if self.unembedding.targets else {}
            plain["unembedding"] = {"W_U": W_U, **targets}
        for name in ("sampling", "train"):
            if getattr(self, name) is not None:
                plain[name] = getattr(self, name).to_plain()
        return plain


@dataclass(frozen=True)
class GivenQKV(Fixture):
    """Q, K and V given directly, cut into n_heads equal column slices."""

    Q: np.ndarray = None  # (n_q, d_k · n_heads)
    K: np.ndarray = None  # (n_k, d_k · n_heads)
    V: np.ndarray = None  # (n_k, d_v · n_heads)
    n_heads: int = 1

    def run(self):
        return attention.split_attention(
            self.Q, self.K, self.V, self.n_heads, self.causal, self.W_O, self.scorings(self.n_heads)
        )

    def _plain_fields(self):
        plain = {"Q": _rows(self.Q), "K": _rows(self.K), "V": _rows(self.V), "n_heads": self.n_heads}
        plain["causal"] = self.causal
        if self.query_labels:
            plain["query_labels"] = list(self.query_labels)
        if self.key_labels:
            plain["key_labels"] = list(self.key_labels)
        return plain
