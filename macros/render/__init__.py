"""The only place numbers become text: prose, tables, LaTeX and widget HTML share one
formatter (``numbers.py``), so a value reads the same wherever it appears.

- ``numbers.py``: the formatter, and ``as_shown`` (a value as the reader sees it);
- ``latex.py``: matrices, vectors and the expansions a hand calculation writes out;
  ``tensors.py``: arrays of three axes; ``arithmetic.py``: the rounding note beside a shown
  calculation;
- ``tables.py``: Markdown tables; ``figures.py``, ``cost_chart.py`` and ``roofline.py``: SVG
  drawn at build time; ``head_costs.py``: the table of what splitting into heads costs;
- ``widgets.py``, ``lesson_widgets.py``, ``online_lab.py``, ``rotary_widget.py``: the HTML
  of the interactive parts, readable without scripts (``noscript.py`` says what a reader
  without them is told; ``reasons.py``, the rules a prediction's reasons keep);
  ``practice.py``: the practice element and its data file; ``worksheets.py``: the pages that
  print a lesson's practice on paper, a class set and its answer key;
  ``track.py``: the home page's map and each lesson's facts line; ``summaries.py``: each
  chapter on one page (its formulas, sentences to remember and the shapes of its matrices);
- ``subscripts.py``: a symbol's subscript in plain text shown as one (W_O);
- ``math_rows.py``: formulas written side by side set as a row that stacks on a phone;
- ``katex.py`` (with ``katex_server.cjs``): math typeset by the vendored KaTeX, HTML in,
  HTML out.

May import: macros.errors to macros.lookup.
"""
