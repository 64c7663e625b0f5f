"""The rotary lab: a query and a key whose positions the reader moves, and their score.

The page reads fully without JavaScript: the widget is a sentence with the score at the
starting positions and a table of scores at several pairs of positions, all computed here.
docs/assets/js/rotary-lab.js (which recomputes with steps-extra.js, the twin of
macros/engine/positions.py), started by the page's script where this widget is, adds two
sliders and buttons that move both positions at once.

Contract: ``.abh-rotary[data-q][data-k][data-base][data-places][data-q-position]
[data-k-position][data-max]``; ``[data-role]`` spans hold q-position, k-position, offset
and score; the script inserts its controls into ``.abh-rotary-controls``.
"""

import html
import json

from macros.engine import positions
from macros.render import noscript
from macros.render.numbers import format_values
from macros.render.tables import markdown_table


def _attrs(**values):
    pairs = ((name.replace("_", "-"), html.escape(str(value), quote=True)) for name, value in values.items())
    return " ".join(f'{name}="{value}"' for name, value in pairs)


def sentence(q, k, q_position, k_position, base, places):
    score = positions.rotary_score(q, k, q_position, k_position, base)
    return (
        f'Query at position <span data-role="q-position">{q_position}</span>, key at position '
        f'<span data-role="k-position">{k_position}</span>: the key is '
        f'<span data-role="offset">{k_position - q_position}</span> positions after the query, '
        f'and the score is <span data-role="score">{format_values([score], places)[0]}</span>.'
    )


def lab(q, k, base, q_position, k_position, pairs, places, largest=12):
    """The widget's HTML; ``pairs`` are (query position, key position) for its static table."""
    q, k = [float(x) for x in q], [float(x) for x in k]
    attrs = 'class="abh-rotary" ' + _attrs(
        data_q=json.dumps(q),
        data_k=json.dumps(k),
        data_base=repr(float(base)),
        data_places=places,
        data_q_position=q_position,
        data_k_position=k_position,
        data_max=largest,
    )
    scores = format_values([positions.rotary_score(q, k, a, b, base) for a, b in pairs], places)
    rows = [[str(a), str(b), format_values([b - a], 0)[0], text] for (a, b), text in zip(pairs, scores, strict=True)]
    table = markdown_table(["query position", "key position", "offset", "score"], rows)
    return (
        f'<div {attrs} markdown>\n\n<p class="abh-rotary-text" aria-live="polite">'
        f"{sentence(q, k, q_position, k_position, base, places)}</p>\n"
        f'<div class="abh-rotary-controls">{noscript.notice("Moving the two positions")}</div>\n\n'
        f"{table}\n\n</div>\n"
    )
