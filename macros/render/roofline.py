"""The roofline of a chip, drawn at build time as SVG: how fast a pass can go against how many
multiply-adds it does per byte it reads (its intensity).

A pass that does ``i`` multiply-adds per byte can go no faster than ``i`` times the chip's
memory bandwidth (memory-bound: the sloped part of the roof) nor faster than the chip's peak
(compute-bound: the flat part). The two meet at the ridge point, peak / bandwidth. Both axes
are logarithmic, so the sloped part is a line of slope one. Each pass is a dot on the roof,
at its intensity; its numbers are in the data-table twin under "Show the numbers".
"""

import html
import math

from macros.render.cost_chart import _power_of_ten_ticks
from macros.render.figures import _svg

WIDTH, HEIGHT = 520, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 24, 24, 44


def attainable(intensity, peak, bandwidth):
    """Multiply-adds per second a pass of this intensity can reach on the chip."""
    return min(peak, intensity * bandwidth)


def _log_scale(low, high, start, end):
    lo, hi = math.log(low), math.log(high)
    return lambda v: start + (math.log(v) - lo) / (hi - lo) * (end - start)


def _exponent_label(x, y, value, anchor):
    exponent = round(math.log10(value))
    return (
        f'<text class="abh-figure-label" x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">10<tspan dy="-6" '
        f'font-size="10">{exponent}</tspan></text>'
    )


def figure(peak, bandwidth, passes, title, labelled=()):
    """``passes``: (name, intensity) pairs, each a dot on the roof; the names in ``labelled``
    are written beside their dots (the others are in the data table)."""
    ridge = peak / bandwidth
    intensities = [i for _, i in passes] + [ridge]
    low, high = min(intensities) / 4, max(intensities) * 4
    x_of = _log_scale(low, high, LEFT, WIDTH - RIGHT)
    y_low, y_high = attainable(low, peak, bandwidth) / 2, peak * 6  # room above the flat part for labels
    y_of = _log_scale(y_low, y_high, HEIGHT - BOTTOM, TOP)
    parts = [
        f'<line class="abh-axis" x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}"/>',
        f'<line class="abh-axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}"/>',
    ]
    for tick in _power_of_ten_ticks([low, high]):
        parts.append(_exponent_label(x_of(tick), HEIGHT - BOTTOM + 16, tick, "middle"))
    for tick in _power_of_ten_ticks([y_low, y_high]):
        y = y_of(tick)
        parts.append(f'<line class="abh-grid" x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}"/>')
        parts.append(_exponent_label(LEFT - 6, y + 4, tick, "end"))
    roof = [(low, attainable(low, peak, bandwidth)), (ridge, peak), (high, peak)]
    points = " ".join(f"{x_of(x):.1f},{y_of(y):.1f}" for x, y in roof)
    parts.append(f'<polyline class="abh-line abh-line-a" points="{points}"/>')
    parts.append(
        f'<line class="abh-grid" x1="{x_of(ridge):.1f}" y1="{y_of(peak):.1f}" x2="{x_of(ridge):.1f}" '
        f'y2="{HEIGHT - BOTTOM}" stroke-dasharray="4 3"/>'
        f'<text class="abh-figure-label" x="{x_of(ridge) + 4:.1f}" y="{HEIGHT - BOTTOM - 6}">ridge point</text>'
    )
    for name, intensity in passes:
        x, y = x_of(intensity), y_of(attainable(intensity, peak, bandwidth))
        parts.append(
            f'<circle class="abh-dot" cx="{x:.1f}" cy="{y:.1f}" r="4"><title>{html.escape(name)}</title></circle>'
        )
        if name in labelled and intensity < ridge:  # under the slope, to the right of its dot
            parts.append(f'<text class="abh-figure-label" x="{x + 8:.1f}" y="{y + 16:.1f}">{html.escape(name)}</text>')
        elif name in labelled:  # above the flat part, ending over its dot, with a line down to it
            parts.append(
                f'<line class="abh-grid" x1="{x:.1f}" y1="{y - 16:.1f}" x2="{x:.1f}" y2="{y - 6:.1f}"/>'
                f'<text class="abh-figure-label" x="{x + 4:.1f}" y="{y - 20:.1f}" text-anchor="end">'
                f"{html.escape(name)}</text>"
            )
    parts.append(
        f'<text class="abh-figure-label" x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 8}" text-anchor="middle">'
        "multiply-adds per byte read</text>"
        f'<text class="abh-figure-label" x="14" y="{(TOP + HEIGHT - BOTTOM) / 2}" text-anchor="middle" '
        f'transform="rotate(-90 14 {(TOP + HEIGHT - BOTTOM) / 2})">multiply-adds per second</text>'
    )
    return _svg(WIDTH, HEIGHT, title, "".join(parts))
