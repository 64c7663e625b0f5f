"""The lesson widgets in a real browser: docs/assets/js/page.js and its modules on a built site.

Widget behaviour is tested on the widget bench (tests/pages/widget-bench/), a page no
reader sees: it joins a copy of the project for this session only, so editing a lesson
never breaks these tests. The real lessons get a smoke test: each page loads with no
console error and no request to another host, shows everything without JavaScript, has no
display formula wider than its column at 1280 px, and its practice grades three sets of
numbers.

The copy is served from its folder by a small HTTP server on 127.0.0.1; one Chromium
serves the whole session (found as tests/browsers.py says) and each test borrows one of its
tabs with everything the last test's pages stored cleared (tests/tabs.py), so stored
learner state never leaks between tests. A page is used once page.js
has marked it ready (``html[data-abh-ready]``): the practice and the labs are modules it
loads only on pages that have them.

Expected numbers come from Python (macros.lessons, macros.engine,
macros.render.numbers) on the bench's own fixture, never from the page's script; the
practice answers a test types are the check's data-answer, which the tests hold to Python's.
"""

import contextlib
import dataclasses
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import pytest

from macros import lessons
from macros.engine import steps, variants
from macros.render.numbers import format_values
from tests import computed, sitebuild

pytestmark = [pytest.mark.browser, pytest.mark.build]


def expect(*args, **kwargs):
    """Playwright's expect, imported on first use: `make test-fast` collects this module
    without running it, and importing Playwright costs a fifth of a second."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(*args, **kwargs)


BENCH = Path(__file__).resolve().parent / "pages" / "widget-bench"
SLUG = BENCH.name
LESSON = sitebuild.lesson_page(SLUG)
FOLDER = f"lessons/{SLUG}/"  # the page, its notebook and its practice data
HOME = "index.html"
TIMEOUT_MS = 5000  # every wait is bounded; widgets update synchronously, so this is slack
# Loading a whole page (KaTeX fonts, figures) is not widget behaviour: on a machine busy
# with other work it can take far longer than a widget's update, so it waits longer.
NAVIGATION_TIMEOUT_MS = 60000
SOLUTION_AFTER = 3  # the book-wide rule: a worked solution opens after a right answer or 3 attempts


# ---------------------------------------------------------------- the site and the server


@pytest.fixture(scope="session")
def bench_site(tmp_path_factory):
    """The real site plus the widget bench, built as ``make build`` builds the site."""
    root = sitebuild.copy_project(tmp_path_factory.mktemp("bench"))
    sitebuild.add_lesson(root, BENCH, "Test bench")
    result = sitebuild.build(root)
    assert result.returncode == 0, result.output
    return result


@pytest.fixture(scope="session")
def server(bench_site):
    """The built copy over HTTP on 127.0.0.1 (module scripts and localStorage need an origin)."""
    with sitebuild.served(bench_site.site) as url:
        yield url


def ready(page):
    """Waits until page.js has enhanced the page, the modules it loads on demand included."""
    page.wait_for_selector("html[data-abh-ready]", state="attached", timeout=NAVIGATION_TIMEOUT_MS)
    return page


class Reader:
    """A reader at a browser tab (tests/tabs.py), recording what went wrong while it reads."""

    def __init__(self, page, base):
        self.page, self.base = page, base
        self.host = urlsplit(base).netloc
        self.errors, self.foreign, self.requests = [], [], []
        page.set_default_timeout(TIMEOUT_MS)
        page.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        self.listeners = {"request": self._request, "console": self._console, "pageerror": self._page_error}
        for event, listener in self.listeners.items():
            page.on(event, listener)

    def _request(self, request):
        self.requests.append(request)
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != self.host:
            self.foreign.append(request.url)

    def _console(self, message):
        if message.type == "error":
            self.errors.append(message.text)

    def _page_error(self, error):
        self.errors.append(str(error))

    def open(self, path=LESSON):
        response = self.page.goto(self.base + path)
        assert response is not None and response.ok, f"{path}: {response and response.status}"
        return ready(self.page)

    def reload(self):
        self.page.reload()
        return ready(self.page)

    def leave(self):
        """Stop listening: the tab goes on to another test."""
        for event, listener in self.listeners.items():
            self.page.remove_listener(event, listener)


@contextlib.contextmanager
def reading(tabs, base, **options):
    """A Reader at a tab made with the context ``options``, for the length of the block."""
    with tabs.lend(**options) as page:
        reader = Reader(page, base)
        try:
            yield reader
        finally:
            reader.leave()


@pytest.fixture
def reader(tabs, server):
    with reading(tabs, server) as reader:
        yield reader


@pytest.fixture(scope="session")
def bench(bench_site):
    """The bench computed by Python from the same sources the page was built from."""
    return lessons.load(bench_site.root / "lessons" / SLUG)


def answers(bench):
    """The gate's six answers, as tests/pages/widget-bench/lesson.md asks for them."""
    h1, h2 = bench.trace.heads
    values = [h1.scores[2][0], h1.weights[2][0], h1.output[2][0], h2.scores[2][0], h2.weights[2][1], h2.output[2][0]]
    return [float(value) for value in values]


def unseen_answer(bench):
    """The one-call check's answer: head 2's weight of position 3 on key 3."""
    return float(bench.trace.heads[1].weights[2][2])


# ---------------------------------------------------------------- helpers on the bench


def check_item(page, i):
    return page.locator("li.abh-check").nth(i)


def submit(page, i, text):
    field = check_item(page, i).locator("input.abh-answer")
    field.fill(text)
    field.press("Enter")


def result(page, i):
    return check_item(page, i).locator(".abh-result")


def attempts(page, i):
    return check_item(page, i).locator(".abh-attempts")


def status(page):
    return page.locator(".abh-gate[data-gate='six-numbers'] p.abh-status")


def prediction(page, name):
    return page.locator(f".abh-predict[data-predict='{name}']")


def lock(page, name, option):
    widget = prediction(page, name)
    widget.locator(f"input[type=radio][value='{option}']").check()
    widget.locator("button.abh-lock").click()


def reset(page):
    """Resets the lesson, answering yes to the question it asks first."""
    page.get_by_role("button", name="Reset this lesson").click()
    page.get_by_role("button", name="Yes, clear it").click()


def cell(page, r, c):
    return page.get_by_label(f"W_O row {r + 1}, column {c + 1}", exact=True)


def shown(values, places):
    return ", ".join(format_values(values, places))


def visible_text(page):
    return page.locator("body").inner_text()


def is_focused(page, selector):
    return page.evaluate(f"document.activeElement.matches({selector!r})")


# ---------------------------------------------------------------- numeric checks and the gate


