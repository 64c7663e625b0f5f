"""A symbol's subscript in plain text shown as one: ``W_O`` becomes W<sub>O</sub>, in the
practice panels, the worksheets and their headings alike (docs/assets/js/practice.js has
the same pattern, ``subscriptParts``)."""

import html
import re

# A symbol with a subscript in plain text: W_Q, d_k, d_model, W_DKV, θ_i, q_3 (not a word with an
# underscore inside it).
SUBSCRIPT = re.compile(r"(?<![A-Za-z0-9_])([A-Za-zθ])_([A-Za-z0-9]+)")


def marked(text):
    """Plain text as HTML, each symbol's subscript in <sub>: W_O becomes W<sub>O</sub>."""
    return SUBSCRIPT.sub(r"\1<sub>\2</sub>", html.escape(text))
