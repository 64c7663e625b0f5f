"""The notice a widget shows where its controls would be when no script runs
(macros/render/noscript.py): inside the widget, out of the readers' search, saying how to get
the controls. The browser tests see it with scripts off (tests/test_browser.py)."""

import re

from macros.render import noscript, online_lab, rotary_widget, widgets

NOTICE = re.compile(
    r'<noscript><p class="abh-noscript" data-search-exclude>([^<]*(?:<code>[^<]*</code>[^<]*)*)</p></noscript>'
)


def notices(html):
    return NOTICE.findall(html)


def test_the_notice_says_what_needs_the_script_and_how_to_get_it():
    assert notices(noscript.notice("Checking your answers here")) == [
        "Checking your answers here needs JavaScript, which is off in this browser. Turn it on, or serve the "
        "book's folder: run <code>python -m http.server</code> in it and open <code>http://localhost:8000</code>."
    ]


def inside(html, opening):
    """The notices between a widget's opening tag and its last closing </div>."""
    start = html.index(opening)
    return notices(html[start : html.rindex("</div>")])


def test_each_widget_carries_one_inside_it():
    gate = widgets.gate("g", [("A weight", 0.25)], 1, 0.01)
    predict = widgets.predict("p", "Which?", [("This", True, "Because."), ("That", False, "Not so.")])
    takeaway = widgets.takeaway("t", "One sentence.")
    rotary = rotary_widget.lab([1.0, 0.0], [0.0, 1.0], 100.0, 1, 3, [(1, 3)], 3)
    for html, opening, what in [
        (gate, '<div class="abh-gate"', "Checking your answers here"),
        (predict, '<div class="abh-predict"', "Locking in your prediction here"),
        (takeaway, '<div class="abh-takeaway"', "Writing and keeping your own takeaway here"),
        (rotary, '<div class="abh-rotary-controls"', "Moving the two positions"),
    ]:
        (found,) = inside(html, opening)
        assert found.startswith(f"{what} needs JavaScript"), html


def test_the_online_lab_carries_one():
    import numpy as np

    from macros.engine import attention

    head = attention.attend(np.eye(2), np.eye(2), np.eye(2))
    html = online_lab.online_lab(head, 0, 1, 3, "Block size:")
    (found,) = inside(html, '<div class="abh-online-lab"')
    assert found.startswith("Choosing another block size needs JavaScript")