def test_answers_inside_outside_and_exactly_on_the_tolerance(reader, bench):
    page = reader.open()
    tolerance = float(page.locator(".abh-gate[data-gate='six-numbers']").get_attribute("data-tolerance"))
    a = answers(bench)[0]

    cases = [
        (repr(a + tolerance / 2), "Within"),
        (repr(a + 1.5 * tolerance), "Not within"),
        (repr(a + tolerance), "Within"),  # the boundary counts, float error notwithstanding
        (repr(a + tolerance + 1e-6), "Not within"),
        (repr(a - tolerance).replace("-", "\u2212"), "Within"),
    ]
    for typed, verdict in cases:
        submit(page, 0, typed)
        expect(result(page, 0)).to_contain_text(verdict)
        if verdict == "Within":
            expect(result(page, 0)).not_to_contain_text("Not")
    expect(attempts(page, 0)).to_have_text(f"({len(cases)} attempts)")

    # A negative answer, at the far boundary, written with the typographic minus.
    negative = answers(bench)[3]
    assert negative < 0
    submit(page, 3, repr(negative - tolerance).replace("-", "\u2212"))
    expect(result(page, 3)).to_contain_text("Within")

    # A decimal comma counts when it cannot be a thousands separator; "1,376" could be either.
    submit(page, 1, f"{answers(bench)[1]:.4f}".replace(".", ","))
    expect(result(page, 1)).to_contain_text("Within")
    submit(page, 2, "1,376")
    expect(result(page, 2)).to_contain_text("comma")
    expect(attempts(page, 2)).to_have_text("")
    expect(check_item(page, 2).locator("input")).to_have_attribute("aria-invalid", "true")


def test_gate_status_reading_and_the_lesson_done_on_the_track_map(reader, bench):
    page = reader.open()
    expect(status(page)).to_have_text("0 of 6 numbers within 0.02, 5 needed. Reading: not chosen yet.")
    for i in range(4):
        submit(page, i, repr(answers(bench)[i]))
    expect(status(page)).to_have_text("4 of 6 numbers within 0.02, 5 needed. Reading: not chosen yet.")
    submit(page, 4, repr(answers(bench)[4]))
    expect(status(page)).to_have_text("5 of 6 numbers within 0.02, 5 needed. Reading: not chosen yet.")

    home = reader.open(HOME)
    expect(home.locator(f".track-lesson[data-lesson='{SLUG}'] .track-status")).to_have_text("")

    page = reader.open()
    correct = prediction(page, "why").get_attribute("data-correct")
    lock(page, "why", correct)
    expect(status(page)).to_have_text("5 of 6 numbers within 0.02, 5 needed. Reading: locked in, right. Check met.")
    home = reader.open(HOME)
    expect(home.locator(f".track-lesson[data-lesson='{SLUG}'] .track-status")).to_have_text("")  # one check to go
    page = reader.open()
    submit(page, 6, repr(unseen_answer(bench)))

    home = reader.open(HOME)
    expect(home.locator(f".track-lesson[data-lesson='{SLUG}'] .track-status")).to_have_text("done")
    expect(home.locator(".track-status", has_text="done")).to_have_count(1)

    # A wrong reading keeps the check unmet however many numbers land, until the reader,
    # having read why, chooses again: the final choice counts, and the lock-ins are recorded.
    page = reader.open()
    reset(page)
    expect(status(page)).to_have_text("0 of 6 numbers within 0.02, 5 needed. Reading: not chosen yet.")
    for i in range(6):
        submit(page, i, repr(answers(bench)[i]))
    wrong = next(o for o in ("1", "2", "3") if o != correct)
    lock(page, "why", wrong)
    expect(status(page)).to_have_text("6 of 6 numbers within 0.02, 5 needed. Reading: locked in, not right.")
    home = reader.open(HOME)
    expect(home.locator(f".track-lesson[data-lesson='{SLUG}'] .track-status")).to_have_text("")
    page = reader.open()
    lock(page, "why", correct)
    expect(status(page)).to_have_text(
        "6 of 6 numbers within 0.02, 5 needed. Reading: locked in, right (2 lock-ins). Check met."
    )
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('abh:{SLUG}'))")
    assert stored["predictions"]["why"]["tries"] == [int(wrong), int(correct)]


def test_hints_open_only_after_three_and_five_evaluated_attempts(reader):
    page = reader.open()
    first = page.locator(".abh-hints[data-attempts-of='six-numbers'] details.abh-hint[data-after='3']")
    second = page.locator(".abh-hints[data-attempts-of='six-numbers'] details.abh-hint[data-after='5']")
    is_open = lambda details: details.evaluate("d => d.open")  # noqa: E731

    for typed in ("abc", "", "1e400"):  # not numbers: shown a message, not counted
        submit(page, 0, typed)
        expect(result(page, 0)).to_contain_text("counted")
    first.locator("summary").click()
    assert not is_open(first)
    expect(first.locator("summary")).to_contain_text("Opens after 3 evaluated attempts (you have 0).")

    for _ in range(3):
        submit(page, 0, "0")  # wrong, but evaluated
    first.locator("summary").click()
    assert is_open(first)
    second.locator("summary").click()
    assert not is_open(second)
    expect(second.locator("summary")).to_contain_text("Opens after 5 evaluated attempts (you have 3).")
    second.locator("summary").press("Enter")  # the keyboard cannot open it either
    assert not is_open(second)

    submit(page, 1, "0")
    submit(page, 2, "0")  # attempts on any of the gate's checks count
    second.locator("summary").click()
    assert is_open(second)
    expect(second.locator("summary")).not_to_contain_text("Opens after")


# ---------------------------------------------------------------- predictions


