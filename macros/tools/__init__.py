"""The authors' and maintainers' commands, apart from the path a number travels. ``python -m
macros`` (``macros/__main__.py``) and the Makefile call them; nothing in the book's path
imports them.

- ``golden.py``: the reviewed record of each lesson's published values (``make golden``);
  ``golden_changes.py``: every recorded value changed since a git ref;
- ``claims_listing.py``: every claim with the condition it checks (``python -m macros
  claims``);
- ``arithmetic_listing.py``: what the arithmetic check reads on each page and in each
  practice's worked solutions (``python -m macros arithmetic``);
- ``practice_listing.py``: each lesson's practice, its kinds of question, rules and what they
  refused (``python -m macros practice``);
- ``lint.py``: how much of each lesson template is logic rather than prose;
- ``export.py``: the book as plain Markdown (``python -m macros render DIR``);
- ``twin_contract.py``: the browser twin's copy of the trace contract (``make contract``);
- ``scaffold``: ``make lesson``, the starter lesson and its line in the track.

May import: macros.errors to macros.pages.
"""
