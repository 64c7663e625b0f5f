"""A shown calculation read and redone from its shown numbers: the reading behind the rule
"shown arithmetic holds", for the page's math and for the practice's worked solutions.

A formula is cut into tokens, each token one thing a reader reads (a number, an operator, a
bracket, a fraction, a matrix, a name); one small grammar reads a side of an equation from
them (sums, products, quotients, powers and roots, functions such as tanh, weighted sums of
vectors and matrices) and redoes it from the numbers as written.

- ``tokens.py``: the token, and what each kind means;
- ``tex.py``: a formula's TeX read into nodes (groups, macros with their arguments,
  environments), the small part of LaTeX the book writes;
- ``latex.py``: a formula's TeX as tokens, from its nodes;
- ``plain.py``: a worked solution's plain text as tokens (``0.002·2 + 0.668·2 ≈ 1.671``);
- ``grammar.py``: one side of an equation read into a value, or the reason it cannot be;
- ``chains.py``: a formula's statements and their chains of ``=``/``≈``: each calculation
  paired with the shown result it must give, and the rule for when they agree.

May import: macros.errors.
"""