def test_a_prediction_shows_its_feedback_only_after_lock_in_and_focus_moves_to_it(reader):
    page = reader.open()
    comparison = page.locator("[data-reveal-after='predict']")
    widget = prediction(page, "predict")
    feedback = widget.locator("[data-predict-feedback]")
    note = page.locator(".abh-reveal-note").first  # the first prediction's: its display comes first
    expect(comparison).to_be_hidden()
    expect(feedback).to_be_hidden()
    expect(note).to_be_visible()

    widget.get_by_role("button", name="Lock in").click()
    expect(widget.locator(".abh-predict-notice")).to_have_text("Choose one of the options first.")
    expect(feedback).to_be_hidden()
    correct = widget.get_attribute("data-correct")
    wrong = next(o for o in ("1", "2", "3") if o != correct)
    widget.locator(f"input[value='{wrong}']").check()
    expect(comparison).to_be_hidden()  # choosing is not locking in
    expect(feedback).to_be_hidden()

    widget.get_by_role("button", name="Lock in").click()
    expect(feedback).to_be_visible()
    expect(comparison).to_be_visible()  # a wrong prediction never blocks the way on
    expect(note).to_be_hidden()
    verdict = feedback.locator(".abh-verdict")
    reason = widget.locator(f"li[data-option='{wrong}'] .abh-reason").text_content().strip()
    expect(verdict).to_contain_text(f"Locked in: not right. {reason}")
    assert is_focused(page, ".abh-predict[data-predict='predict'] [data-predict-feedback] .abh-verdict")
    for other in ("1", "2", "3"):  # the other reasons stay folded away: one of them says which is right
        if other != wrong:
            expect(widget.locator(f"li[data-option='{other}']")).to_be_hidden()

    # The trap is gone: after a wrong lock-in the reader may choose again.
    for radio in widget.locator("input[type=radio]").all():
        expect(radio).to_be_enabled()
    widget.locator(f"input[value='{correct}']").check()
    widget.get_by_role("button", name="Lock in another answer").click()
    expect(verdict).to_contain_text("Locked in: right.")
    assert is_focused(page, ".abh-predict[data-predict='predict'] .abh-verdict")
    expect(widget.locator(f"li[data-option='{wrong}']")).to_be_visible()  # now every reason shows
    for radio in widget.locator("input[type=radio]").all():
        expect(radio).to_be_disabled()
    expect(widget.get_by_role("button", name="Locked in")).to_be_disabled()

    reader.reload()
    expect(feedback).to_be_visible()
    expect(widget.locator(f"input[value='{correct}']")).to_be_checked()
    expect(verdict).to_contain_text("Locked in: right.")


def test_enter_on_a_radio_locks_the_prediction_in(reader):
    page = reader.open()
    widget = prediction(page, "predict")
    widget.locator("input[value='1']").check()
    widget.locator("input[value='1']").press("Enter")
    expect(widget.locator("[data-predict-feedback]")).to_be_visible()
    assert is_focused(page, ".abh-predict[data-predict='predict'] .abh-verdict")


# ---------------------------------------------------------------- the W_O lab


def w_o_lab(page):
    return page.locator(".abh-lab[data-lab='output-projection']")


def test_editing_w_o_shows_the_numbers_numpy_computes(reader, bench):
    lesson = bench
    places = lesson.decimals
    page = reader.open()
    output = page.locator("[data-bind='output.0']")
    concat = page.locator("[data-bind='concat.0']")
    expect(output).to_have_text(shown(lesson.trace.output[0], places))

    for W_O, typed in [
        ([[0.5, -1.25], [2.0, 0.75]], [["0.5", "\u22121.25"], ["2", "0,75"]]),
        ([[0.0, 0.0], [0.0, 0.0]], [["0", "0"], ["0", "0"]]),  # a whole group reads as integers
        ([[1e-9, 3.0], [-7.0, 0.1]], [["1e-9", "3"], ["-7", ".1"]]),
    ]:
        for r in range(2):
            for c in range(2):
                cell(page, r, c).fill(typed[r][c])
        expected = steps.output_projection(lesson.trace.concat, np.array(W_O))[0]
        expect(output).to_have_text(shown(expected, places))
        expect(concat).to_have_text(shown(lesson.trace.concat[0], places))
    assert float(w_o_lab(page).get_attribute("data-recompute-ms")) >= 0

    w_o_lab(page).locator(".abh-lab-reset").click()
    expect(cell(page, 0, 0)).to_have_value("1")
    expect(cell(page, 0, 1)).to_have_value("0")
    expect(output).to_have_text(shown(lesson.trace.output[0], places))


def test_a_projection_edit_redraws_heat_maps_as_numpy_computes_them(reader, bench):
    """Figures inside a lab: cell texts grouped per map as the build groups them, shades, rows."""
    lesson = bench
    places = lesson.decimals
    W_Q = np.array([[-1.0], [0.25]])
    heads = (lesson.fixture.heads[0], dataclasses.replace(lesson.fixture.heads[1], W_Q=W_Q))
    computed = dataclasses.replace(lesson.fixture, heads=heads).run()
    assert not np.allclose(computed.heads[1].weights, lesson.trace.heads[1].weights)

    page = reader.open()
    for r, row in enumerate(W_Q):
        for c, value in enumerate(row):
            page.get_by_label(f"W_Q of head 2 row {r + 1}, column {c + 1}", exact=True).fill(repr(float(value)))
    lab = page.locator(".abh-lab[data-lab='projections']")
    expect(lab).to_have_attribute("data-recompute-ms", re.compile(r"^\d"))
    assert lab.locator(".abh-lab-message").is_hidden()
    checked = 0
    for bound in lab.locator("[data-bind]").all():
        path = bound.get_attribute("data-bind").split(".")
        if path[0] == "average":  # the head-averaged map, computed in the browser
            path, weights = ["average", "", "", *path[1:]], variants.head_average(computed)
        else:
            assert path[0] == "heads" and path[2] == "weights", path
            weights = computed.heads[int(path[1])].weights
        if len(path) == 5:  # a heat-map cell: the build formats the whole map as one group
            r, c = int(path[3]), int(path[4])
            expected = format_values(weights, places)[r * weights.shape[1] + c]
            shade = lab.locator(f"rect[data-heat='{bound.get_attribute('data-bind')}']")
            expect(shade).to_have_attribute("fill-opacity", f"{weights[r, c]:.4f}")
        else:  # a bound row
            expected = shown(weights[int(path[3])], places)
        expect(bound).to_have_text(expected)
        checked += 1
    assert checked >= 8
    # The maps' "Show the numbers" tables are bound too (data-group), so none needs a stale note.
    assert lab.locator("table [data-group]").count() >= 6
    assert lab.locator(".abh-stale-note").count() == 0


