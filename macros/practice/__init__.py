"""Practice on fresh numbers: seeded variants of a lesson's fixture, drawn, computed and
checked at build time in Python and shipped to the page as data (the browser draws nothing).

- ``spec.py``: the fixture's ``practice:`` block read (what is drawn, the kinds of question,
  the ``require:`` rules);
- ``draw.py``: the seeded draws, each refused or kept by the rules, a repeat refused too;
- ``record.py``: one drawn set computed, read by path as a question grades it, with the
  quantities a question may ask beyond the trace;
- ``quantities.py``: what a question asks, in a reader's words, with its range and tolerance;
- ``worked.py``: each question's worked solution, every step it needs; ``worked_model.py``
  those on the model around attention (embedding, logits, loss, draw, a stack);
  ``worked_lines.py`` the lines both write their steps with;
  ``worked_sums.py``: every sum a worked solution shows, redone;
- ``build.py``: a lesson's practice put together (its own numbers, then the drawn sets).

May import: macros.errors to macros.explain.
"""
