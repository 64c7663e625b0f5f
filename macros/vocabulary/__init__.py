"""The lesson's vocabulary: the names a lesson template may use, each in the module of its
concept, and what keeps the sentences built from them true. ``macros.pages.context`` gathers
them into one ``registry.py``, which refuses a name defined twice.

- ``claims.py``: comparisons a sentence states (argmax, "roughly equal", "differs by more
  than"), which stop the build when false; ``facts.py``: named facts about a lesson's
  numbers, and the cases a shared partial refuses;
- ``display.py``: a trace field as the page shows it (a masked score −∞, a masked
  weight 0); ``glossary.py``: the book's symbols, once;
- ``recomputed.py``: the layer computed again with one thing changed (another scale, no
  mask, causal, rows reordered); ``scaling.py``: one row's softmax, temperatures and the
  study of the scale; ``positions.py``: position encodings as a lesson names them;
  ``costs.py`` and ``tiles.py``: facts the cost and FlashAttention lessons state;
  ``model.py``: the model around attention (one-hot rows, a stack with one head taken out).

May import: macros.errors to macros.render.
"""