def test_bad_cell_input_names_the_cell_and_keeps_the_last_good_numbers(reader, bench):
    # The overflow below needs a first concatenated row whose entries, times 1e308, stay
    # finite one by one and overflow added up (the bench's fixture says which numbers).
    first, second = bench.trace.concat[0]
    with np.errstate(over="ignore"):
        assert np.isfinite(first * 1e308) and not np.isfinite(first * 1e308 + second * 1e308)
    page = reader.open()
    output = page.locator("[data-bind='output.0']")
    message = w_o_lab(page).locator(".abh-lab-message")
    cell(page, 0, 1).fill("0.5")
    good = output.inner_text()

    for typed, problem in [
        ("", "is empty"),
        ("abc", "is not a number"),
        ("1e400", "is too large"),
        ("NaN", "is not a number"),
    ]:
        cell(page, 0, 0).fill(typed)
        expect(message).to_be_visible()
        expect(message).to_contain_text(f"W_O row 1, column 1 {problem}")
        expect(cell(page, 0, 0)).to_have_attribute("aria-invalid", "true")
        expect(output).to_have_text(good)
        text = visible_text(page)
        assert "NaN" not in text and "Infinity" not in text and "undefined" not in text

    # Finite entries whose product overflows: refused as the build refuses such a fixture.
    cell(page, 0, 0).fill("1e308")  # huge, and still finite: shown, as the build would show it
    expect(message).to_be_hidden()
    huge = output.inner_text()
    cell(page, 1, 0).fill("1e308")  # 1.2e308 + 0.9e308 is beyond float64
    expect(message).to_contain_text("the layer's output would be too large to compute")
    expect(output).to_have_text(huge)
    assert "Infinity" not in visible_text(page)

    cell(page, 0, 0).fill("1")
    cell(page, 1, 0).fill("0")
    expect(message).to_be_hidden()
    expect(cell(page, 0, 0)).to_have_attribute("aria-invalid", "false")
    expect(output).to_have_text(good)  # the same W_O as before the bad entries, the same output


# ---------------------------------------------------------------- stored state, takeaway and reset


LEAVE = "localStorage.setItem('left', '1'); sessionStorage.setItem('left', '1'); document.cookie = 'left=1; path=/'"
LEFT_BEHIND = "[localStorage.getItem('left'), sessionStorage.getItem('left'), document.cookie]"


@pytest.mark.parametrize("where", ["served", "from disk"])
def test_a_tab_lent_again_remembers_nothing(tabs, server, bench_site, where):
    """The tests share browser tabs (tests/tabs.py), so the next test's reader must meet none
    of what the last one stored, though leaving the page alone would keep it. (Chromium keeps
    no cookie for a page on disk.)"""
    base = server if where == "served" else bench_site.site.as_uri() + "/"
    cookie = "left=1" if where == "served" else ""
    with tabs.lend() as page:
        page.goto(base + LESSON)
        ready(page)
        page.evaluate(LEAVE)
        page.goto("about:blank")
        page.goto(base + "sitemap.xml")  # the origin again, with no script of the book's
        assert page.evaluate(LEFT_BEHIND) == ["1", "1", cookie]
        lent = page
    with tabs.lend() as page:
        assert page is lent and page.url == "about:blank"  # the same tab, lent again
        page.goto(base + "sitemap.xml")
        assert page.evaluate(LEFT_BEHIND) == [None, None, ""]
        assert page.evaluate("localStorage.length + sessionStorage.length") == 0  # nor the theme's


def test_state_survives_a_reload_and_reset_clears_it(reader, bench):
    page = reader.open()
    initial_output = page.locator("[data-bind='output.0']").inner_text()
    submit(page, 0, repr(answers(bench)[0]))
    submit(page, 1, "0")
    check_item(page, 2).locator("input").fill("1.3")  # typed, not checked
    lock(page, "predict", "3")
    page.locator(".abh-takeaway textarea").fill("Each head has its own softmax.")
    page.get_by_role("button", name="Save my takeaway").click()
    cell(page, 0, 1).fill("0.5")
    edited_output = page.locator("[data-bind='output.0']").inner_text()
    assert edited_output != initial_output

    reader.reload()
    expect(check_item(page, 0).locator("input")).to_have_value(repr(answers(bench)[0]))
    expect(result(page, 0)).to_contain_text("Within")
    expect(result(page, 1)).to_contain_text("Not within")
    expect(attempts(page, 1)).to_have_text("(1 attempt)")
    expect(check_item(page, 2).locator("input")).to_have_value("1.3")
    expect(status(page)).to_have_text("1 of 6 numbers within 0.02, 5 needed. Reading: not chosen yet.")
    predict = prediction(page, "predict")
    expect(predict.locator("input[value='3']")).to_be_checked()
    expect(predict.locator("[data-predict-feedback]")).to_be_visible()
    expect(page.locator("[data-reveal-after='predict']")).to_be_visible()
    expect(page.locator(".abh-takeaway textarea")).to_have_value("Each head has its own softmax.")
    expect(page.locator(".abh-takeaway-book")).to_be_visible()
    expect(cell(page, 0, 1)).to_have_value("0.5")
    expect(page.locator("[data-bind='output.0']")).to_have_text(edited_output)

    reset(page)
    for loaded in (page, None):
        if loaded is None:
            reader.reload()
        expect(check_item(page, 0).locator("input")).to_have_value("")
        expect(result(page, 0)).to_have_text("")
        expect(attempts(page, 1)).to_have_text("")
        expect(status(page)).to_have_text("0 of 6 numbers within 0.02, 5 needed. Reading: not chosen yet.")
        expect(predict.locator("input[value='3']")).not_to_be_checked()
        expect(predict.locator("input[value='3']")).to_be_enabled()
        expect(predict.locator("[data-predict-feedback]")).to_be_hidden()
        expect(page.locator("[data-reveal-after='predict']")).to_be_hidden()
        expect(page.locator(".abh-takeaway textarea")).to_have_value("")
        expect(page.locator(".abh-takeaway-book")).to_be_hidden()
        expect(cell(page, 0, 1)).to_have_value("0")
        expect(page.locator("[data-bind='output.0']")).to_have_text(initial_output)


def test_reset_asks_first_and_keeping_the_work_changes_nothing(reader, bench):
    page = reader.open()
    submit(page, 0, repr(answers(bench)[0]))
    button = page.get_by_role("button", name="Reset this lesson")
    button.click()
    question = page.locator(".abh-reset-confirm")
    expect(question).to_be_visible()
    expect(question).to_contain_text("Clear every answer")
    keep = page.get_by_role("button", name="Keep it")
    assert is_focused(page, ".abh-reset-no")  # the safe answer has focus
    keep.click()
    expect(question).to_be_hidden()
    assert is_focused(page, ".abh-reset")
    expect(result(page, 0)).to_contain_text("Within")

    button.click()
    page.keyboard.press("Escape")  # Escape keeps the work too
    expect(question).to_be_hidden()
    expect(result(page, 0)).to_contain_text("Within")
    reader.reload()
    expect(result(page, 0)).to_contain_text("Within")

    reset(page)
    expect(result(page, 0)).to_have_text("")
    expect(check_item(page, 0).locator("input")).to_have_value("")


