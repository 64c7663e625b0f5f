"""Figures drawn at build time as inline SVG: they read without JavaScript, follow the
theme's colours in light and dark mode (CSS classes, no fixed colours), and carry the
trace paths a live widget needs to redraw them (``data-bar``, ``data-heat``, ``data-bind``).

Each figure has a data-table twin in a collapsible block for screen readers and for
anyone who wants the numbers.
"""

import html

import numpy as np

from macros.render import tables
from macros.render.numbers import format_values

BAR_LENGTH = 200  # px of a weight of 1
ROW = 26  # px per key
CELL = 44  # px per heat-map cell


def _svg(width, height, title, body):
    label = html.escape(title)
    return (
        f'<svg class="abh-figure" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{label}"><title>{label}</title>{body}</svg>'
    )


def weight_bars(weights, labels, decimals, path, title):
    """One bar per key, its length the weight; ``path`` is the weights row's trace path."""
    weights = np.asarray(weights, dtype=float)
    texts = format_values(weights, decimals)
    label_width = 12 + 8 * max(len(str(label)) for label in labels)
    parts = []
    for j, (label, weight, text) in enumerate(zip(labels, weights, texts, strict=True)):
        y = j * ROW
        parts.append(
            f'<text class="abh-figure-label" x="{label_width - 8}" y="{y + 17}" text-anchor="end">'
            f"{html.escape(str(label))}</text>"
            f'<rect class="abh-bar-track" x="{label_width}" y="{y + 5}" width="{BAR_LENGTH}" height="16"/>'
            f'<rect class="abh-bar" data-bar="{path}.{j}" data-full="{BAR_LENGTH}" x="{label_width}" y="{y + 5}" '
            f'width="{weight * BAR_LENGTH:.2f}" height="16"/>'
            f'<text class="abh-figure-value" data-bind="{path}.{j}" x="{label_width + BAR_LENGTH + 8}" y="{y + 17}">'
            f"{text}</text>"
        )
    width = label_width + BAR_LENGTH + 8 + 10 * (decimals + 3)
    return _svg(width, len(weights) * ROW + 4, title, "".join(parts))


def heat_map(weights, visible, row_labels, col_labels, decimals, path, title):
    """Rows are queries, columns keys; the stronger a cell's colour, the more weight (in light and
    dark mode alike), and a masked cell is an empty dashed outline with a dash: no weight at all,
    never a shade that could read as some."""
    weights = np.asarray(weights, dtype=float)
    texts = format_values(weights, decimals)
    left = 12 + 8 * max(len(str(label)) for label in row_labels)
    top = 22
    n_q, n_k = weights.shape
    parts = [
        f'<text class="abh-figure-label" x="{left + c * CELL + CELL / 2}" y="{top - 8}" text-anchor="middle">'
        f"{html.escape(str(label))}</text>"
        for c, label in enumerate(col_labels)
    ]
    for r in range(n_q):
        y = top + r * CELL
        parts.append(
            f'<text class="abh-figure-label" x="{left - 8}" y="{y + CELL / 2 + 5}" text-anchor="end">'
            f"{html.escape(str(row_labels[r]))}</text>"
        )
        for c in range(n_k):
            x = left + c * CELL
            if not visible[r][c]:
                parts.append(
                    f'<rect class="abh-masked" x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}"/>'
                    f'<text class="abh-figure-label abh-masked-mark" x="{x + CELL / 2}" y="{y + CELL / 2 + 5}" '
                    'text-anchor="middle">–</text>'
                )
                continue
            parts.append(
                f'<rect class="abh-heat" data-heat="{path}.{r}.{c}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                f'fill-opacity="{weights[r, c]:.4f}"/>'
                f'<text class="abh-figure-value abh-cell-value" data-bind="{path}.{r}.{c}" x="{x + CELL / 2}" '
                f'y="{y + CELL / 2 + 5}" text-anchor="middle">{texts[r * n_k + c]}</text>'
            )
    return _svg(left + n_k * CELL + 4, top + n_q * CELL + 4, title, "".join(parts))


def maps_side_by_side(maps):
    """Several heat maps in a row that wraps on narrow screens, each with its caption."""
    figures = "".join(
        f'<figure class="abh-map">{svg}<figcaption>{html.escape(caption)}</figcaption></figure>'
        for caption, svg in maps
    )
    return f'<div class="abh-maps">{figures}</div>'


def numbers_table(title, header, rows):
    """The data-table twin of a figure, collapsed under 'Show the numbers'."""
    table = tables.markdown_table(header, rows)
    indented = "\n".join("    " + line for line in table.splitlines())
    return f'??? info "Show the numbers: {title}"\n\n{indented}\n'
