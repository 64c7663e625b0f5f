"""Files a cache keeps: written whole or not at all, and removed once no build has used them
for a month. Both of the build's caches (finished pages in ``macros.pages.cache``, typeset
formulas in ``macros.render.katex``) build on these two.

- ``whole_files.py``: a file written to a temporary name and renamed, so a reader never
  sees half of it;
- ``age.py``: the record of when each cached file was last used, and the pruning.

May import: macros.errors.
"""