def test_the_takeaway_box_starts_empty_and_the_books_shows_once_the_readers_is_saved(reader):
    page = reader.open()
    box = page.locator(".abh-takeaway textarea")
    book = page.locator(".abh-takeaway-book")
    expect(box).to_have_value("")
    expect(book).to_be_hidden()
    assert "A default takeaway to edit." not in visible_text(page)

    page.get_by_role("button", name="Save my takeaway").click()  # nothing written: nothing shown
    expect(page.locator(".abh-takeaway-notice")).to_contain_text("Write your takeaway first")
    expect(book).to_be_hidden()

    box.fill("Two softmaxes are not one.")
    expect(book).to_be_hidden()  # typing is not saving
    reader.reload()
    expect(box).to_have_value("Two softmaxes are not one.")  # kept as a draft
    expect(book).to_be_hidden()
    page.get_by_role("button", name="Save my takeaway").click()
    expect(book).to_be_visible()
    expect(book).to_contain_text("A default takeaway to edit.")
    assert is_focused(page, ".abh-takeaway-book")
    reader.reload()
    expect(book).to_be_visible()


# ---------------------------------------------------------------- folded work, the why box, one-call checks


def test_folded_work_opens_after_the_first_attempt_and_stays_open(reader, bench):
    page = reader.open()
    folded = page.locator(".abh-fold[data-fold-until='six-numbers']")
    scores = shown(bench.trace.heads[0].scores[2], bench.decimals)
    expect(folded).to_be_hidden()
    expect(page.locator(".abh-fold-note")).to_be_visible()
    assert scores not in visible_text(page)
    submit(page, 0, "abc")  # not a number: not an attempt
    expect(folded).to_be_hidden()
    submit(page, 0, "0")  # wrong, but an evaluated attempt
    expect(folded).to_be_visible()
    expect(folded).to_contain_text(scores)
    reader.reload()
    expect(folded).to_be_visible()


def test_the_why_line_is_kept_as_text_and_cleared_by_reset(reader):
    page = reader.open()
    line = page.locator(".abh-why[data-why='predict'] input.abh-why-text")
    typed = "<b>bold</b> & the softmaxes differ"
    line.fill(typed)
    reader.reload()
    expect(line).to_have_value(typed)
    assert page.locator(".abh-why b").count() == 0  # shown back as text, never as markup
    reset(page)
    expect(line).to_have_value("")


def test_a_one_call_check_grades_and_opens_its_hints_one_attempt_at_a_time(reader, bench):
    page = reader.open()
    ladder = page.locator(".abh-hints[data-attempts-of='unseen'] details.abh-hint")
    expect(ladder).to_have_count(3)  # two hints and the worked solution
    expect(ladder.nth(0).locator("summary")).to_contain_text("Opens after 1 evaluated attempt")
    submit(page, 6, "0")
    expect(result(page, 6)).to_contain_text("Not within")
    expect(ladder.nth(0).locator("summary")).not_to_contain_text("Opens after")
    expect(ladder.nth(2).locator("summary")).to_contain_text(
        "Opens after 3 evaluated attempts or a right answer (you have 1)."
    )
    submit(page, 6, repr(unseen_answer(bench)))
    expect(result(page, 6)).to_contain_text("Within")
    assert check_item(page, 6).get_attribute("data-check") == "unseen-1"
    assert float(check_item(page, 6).get_attribute("data-answer")) == unseen_answer(bench)


def test_a_worked_solution_opens_after_a_right_answer_or_three_attempts_never_from_the_start(reader, bench):
    """The book-wide rule; the known fault was a right second answer still told 'you have 2'."""
    page = reader.open()
    solution = page.locator(".abh-hints[data-attempts-of='unseen'] details[data-solution]")
    assert solution.get_attribute("data-after") == str(SOLUTION_AFTER)
    second_hint = page.locator(".abh-hints[data-attempts-of='unseen'] details.abh-hint").nth(1)
    solution.locator("summary").click()
    expect(solution).not_to_have_attribute("open", "")
    submit(page, 6, "0")
    submit(page, 6, repr(unseen_answer(bench)))  # right, on the second attempt
    expect(solution.locator("summary")).not_to_contain_text("Opens after")
    solution.locator("summary").click()
    expect(solution).to_have_attribute("open", "")
    expect(second_hint.locator("summary")).not_to_contain_text("Opens after")
    submit(page, 6, "0")  # a later wrong answer does not fold it away again
    expect(solution.locator("summary")).not_to_contain_text("Opens after")

    reset(page)
    for count in range(1, SOLUTION_AFTER + 1):
        expect(solution.locator("summary")).to_contain_text(f"(you have {count - 1})")
        submit(page, 6, "abc")  # not a number: not counted
        submit(page, 6, "0")
    expect(solution.locator("summary")).not_to_contain_text("Opens after")


# ---------------------------------------------------------------- the real pages: a smoke test


def attempt(page, gate, times=1, position=1):
    """Wrong answers at a gate's check ``position`` (from 1): each one an evaluated attempt."""
    field = page.locator(f".abh-gate[data-gate='{gate}'] li.abh-check:nth-child({position}) input.abh-answer")
    for _ in range(times):
        field.fill("0")
        field.press("Enter")


def uncover(page, element):
    """Opens what keeps ``element`` hidden: worked content folded until a first attempt at a
    gate, a hint that opens after attempts at one, content waiting for a prediction's lock-in."""
    for folded in element.locator("xpath=ancestor-or-self::*[@data-fold-until]").all():
        if folded.is_hidden():  # until a first attempt, or until each listed question has had its attempts
            gate, listed = folded.get_attribute("data-fold-until"), folded.get_attribute("data-fold-checks")
            for position in map(int, listed.split()) if listed else [1]:
                attempt(page, gate, SOLUTION_AFTER if listed else 1, position)
    hint = element.locator("xpath=ancestor::details[@data-after][1]")
    if hint.count() and not hint.evaluate("d => d.open"):
        gate = hint.locator("xpath=ancestor::*[@data-attempts-of][1]").get_attribute("data-attempts-of")
        attempt(page, gate, int(hint.get_attribute("data-after")))
        hint.locator("summary").first.click()
    waiting = element.locator("xpath=ancestor-or-self::*[@data-reveal-after][1]")
    if waiting.count() and waiting.is_hidden():
        widget = prediction(page, waiting.get_attribute("data-reveal-after"))
        widget.locator("input[type=radio]").first.check()
        widget.locator("button.abh-lock").click()
    expect(element).to_be_visible()


# ---------------------------------------------------------------- keyboard


def focus_ring(page):
    return page.evaluate("getComputedStyle(document.activeElement).outlineStyle")


