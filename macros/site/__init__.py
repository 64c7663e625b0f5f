"""MkDocs wiring: pages from the book, lesson folders as pages, the KaTeX pass, errors.

It sits on top of everything else and nothing imports it: ``macros/__init__.py`` hands
mkdocs-macros' hooks to ``macros.site.plugin``; ``mkdocs.yml`` names ``hooks.py``.
"""
