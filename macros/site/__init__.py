"""The MkDocs wiring: the book's pages handed to MkDocs, the lesson folders published as
pages, the math typeset, the search index made readable. It sits on top of everything else
and nothing imports it: ``macros/__init__.py`` hands mkdocs-macros' entry points to
``plugin.py``; ``mkdocs.yml`` names ``hooks.py``, which says which event does what.

- ``plugin.py``: mkdocs-macros' ``define_env`` (the ``Book``) and ``on_pre_page_macros``
  (a page's Markdown from the book);
- ``hooks.py``: MkDocs' events, each handing its work to one module;
- ``lesson_files.py``: lessons published as pages, with their notebooks and practice data,
  and the page scripts;
- ``math.py``: formulas typeset at build time; ``searchable.py``: what search leaves out;
  ``plain_math.py``: the search index's formulas as plain text, worked out by a lesson worker
  when there is one;
- ``serve.py`` and ``serving.py``: ``make serve`` and its partial rebuilds;
- ``compat.py``: the one module that relies on what MkDocs and Material do without
  documenting it, each item tested.

May import: macros.errors to macros.pages.
"""