def test_keyboard_alone_checks_an_answer_and_locks_in_predictions(reader, bench):
    page = reader.open()
    # Clicking plain text sets where sequential focus navigation starts: the next Tab goes on from there.
    page.get_by_text("Compute these yourself").click()
    page.keyboard.press("Tab")
    assert is_focused(page, "li.abh-check:first-child input.abh-answer")
    assert focus_ring(page) != "none"
    page.keyboard.type(repr(answers(bench)[0]))
    page.keyboard.press("Enter")
    expect(result(page, 0)).to_contain_text("Within")

    why = prediction(page, "why")
    why.locator(".abh-question").click()
    page.keyboard.press("Tab")
    assert is_focused(page, ".abh-predict[data-predict='why'] input[type=radio]")
    for key in ("ArrowDown", "ArrowDown", "ArrowUp"):
        page.keyboard.press(key)
    expect(why.locator("input[value='2']")).to_be_checked()
    page.keyboard.press("Tab")
    assert is_focused(page, ".abh-predict[data-predict='why'] button.abh-lock")
    assert focus_ring(page) != "none"
    page.keyboard.press("Space")
    expect(why.locator(".abh-verdict")).to_contain_text("Locked in")
    assert is_focused(page, ".abh-predict[data-predict='why'] .abh-verdict")
    assert focus_ring(page) != "none"
    expect(why.locator("input[value='2']")).to_be_enabled()  # not right: the reader may choose again

    predict = prediction(page, "predict")
    predict.locator(".abh-question").click()
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # Enter on a radio locks it in
    expect(predict.locator("input[value='3']")).to_be_checked()
    expect(page.locator("[data-reveal-after='predict']")).to_be_visible()
    assert is_focused(page, ".abh-predict[data-predict='predict'] .abh-verdict")


