"""A line chart of counts that grow over many powers of two, drawn at build time as SVG.

Both axes are logarithmic: the sequence length doubles from one point to the next, and
the counts span many powers of ten. On such axes a count proportional to n is a line of
slope 1 and one proportional to n^2 a line of slope 2, which is what the cost lesson
shows. Colours come from the theme (CSS classes in lesson.css), light and dark; the
numbers are in the data-table twin under "Show the numbers" (figures.numbers_table).
"""

import html
import math

from macros.render.figures import _svg

WIDTH, HEIGHT = 520, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 120, 16, 44
STYLES = ("abh-line-a", "abh-line-b", "abh-line-c")


def _scale(values, low, high):
    lo, hi = math.log(min(values)), math.log(max(values))
    span = hi - lo or 1.0
    return lambda v: low + (math.log(v) - lo) / span * (high - low)


def _power_of_ten_ticks(values):
    return [10**k for k in range(math.ceil(math.log10(min(values))), math.floor(math.log10(max(values))) + 1)]


def line_chart(xs, series, title, x_label, y_label):
    """``series``: (name, values) pairs, one line each, values > 0 at every x; at most one
    series per line style, so that no line is dropped without a word."""
    if len(series) > len(STYLES):
        raise ValueError(f"a line chart draws at most {len(STYLES)} series, got {len(series)}")
    everything = [v for _, values in series for v in values]
    x_of = _scale(xs, LEFT, WIDTH - RIGHT)
    y_of = _scale(everything, HEIGHT - BOTTOM, TOP)
    parts = [
        f'<line class="abh-axis" x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}"/>',
        f'<line class="abh-axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}"/>',
    ]
    for x in xs:
        parts.append(
            f'<text class="abh-figure-label" x="{x_of(x):.1f}" y="{HEIGHT - BOTTOM + 16}" '
            f'text-anchor="middle">{x}</text>'
        )
    for tick in _power_of_ten_ticks(everything):
        y = y_of(tick)
        exponent = round(math.log10(tick))
        parts.append(
            f'<line class="abh-grid" x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}"/>'
            f'<text class="abh-figure-label" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">10<tspan dy="-6" '
            f'font-size="10">{exponent}</tspan></text>'
        )
    for style, (name, values) in zip(STYLES, series, strict=False):  # len(series) <= len(STYLES)
        points = " ".join(f"{x_of(x):.1f},{y_of(v):.1f}" for x, v in zip(xs, values, strict=True))
        parts.append(f'<polyline class="abh-line {style}" points="{points}"/>')
        parts.append(
            f'<text class="abh-figure-label" x="{WIDTH - RIGHT + 6}" y="{y_of(values[-1]) + 4:.1f}">'
            f"{html.escape(name)}</text>"
        )
    parts.append(
        f'<text class="abh-figure-label" x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 8}" text-anchor="middle">'
        f"{html.escape(x_label)}</text>"
        f'<text class="abh-figure-label" x="14" y="{(TOP + HEIGHT - BOTTOM) / 2}" text-anchor="middle" '
        f'transform="rotate(-90 14 {(TOP + HEIGHT - BOTTOM) / 2})">{html.escape(y_label)}</text>'
    )
    return _svg(WIDTH, HEIGHT, title, "".join(parts))
