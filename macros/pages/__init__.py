"""Pages as Markdown: every page source (lessons and the pages around them) rendered by the
project's own Jinja environment, checked, and kept for the next build. Nothing here knows
MkDocs: ``macros.site`` hands the Markdown to it, ``python -m macros render`` writes it as
plain files.

- ``book.py``: the ``Book``, the track read once, each lesson computed when first needed and
  each page rendered on demand;
- ``context.py``: every name a lesson's template sees, gathered from the vocabulary, the
  shared partials and the render helpers into one registry that refuses a name defined twice;
- ``environment.py``: the Jinja environment and what its output depends on;
  ``claim_lines.py``: each claim block told the template line it is written at;
- ``checks.py``: the rules a lesson page passes besides rendering, with
  ``shown_arithmetic.py`` (every formula read, each shown calculation redone from the shown
  numbers), ``arithmetic_marks.py`` (the author's mark ``{# not arithmetic: why #}``),
  ``formula_lines.py`` (the template line a formula is written at) and
  ``unseen_answers.py`` (a graded answer not readable above its question);
- ``located.py``: a failed render as the one located line an author reads;
- ``cache.py``: finished pages kept in ``.cache/pages``, keyed by every file they read;
- ``ahead.py``: a whole build's lesson pages rendered in forked processes, each adopted by
  the book;
- ``scripts.py``: the page scripts bundled at build time (esbuild) and the worker shim
  search needs from disk.

May import: macros.errors to macros.notebooks.
"""
