"""The attention engine: pure numpy, float64, no I/O and no formatting.

Every intermediate a lesson shows is computed here and kept in a named ``Trace``, so a
page can quote any step without recomputing it. One function per step of the math, in the
order a lesson teaches it, each with a shape comment on its matrix lines.

- ``steps.py``: project, score, scale, mask, stable softmax (shift, exponentials, sum,
  divide), weigh values, concatenate, output projection;
- ``attention.py``: the steps assembled into a head, a layer and a fixture's whole layer;
- ``trace.py``: the ``Trace`` and ``HeadTrace``, every published field declared once with
  its kind and the places that show it (the engine-step guard reads these declarations);
  ``records.py``: the JSON form of the later steps' own records;
- the later steps, one concept a module: ``scoring.py`` (additive scoring, ALiBi),
  ``masks.py`` (padding, windows), ``cross.py`` and ``sequence.py`` (a separate source,
  padding and positions in one layer), ``positions.py`` (sinusoidal, rotary),
  ``groups.py`` (shared key/value heads), ``decoding.py`` (the KV cache),
  ``online.py`` (online softmax over key blocks), ``tiles.py`` (FlashAttention's tiles),
  ``backward.py`` (every gradient), ``block.py`` (the transformer block), ``fused.py``
  (the fused projection and batched heads); attention as current models run it:
  ``latent.py`` (multi-head latent attention), ``sinks.py`` (a sink logit, the first tokens
  kept under a window), ``linear.py`` (linear attention), ``paging.py`` (the paged KV cache);
- the model around attention: ``embedding.py`` (token ids to X, learned positions added),
  ``unembedding.py`` (logits, probabilities, the loss and its gradient), ``sampling.py``
  (temperature, top-k and a seeded draw), ``stack.py`` (layers on the residual stream),
  ``training.py`` (one step of gradient descent on every matrix);
- counts and studies: ``cost.py``, ``decode_cost.py``, ``scale_study.py``; ``derived.py``: the
  quantities a practice question may ask beyond a trace's entries (the weights without the
  scale or at a temperature, one wide head, the fused queries' columns, tiles counted, a
  cache's size);
  ``generation.py`` runs the generation steps a fixture asks for; ``variants.py`` gives a
  layer's changed copies without running attention again (heads reordered, the head average).

May import: nothing of ours (numpy only).
"""

from macros.engine.attention import self_attention, split_attention
from macros.engine.trace import HeadTrace, Trace

__all__ = ["HeadTrace", "Trace", "self_attention", "split_attention"]