def tab_to(page, selector, limit=400):
    """Presses Tab until the focused element matches ``selector``; fails after ``limit`` presses."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if is_focused(page, selector):
            return
    raise AssertionError(f"{limit} presses of Tab never reached {selector}")


def test_keyboard_alone_on_a_real_lesson(reader):
    """two-heads-of-dimension-one with the keyboard only, from the top of the page: Tab to the
    prediction's radios, arrows, Space on Lock in, and focus lands on the feedback; Tab on to a
    check, type, Enter."""
    slug = "two-heads-of-dimension-one"
    lesson = computed.lesson(slug)
    page = reader.open(sitebuild.lesson_page(slug))
    predict = prediction(page, "predict")
    correct = int(predict.get_attribute("data-correct"))
    tab_to(page, ".abh-predict[data-predict='predict'] input[type=radio]")
    assert focus_ring(page) != "none"
    for _ in range(correct - 1):
        page.keyboard.press("ArrowDown")
    expect(predict.locator(f"input[value='{correct}']")).to_be_checked()
    page.keyboard.press("Tab")
    assert is_focused(page, ".abh-predict[data-predict='predict'] button.abh-lock")
    page.keyboard.press("Space")
    assert is_focused(page, ".abh-predict[data-predict='predict'] [data-predict-feedback] .abh-verdict")
    expect(predict.locator(".abh-verdict")).to_contain_text("Locked in: right.")

    first = ".abh-gate[data-gate='six-numbers'] li.abh-check:first-child input.abh-answer"
    tab_to(page, first)
    assert focus_ring(page) != "none"
    page.keyboard.type(repr(float(lesson.trace.heads[0].scores[0][0])))
    page.keyboard.press("Enter")
    expect(page.locator(first).locator("xpath=ancestor::li[1]").locator(".abh-result")).to_contain_text("Within")
    assert not reader.errors, reader.errors


# ---------------------------------------------------------------- without JavaScript

# The widgets whose controls the script adds: each says so with scripts off (macros/render/noscript.py).
INTERACTIVE = (
    ".abh-gate",
    ".abh-predict",
    ".abh-takeaway",
    ".abh-practice",
    ".abh-lab",
    ".abh-rotary",
    ".abh-online-lab",
)


# Visible as Playwright means it: a non-empty box and no ``visibility: hidden``.
VISIBLE_JS = """e => { const box = e.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && getComputedStyle(e).visibility !== 'hidden'; }"""
# Each interactive widget on the page: its kind, whether it shows, and its notices (shown, text).
WIDGETS_JS = f"""kinds => {{
  const visible = {VISIBLE_JS};
  return kinds.flatMap(kind => [...document.querySelectorAll(`article ${{kind}}`)].map(widget => ({{
    kind, shown: visible(widget),
    notices: [...widget.querySelectorAll('.abh-noscript')].map(n => [visible(n), n.textContent]),
  }})));
}}"""


def says_it_needs_scripts(page):
    """Every interactive widget on the page shows, where its controls would be, that they need
    JavaScript and how to get them (a widget in a folded block shows it once opened); returns
    the kinds of widget seen. With scripts off nothing changes once the page has loaded, so the
    page is read once."""
    seen = set()
    for widget in page.evaluate(WIDGETS_JS, list(INTERACTIVE)):
        assert len(widget["notices"]) == 1, widget
        ((shown, text),) = widget["notices"]
        assert shown or not widget["shown"], widget
        text = " ".join(text.split())
        assert "needs JavaScript, which is off in this browser." in text and "python -m http.server" in text, widget
        seen.add(widget["kind"])
    return seen


@contextlib.contextmanager
def without_scripts(tabs, url):
    """The page at ``url`` in a tab that runs no script."""
    with tabs.lend(java_script_enabled=False) as page:
        page.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        page.goto(url)
        yield page


def test_from_a_folder_with_scripts_off_each_widget_says_how_to_get_it(tabs, bench_site):
    """Opened from disk in a browser that runs no script, the bench's widgets keep their content
    and each tells the reader why its controls are missing and how to get them."""
    with without_scripts(tabs, bench_site.site.as_uri() + "/" + LESSON) as page:
        assert page.url.startswith("file://")
        seen = says_it_needs_scripts(page)
        assert seen == {".abh-gate", ".abh-predict", ".abh-takeaway", ".abh-practice", ".abh-lab"}
        assert page.locator("article input:not([type=radio]), article button").count() == 0


def test_without_javascript_the_bench_shows_everything(tabs, server, bench):
    with without_scripts(tabs, server + LESSON) as page:
        assert page.locator("svg.abh-figure").count() == 4  # the bars and three heat maps
        expect(page.locator(".abh-fold")).to_be_visible()  # folded work shows without the script
        expect(page.locator("[data-reveal-after='predict']")).to_be_visible()
        expect(page.locator("[data-bind='output.0']")).to_have_text(shown(bench.trace.output[0], bench.decimals))
        hints = page.locator(".abh-hints[data-attempts-of='six-numbers']").text_content()
        for answer in answers(bench):  # the numbers the checks ask for are all on the page, in the hints
            assert format_values([answer], bench.decimals)[0] in hints
        assert "Lock in" not in visible_text(page)
        expect(page.locator(".abh-takeaway")).to_contain_text("A default takeaway to edit.")
        assert page.locator("article input:not([type=radio]), article textarea").count() == 0


# ---------------------------------------------------------------- practice on new numbers
#
# Expected sets come from Python (the lesson's Practice, macros/practice/build.py), never from
# the page's script; the answers typed are the checks' data-answer, held to Python's.


def practice(page):
    return page.locator(".abh-practice")


def practice_check(page, i=0):
    return practice(page).locator("li.abh-practice-check").nth(i)


def practice_submit(page, text, i=0):
    field = practice_check(page, i).locator("input.abh-answer")
    field.fill(text)
    field.press("Enter")


def practice_result(page, i=0):
    return practice_check(page, i).locator(".abh-result")


def shown_fixture(page):
    return json.loads(practice(page).get_attribute("data-fixture"))


def shown_answer(page, i=0):
    return float(practice_check(page, i).get_attribute("data-answer"))


def read_as_shown(text):
    """A practice text as the page shows it: a symbol's subscript is a <sub>, so W_O reads WO
    (macros/render/practice.py, marked)."""
    return re.sub(r"(?<![A-Za-z0-9_])([A-Za-zθ])_([A-Za-z0-9]+)", r"\1\2", text)


def test_practice_the_same_variant_gives_the_same_numbers_and_new_numbers_moves_on(reader, bench):
    sets = bench.practice.variants
    page = reader.open(LESSON + "?variant=7")
    expect(practice(page)).to_have_attribute("data-variant", "7")
    expect(practice(page).locator(".abh-practice-title")).to_have_text("New numbers: set 7 of 8.")
    assert shown_fixture(page) == sets[7].fixture
    assert [shown_answer(page, i) for i in range(2)] == list(sets[7].answers)
    first_row = practice(page).locator(".abh-practice-inputs table").first.locator("tr").first.inner_text()
    assert first_row.split() == format_values(sets[7].fixture["X"][0], bench.decimals)
    reader.reload()
    assert shown_fixture(page) == sets[7].fixture
    page.get_by_role("button", name="New numbers").click()
    expect(practice(page)).to_have_attribute("data-variant", "8")
    assert page.url.endswith("?variant=8")
    assert shown_fixture(page) == sets[8].fixture != sets[7].fixture
    assert [shown_answer(page, i) for i in range(2)] == list(sets[8].answers)
    page.get_by_role("button", name="New numbers").click()  # after the last set, the first again
    expect(practice(page)).to_have_attribute("data-variant", "1")
    page.get_by_role("button", name="The lesson's numbers").click()
    expect(practice(page)).to_have_attribute("data-variant", "0")
    assert page.url.endswith("?variant=0")
    assert shown_fixture(page) == bench.plain_fixture == sets[0].fixture
    # Without an address the page shows the set it was built with, set 1: new numbers.
    page.goto(reader.base + LESSON)
    ready(page)
    expect(practice(page)).to_have_attribute("data-variant", "1")
    assert [shown_answer(page, i) for i in range(2)] == list(sets[1].answers)
    assert not reader.errors, reader.errors


def test_practice_data_loads_on_first_use_by_a_script_element(reader):
    page = reader.open()
    data = [r for r in reader.requests if r.url.endswith(f"{FOLDER}practice.js")]
    assert data == []  # set 1 is on the page: nothing to load yet
    page.get_by_role("button", name="New numbers").click()
    expect(practice(page)).to_have_attribute("data-variant", "2")
    data = [r for r in reader.requests if r.url.endswith(f"{FOLDER}practice.js")]
    assert [r.resource_type for r in data] == ["script"]  # a classic script: it loads from disk too
    page.get_by_role("button", name="New numbers").click()
    expect(practice(page)).to_have_attribute("data-variant", "3")
    assert len([r for r in reader.requests if r.url.endswith(f"{FOLDER}practice.js")]) == 1


def test_practice_answers_right_wrong_on_the_boundary_and_out_of_range(reader, bench):
    page = reader.open(LESSON + "?variant=5")
    answer = shown_answer(page)
    assert answer == bench.practice.variants[5].answers[0]
    tolerance = float(practice_check(page).get_attribute("data-tolerance"))
    practice_submit(page, repr(answer))
    expect(practice_result(page)).to_have_text(f"✓ Within {tolerance:g}: it counts.")
    practice_submit(page, repr(answer + 3 * tolerance))
    expect(practice_result(page)).to_have_text(f"✗ Not within {tolerance:g}.")
    boundary = answer - tolerance if answer - tolerance >= 0 else answer + tolerance
    practice_submit(page, repr(boundary))
    expect(practice_result(page)).to_have_text(f"✓ Within {tolerance:g}: it counts.")
    expect(practice_check(page).locator(".abh-attempts")).to_have_text("(3 attempts)")
    # A weight lies between 0 and 1: outside that, the answer is refused with the reason, not counted.
    for typed in ("\u22120.5", "1.5"):
        practice_submit(page, typed)
        expect(practice_result(page)).to_have_text("Not counted: a weight lies between 0 and 1.")
        expect(practice_check(page).locator("input")).to_have_attribute("aria-invalid", "true")
    expect(practice_check(page).locator(".abh-attempts")).to_have_text("(3 attempts)")
    # The second question, a reading, has no range: a negative number is graded.
    assert practice_check(page, 1).get_attribute("data-low") is None
    practice_submit(page, "-0.5", 1)
    expect(practice_result(page, 1)).to_contain_text("within")
    assert not reader.errors, reader.errors


def test_practice_worked_solution_opens_after_a_right_answer_or_three_attempts(reader, bench):
    page = reader.open(LESSON + "?variant=3")
    solution = practice_check(page).locator("details.abh-practice-solution")
    summary = solution.locator("summary")
    expect(summary).to_contain_text("Opens after 3 evaluated attempts or a right answer (you have 0).")
    summary.click()
    expect(solution).not_to_have_attribute("open", "")
    for count in range(1, SOLUTION_AFTER + 1):
        practice_submit(page, "0.9999" if shown_answer(page) < 0.5 else "0")  # wrong, in range
        practice_submit(page, "-1")  # refused: not counted
        summary.click()
        if count < SOLUTION_AFTER:
            expect(solution).not_to_have_attribute("open", "")
            expect(summary).to_contain_text(f"(you have {count})")
        else:
            expect(solution).to_have_attribute("open", "")
    # This set's solution: its lines are the build's for set 3.
    lines = solution.locator("li")
    expect(lines).to_have_count(len(bench.practice.variants[3].solutions[0]))
    expect(lines).to_have_text([read_as_shown(line) for line in bench.practice.variants[3].solutions[0]])

    # The second question: a right first answer opens it at once.
    other = practice_check(page, 1).locator("details.abh-practice-solution")
    practice_submit(page, repr(shown_answer(page, 1)), 1)
    expect(other.locator("summary")).not_to_contain_text("Opens after")
    other.locator("summary").click()
    expect(other).to_have_attribute("open", "")
    assert not reader.errors, reader.errors


def test_practice_state_is_kept_per_variant_survives_a_reload_and_reset_clears_it(reader):
    page = reader.open(LESSON + "?variant=4")
    practice_submit(page, "0.5")
    expect(practice_check(page).locator(".abh-attempts")).to_have_text("(1 attempt)")
    reader.reload()
    expect(practice_check(page).locator("input.abh-answer")).to_have_value("0.5")
    expect(practice_check(page).locator(".abh-attempts")).to_have_text("(1 attempt)")
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('abh:{SLUG}'))")
    assert stored["practice"]["4"][0]["attempts"] == 1
    page.get_by_role("button", name="New numbers").click()  # set 5: nothing tried there yet
    expect(practice(page)).to_have_attribute("data-variant", "5")
    expect(practice_check(page).locator(".abh-attempts")).to_have_text("")
    expect(practice_check(page).locator("input.abh-answer")).to_have_value("")
    page.goto(reader.base + LESSON + "?variant=4")
    ready(page)
    expect(practice_check(page).locator(".abh-attempts")).to_have_text("(1 attempt)")
    reset(page)
    expect(practice_check(page).locator(".abh-attempts")).to_have_text("")
    reader.reload()
    expect(practice_check(page).locator("input.abh-answer")).to_have_value("")
    expect(practice_check(page).locator(".abh-attempts")).to_have_text("")
    assert not reader.errors, reader.errors


def test_practice_a_set_outside_the_range_gives_a_notice(reader):
    page = reader.open(LESSON + "?variant=9")  # the bench ships sets 1 to 8
    expect(practice(page)).to_have_attribute("data-variant", "1")
    notice = practice(page).locator(".abh-practice-notice")
    expect(notice).to_be_visible()
    expect(notice).to_have_text(
        "There is no set 9 of numbers here: the sets go from 0 (the lesson's own) to 8. These are the numbers of set 1."
    )
    page.get_by_role("button", name="New numbers").click()
    expect(notice).to_be_hidden()


@pytest.mark.parametrize(
    "value", ["-1", "1e9", "1.5", "<script>alert(1)</script>", "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"]
)
def test_practice_a_hostile_variant_in_the_address_falls_back_with_a_notice(reader, value):
    page = reader.open(LESSON + "?variant=" + value)
    expect(practice(page)).to_have_attribute("data-variant", "1")
    notice = practice(page).locator(".abh-practice-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("the sets go from 0 (the lesson's own) to 8")
    assert page.locator("article img[src='x'], article script:not([type])").count() == 0
    assert not reader.errors, reader.errors


def test_practice_hostile_typed_text_is_shown_as_text(reader):
    hostile = '<img src=x onerror="window.__hostile = 1">'
    page = reader.open(LESSON + "?variant=2")
    practice_submit(page, hostile)
    expect(practice_result(page)).to_contain_text("That is not a number")
    page.locator(".abh-takeaway textarea").fill(hostile)
    page.get_by_role("button", name="Save my takeaway").click()
    submit(page, 0, hostile)
    reader.reload()
    expect(practice_check(page).locator("input.abh-answer")).to_have_value(hostile)
    expect(page.locator(".abh-takeaway textarea")).to_have_value(hostile)
    expect(check_item(page, 0).locator("input")).to_have_value(hostile)
    assert page.locator("article img[src='x']").count() == 0
    assert page.evaluate("window.__hostile") is None
    assert not reader.errors, reader.errors


# ---------------------------------------------------------------- the rotary lab


def test_rotary_lab_moves_both_positions_and_the_score_stays_put(reader):
    """docs/assets/js/rotary-lab.js on its lesson page; expected numbers from numpy (positions.py)."""
    from macros.engine import positions

    lesson = computed.lesson("rotary-by-hand")
    x, base = lesson.trace.heads[0], lesson.fixture.positions["base"]
    q, k, a, b = (
        x.Q_projected[0],
        x.K_projected[1],
        lesson.fixture.params["q_position"],
        lesson.fixture.params["k_position"],
    )

    def expected(m, n):
        return format_values([positions.rotary_score(q, k, m, n, base)], lesson.decimals)[0]

    page = reader.open(sitebuild.lesson_page("rotary-by-hand"))
    lab = page.locator(".abh-rotary")
    uncover(page, lab)  # it shows what settles the lesson's prediction, so it waits for a lock-in
    score = lab.locator("[data-role='score']")
    expect(score).to_have_text(expected(a, b))
    lab.get_by_role("button", name="Both forward by one").click()
    expect(lab.locator("[data-role='q-position']")).to_have_text(str(a + 1))
    expect(lab.locator("[data-role='k-position']")).to_have_text(str(b + 1))
    expect(score).to_have_text(expected(a + 1, b + 1))
    assert expected(a + 1, b + 1) == expected(a, b)
    lab.locator("input[type='range']").nth(1).fill(str(b + 3))
    expect(lab.locator("[data-role='offset']")).to_have_text(str(b - a + 2))
    expect(score).to_have_text(expected(a + 1, b + 3))
    assert expected(a + 1, b + 3) != expected(a, b)
    lab.get_by_role("button", name="Both back by one").click()
    expect(score).to_have_text(expected(a, b + 2))
    assert not reader.errors, reader.errors


# ---------------------------------------------------------------- the online-softmax lab


def test_the_online_lab_redraws_the_blocks_numpy_computes_and_keeps_the_reading(reader, bench_site):
    from macros.render import online_lab

    lesson = lessons.load(bench_site.root / "lessons" / "online-softmax")
    head, places = lesson.trace.heads[0], lesson.decimals
    page = reader.open(sitebuild.lesson_page("online-softmax"))
    lab = page.locator(".abh-online-lab")
    row = int(lab.get_attribute("data-row"))
    for block_size in (3, 1, 6):
        lab.locator("select.abh-block-size").select_option(str(block_size))
        rows, reading = online_lab.block_rows(head, row, block_size, places)
        expect(lab.locator("tbody tr")).to_have_count(len(rows))
        for r, cells in enumerate(rows):
            expect(lab.locator("tbody tr").nth(r).locator("td")).to_have_text(cells)
        expect(lab.locator(".abh-online-reading")).to_have_text(reading)
    assert reading == online_lab.block_rows(head, row, lesson.fixture.generation.block_size, places)[1]
    assert reader.errors == []
