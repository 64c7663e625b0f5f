"""A runnable notebook for every lesson, generated from the lesson's numbers and trace.

``build.notebook_bytes(lesson)`` gives the file's bytes and ``file_name(lesson)`` its name,
``<slug>.ipynb``, for publishing beside the lesson page (macros/site/notebooks.py), and
``page_link(lesson)`` the page's link to it (names.py, which a warm build uses without
loading nbformat or numpy); ``python -m macros.notebooks OUTDIR``
writes every lesson's notebook into OUTDIR.

A notebook is plain numpy (it never imports this project): the lesson's numbers as arrays,
each step of attention in the book's order and names (layer.py, steps.py), then a check
against the page's values at full precision and a comparison with PyTorch where torch is
installed (checks.py). Cells carry no outputs and their ids derive from their position and
source, so a lesson always gives the same bytes (build.py).

A lesson's own cells: put ``notebook.py`` next to its ``lesson.md``, in the percent format
(``# %%`` starts a code cell, ``# %% [markdown]`` a markdown cell whose lines start with
``# ``). Its cells are appended after the generated ones, so a question or an experiment can
use every variable the notebook defines (``X``, ``W_Q1``, ``weights2``, ``output``, ...:
a head's arrays carry its number, except in a lesson with a single head). See extra.py.
"""

from macros.notebooks.names import file_name, page_link, slug_file_name

__all__ = ["file_name", "page_link", "slug_file_name"]
