"""A runnable notebook for every lesson, generated from the lesson's numbers and trace.

A notebook is plain numpy (it never imports this project): the lesson's numbers as arrays,
each step of attention in the book's order and names, then a check against the page's
values at full precision and a comparison with PyTorch where torch is installed. Cells carry
no outputs and their ids derive from their position and source, so a lesson always gives
the same bytes.

- ``build.py``: the cells assembled into the notebook's bytes (``notebook_bytes``);
  ``cells.py``: a cell before nbformat sees it; ``literals.py``: numbers and arrays as
  Python source a learner can read;
- ``layer.py``: what the notebook needs to know of the lesson's layer; ``steps.py``: each
  step of attention in order, with the later steps' cells in ``scoring.py``,
  ``sequence.py``, ``tiles.py``, ``backward.py``, ``block.py``, ``latent.py`` (keys and
  values from a latent), ``sinks.py`` (a sink logit, the first tokens kept), ``linear.py``
  (linear attention), ``paged.py`` (a paged cache's counts) and ``model.py`` (the model around
  attention: ids to rows, a stack of layers, the logits and loss, the draw, a training step);
- ``checks.py``: the last cells, the check against the page and the PyTorch comparison;
- ``extra.py``: a lesson's own cells (``lessons/<slug>/notebook.py``, percent format),
  appended after the generated ones so they can use every name the notebook defines;
- ``names.py``: where the notebook is published (``<slug>.ipynb`` beside the page) and the
  page's link to it, which a warm build uses without loading nbformat or numpy;
- ``__main__.py``: ``python -m macros.notebooks OUTDIR`` writes every lesson's notebook.

May import: macros.errors to macros.lessons.
"""

from macros.notebooks.names import file_name, page_link, slug_file_name

__all__ = ["file_name", "page_link", "slug_file_name"]
