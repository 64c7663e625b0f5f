"""What the readers' search leaves out of a lesson page: its tables and figures of numbers.

A search snippet of a table or a chart is a string of digits ("0.248, 0.248, 0.503 head 2
0.074 …"), which helps no reader; the prose around them is what a search should find. Each
``<table>`` and ``<svg>`` of a lesson page gets Material's documented ``data-search-exclude``
attribute before the search plugin reads the page; the graded checks, hints and folded work
carry it from where they are written (``macros.render.widgets``), so no answer is found by
searching for it. The glossary, a page of words, keeps its tables searchable.
"""

import re

OPENING = re.compile(r"<(table|svg)\b(?![^>]*data-search-exclude)")


def numbers_left_out(html):
    return OPENING.sub(lambda m: f"<{m.group(1)} data-search-exclude", html)
