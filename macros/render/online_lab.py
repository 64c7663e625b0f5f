"""The online-softmax lab: one query's blocks, recomputed in the browser for any block size.

The build writes the whole table for the fixture's block size, so the page reads fully
without JavaScript; docs/assets/js/online-lab.js redraws it when the reader picks another
block size, with the twin of macros/engine/online.py (steps-extra.js) and the book's
formatter (format.js). Q, K and V travel in the element's data attributes: the lab needs
nothing else from the page.
"""

import html
import json

from macros.engine import online
from macros.render import noscript
from macros.render.numbers import format_values

HEADERS = ("keys", "running maximum m", "rescale exp(m_old − m_new)", "running sum l", "running reading acc")


def _cells(values, places):
    return ", ".join(format_values(values, places))


def block_rows(head, row, block_size, places):
    """The table's rows for query ``row``: one per block, as the page and the lab print them."""
    result = online.online_attention(head.Q, head.K, head.V, block_size, head.visible)
    return [
        [
            f"{block.start + 1}–{block.stop}" if block.stop - block.start > 1 else f"{block.stop}",
            _cells([block.m[row]], places),
            _cells([block.rescale[row]], places),
            _cells([block.l[row]], places),
            _cells(block.acc[row], places),
        ]
        for block in result.blocks
    ], _cells(result.output[row], places)


def _table(rows):
    head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in HEADERS)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def online_lab(head, row, block_size, places, label):
    """The lab's HTML: a block-size picker, the blocks of query ``row`` and its reading."""
    n_k = head.K.shape[0]
    rows, reading = block_rows(head, row, block_size, places)
    options = "".join(
        f'<option value="{b}"{" selected" if b == block_size else ""}>{b}</option>' for b in range(1, n_k + 1)
    )
    data = {
        "data-q": json.dumps(head.Q.tolist()),
        "data-k": json.dumps(head.K.tolist()),
        "data-v": json.dumps(head.V.tolist()),
        "data-visible": json.dumps(head.visible.tolist()),
        "data-row": str(row),
        "data-places": str(places),
    }
    attrs = " ".join(f'{name}="{html.escape(value, quote=True)}"' for name, value in data.items())
    return (
        f'<div class="abh-online-lab" {attrs}>\n'
        f'<p><label>{html.escape(label)} <select class="abh-block-size">{options}</select></label></p>\n'
        f'<div class="abh-online-blocks">{_table(rows)}</div>\n'
        f'<p>Reading, acc / l: <span class="abh-online-reading">{html.escape(reading)}</span></p>\n'
        f"{noscript.notice('Choosing another block size')}\n</div>"
    )
