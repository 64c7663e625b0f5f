"""The lesson widgets in a real browser: docs/assets/js/widgets.js on a built site.

Widget behaviour is tested on the widget bench (tests/pages/widget-bench/), a page no
reader sees: it joins a copy of the project for this session only, so editing a lesson
never breaks these tests. The real lessons get a smoke test: each page loads with no
console error and no request to another host, and shows everything without JavaScript.

The copy is served from its folder by a small HTTP server on 127.0.0.1; one Chromium
serves the whole session (found as tests/browsers.py says) and each test gets a fresh
context, so stored learner state never leaks between tests.

Expected numbers come from Python (macros.lessons, macros.engine,
macros.render.numbers) on the bench's own fixture, never from the page's script.
"""

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
from tests import sitebuild

pytestmark = [pytest.mark.browser, pytest.mark.build]


def expect(*args, **kwargs):
    """Playwright's expect, imported on first use: `make test-fast` collects this module
    without running it, and importing Playwright costs a fifth of a second."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(*args, **kwargs)


BENCH = Path(__file__).resolve().parent / "pages" / "widget-bench"
SLUG = BENCH.name
LESSON = f"lessons/{SLUG}/"
TIMEOUT_MS = 5000  # every wait is bounded; widgets update synchronously, so this is slack
# Loading a whole page (KaTeX fonts, figures) is not widget behaviour: on a machine busy
# with other work it can take far longer than a widget's update, so it waits longer.
NAVIGATION_TIMEOUT_MS = 60000


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


class Reader:
    """One browser context (its own localStorage) with a page, recording what went wrong."""

    def __init__(self, context, base):
        self.context, self.base = context, base
        self.host = urlsplit(base).netloc
        self.errors, self.foreign = [], []
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        context.on("request", self._request)
        self.page = context.new_page()
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _request(self, request):
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != self.host:
            self.foreign.append(request.url)

    def open(self, path=LESSON):
        response = self.page.goto(self.base + path)
        assert response is not None and response.ok, f"{path}: {response and response.status}"
        return self.page


@pytest.fixture
def reader(browser, server):
    context = browser.new_context()
    yield Reader(context, server)
    context.close()


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


def lock(page, choice, option):
    widget = page.locator(f".abh-choice[data-choice='{choice}']")
    widget.locator(f"input[type=radio][value='{option}']").check()
    widget.get_by_role("button", name="Lock in").click()


def cell(page, r, c):
    return page.get_by_label(f"W_O row {r + 1}, column {c + 1}", exact=True)


def shown(values, places):
    return ", ".join(format_values(values, places))


def visible_text(page):
    return page.locator("body").inner_text()


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

    home = reader.open("")
    expect(home.locator(f".track-lesson[data-lesson='{SLUG}'] .track-status")).to_have_text("")

    page = reader.open()
    correct = page.locator(".abh-choice[data-choice='why']").get_attribute("data-correct")
    lock(page, "why", correct)
    expect(status(page)).to_have_text("5 of 6 numbers within 0.02, 5 needed. Reading: locked in, right. Check met.")
    home = reader.open("")
    expect(home.locator(f".track-lesson[data-lesson='{SLUG}'] .track-status")).to_have_text("")  # one check to go
    page = reader.open()
    submit(page, 6, repr(unseen_answer(bench)))

    home = reader.open("")
    expect(home.locator(f".track-lesson[data-lesson='{SLUG}'] .track-status")).to_have_text("done")
    expect(home.locator(".track-status", has_text="done")).to_have_count(1)

    # A wrong reading keeps the check unmet however many numbers land, and the lesson not done.
    page = reader.open()
    page.get_by_role("button", name="Reset this lesson").click()
    expect(status(page)).to_have_text("0 of 6 numbers within 0.02, 5 needed. Reading: not chosen yet.")
    for i in range(6):
        submit(page, i, repr(answers(bench)[i]))
    wrong = next(o for o in ("1", "2", "3") if o != correct)
    lock(page, "why", wrong)
    expect(status(page)).to_have_text("6 of 6 numbers within 0.02, 5 needed. Reading: locked in, not right.")
    home = reader.open("")
    expect(home.locator(f".track-lesson[data-lesson='{SLUG}'] .track-status")).to_have_text("")


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


def test_the_prediction_is_locked_in_before_the_comparison_shows(reader):
    page = reader.open()
    comparison = page.locator("[data-reveal-after='predict']")
    choice = page.locator(".abh-choice[data-choice='predict']")
    expect(comparison).to_be_hidden()
    expect(page.locator(".abh-reveal-note")).to_be_visible()

    choice.get_by_role("button", name="Lock in").click()
    expect(choice.locator(".abh-feedback")).to_have_text("Choose one of the options first.")
    choice.locator("input[value='1']").check()
    expect(comparison).to_be_hidden()  # choosing is not locking in

    choice.get_by_role("button", name="Lock in").click()
    expect(comparison).to_be_visible()
    expect(page.locator(".abh-reveal-note")).to_be_hidden()
    correct = choice.get_attribute("data-correct")
    verdict = "right" if correct == "1" else "not right"
    feedback = choice.locator("li[data-option='1']").get_attribute("data-feedback")
    expect(choice.locator(".abh-feedback")).to_have_text(f"Locked in: {verdict}. {feedback}")
    for radio in choice.locator("input[type=radio]").all():
        expect(radio).to_be_disabled()
    expect(choice.get_by_role("button", name="Locked in")).to_be_disabled()


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


# ---------------------------------------------------------------- stored state


def test_state_survives_a_reload_and_reset_clears_it(reader, bench):
    page = reader.open()
    default_takeaway = page.locator(".abh-takeaway textarea").input_value()
    initial_output = page.locator("[data-bind='output.0']").inner_text()
    submit(page, 0, repr(answers(bench)[0]))
    submit(page, 1, "0")
    check_item(page, 2).locator("input").fill("1.3")  # typed, not checked
    lock(page, "predict", "3")
    page.locator(".abh-takeaway textarea").fill("Each head has its own softmax.")
    cell(page, 0, 1).fill("0.5")
    edited_output = page.locator("[data-bind='output.0']").inner_text()
    assert edited_output != initial_output

    page.reload()
    expect(check_item(page, 0).locator("input")).to_have_value(repr(answers(bench)[0]))
    expect(result(page, 0)).to_contain_text("Within")
    expect(result(page, 1)).to_contain_text("Not within")
    expect(attempts(page, 1)).to_have_text("(1 attempt)")
    expect(check_item(page, 2).locator("input")).to_have_value("1.3")
    expect(status(page)).to_have_text("1 of 6 numbers within 0.02, 5 needed. Reading: not chosen yet.")
    predict = page.locator(".abh-choice[data-choice='predict']")
    expect(predict.locator("input[value='3']")).to_be_checked()
    expect(predict.locator("input[value='3']")).to_be_disabled()
    expect(page.locator("[data-reveal-after='predict']")).to_be_visible()
    expect(page.locator(".abh-takeaway textarea")).to_have_value("Each head has its own softmax.")
    expect(cell(page, 0, 1)).to_have_value("0.5")
    expect(page.locator("[data-bind='output.0']")).to_have_text(edited_output)

    page.get_by_role("button", name="Reset this lesson").click()
    for loaded in (page, None):
        if loaded is None:
            page.reload()
        expect(check_item(page, 0).locator("input")).to_have_value("")
        expect(result(page, 0)).to_have_text("")
        expect(attempts(page, 1)).to_have_text("")
        expect(status(page)).to_have_text("0 of 6 numbers within 0.02, 5 needed. Reading: not chosen yet.")
        expect(predict.locator("input[value='3']")).not_to_be_checked()
        expect(predict.locator("input[value='3']")).to_be_enabled()
        expect(page.locator("[data-reveal-after='predict']")).to_be_hidden()
        expect(page.locator(".abh-takeaway textarea")).to_have_value(default_takeaway)
        expect(cell(page, 0, 1)).to_have_value("0")
        expect(page.locator("[data-bind='output.0']")).to_have_text(initial_output)


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
    page.reload()
    expect(folded).to_be_visible()


def test_the_why_line_is_kept_as_text_and_cleared_by_reset(reader):
    page = reader.open()
    line = page.locator(".abh-why[data-why='predict'] input.abh-why-text")
    typed = "<b>bold</b> & the softmaxes differ"
    line.fill(typed)
    page.reload()
    expect(line).to_have_value(typed)
    assert page.locator(".abh-why b").count() == 0  # shown back as text, never as markup
    page.get_by_role("button", name="Reset this lesson").click()
    expect(line).to_have_value("")


def test_a_one_call_check_grades_and_opens_its_hints_one_attempt_at_a_time(reader, bench):
    page = reader.open()
    ladder = page.locator(".abh-hints[data-attempts-of='unseen'] details.abh-hint")
    expect(ladder).to_have_count(3)  # two hints and the worked solution
    expect(ladder.nth(0).locator("summary")).to_contain_text("Opens after 1 evaluated attempt")
    submit(page, 6, "0")
    expect(result(page, 6)).to_contain_text("Not within")
    expect(ladder.nth(0).locator("summary")).not_to_contain_text("Opens after")
    expect(ladder.nth(2).locator("summary")).to_contain_text("Opens after 3 evaluated attempts (you have 1).")
    submit(page, 6, repr(unseen_answer(bench)))
    expect(result(page, 6)).to_contain_text("Within")
    assert check_item(page, 6).get_attribute("data-check") == "unseen-1"
    assert float(check_item(page, 6).get_attribute("data-answer")) == unseen_answer(bench)


# ---------------------------------------------------------------- the real pages: a smoke test

REAL_PAGES = ["", *(f"lessons/{folder.name}/" for folder in lessons.folders(sitebuild.PROJECT / "lessons"))]


@pytest.mark.parametrize("path", REAL_PAGES)
def test_a_real_page_loads_with_no_console_error_and_no_request_to_another_host(reader, path):
    page = reader.open(path)
    page.wait_for_load_state("load")
    # Exercise each lab once: recomputing must not throw or show a broken number.
    for lab in page.locator(".abh-lab").all():
        lab.locator(".abh-cell").first.fill("0.5")
        expect(lab.locator(".abh-lab-message")).to_be_hidden()
    # Numbers only: prose may name NaN (the masks lesson explains where it comes from).
    text = " ".join(page.locator("td, .katex, svg text, [data-bind]").all_text_contents())
    assert "NaN" not in text and "Infinity" not in text and "undefined" not in text
    assert not reader.errors, reader.errors
    assert not reader.foreign, reader.foreign


@pytest.mark.parametrize("path", REAL_PAGES[1:])
def test_a_real_lesson_shows_everything_without_javascript(browser, server, path):
    context = browser.new_context(java_script_enabled=False)
    context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(server + path)
        for hidden_until_chosen in page.locator("[data-reveal-after], .abh-fold").all():
            expect(hidden_until_chosen).to_be_visible()
        empty = "all => all.filter(e => !/[0-9]/.test(e.textContent)).map(e => e.dataset.bind)"
        assert page.eval_on_selector_all("article [data-bind]", empty) == []
        # A lab shows its bound numbers without the script ("abh-label", a gate's label, is no lab).
        assert page.locator("article [data-bind]").count() > 0 or page.locator("article .abh-lab").count() == 0
        assert page.locator("article input, article textarea").count() == 0
        assert "Lock in" not in visible_text(page)
    finally:
        context.close()


# ---------------------------------------------------------------- keyboard


def is_focused(page, selector):
    return page.evaluate(f"document.activeElement.matches({selector!r})")


def focus_ring(page):
    return page.evaluate("getComputedStyle(document.activeElement).outlineStyle")


def test_keyboard_alone_checks_an_answer_and_locks_in_choices(reader, bench):
    page = reader.open()
    # Clicking plain text sets where sequential focus navigation starts: the next Tab goes on from there.
    page.get_by_text("Compute these yourself").click()
    page.keyboard.press("Tab")
    assert is_focused(page, "li.abh-check:first-child input.abh-answer")
    assert focus_ring(page) != "none"
    page.keyboard.type(repr(answers(bench)[0]))
    page.keyboard.press("Enter")
    expect(result(page, 0)).to_contain_text("Within")

    why = page.locator(".abh-choice[data-choice='why']")
    why.locator(".abh-question").click()
    page.keyboard.press("Tab")
    assert is_focused(page, ".abh-choice[data-choice='why'] input[type=radio]")
    for key in ("ArrowDown", "ArrowDown", "ArrowUp"):
        page.keyboard.press(key)
    expect(why.locator("input[value='2']")).to_be_checked()
    page.keyboard.press("Tab")
    assert is_focused(page, ".abh-choice[data-choice='why'] button.abh-lock")
    assert focus_ring(page) != "none"
    page.keyboard.press("Space")
    expect(why.locator(".abh-feedback")).to_contain_text("Locked in")
    expect(why.locator("input[value='2']")).to_be_disabled()

    predict = page.locator(".abh-choice[data-choice='predict']")
    predict.locator(".abh-question").click()
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(predict.locator("input[value='3']")).to_be_checked()
    expect(page.locator("[data-reveal-after='predict']")).to_be_visible()


# ---------------------------------------------------------------- without JavaScript


def test_without_javascript_the_bench_shows_everything(browser, server, bench):
    context = browser.new_context(java_script_enabled=False)
    context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(server + LESSON)
        assert page.locator("svg.abh-figure").count() == 4  # the bars and three heat maps
        expect(page.locator(".abh-fold")).to_be_visible()  # folded work shows without the script
        expect(page.locator("[data-reveal-after='predict']")).to_be_visible()
        expect(page.locator("[data-bind='output.0']")).to_have_text(shown(bench.trace.output[0], bench.decimals))
        hints = page.locator(".abh-hints[data-attempts-of='six-numbers']").text_content()
        for answer in answers(bench):  # the numbers the checks ask for are all on the page, in the hints
            assert format_values([answer], bench.decimals)[0] in hints
        assert "Lock in" not in visible_text(page)
        assert page.locator("article input, article textarea").count() == 0
    finally:
        context.close()


# ---------------------------------------------------------------- practice on new numbers
#
# Expected numbers are drawn by Python (macros/practice/generator.py) from the bench's own
# practice block and computed by numpy; never read from the page's script.


def practice_spec(root):
    from macros.sources import practice_key

    return practice_key.read(root / "lessons" / SLUG / "fixture.yaml")


def drawn(root, number):
    """(fixture, answer) of variant ``number`` of the bench, drawn in Python."""
    from macros.practice import generator

    spec, base = practice_spec(root)
    fixture, trace = generator.variant(spec, base, number, "variant.yaml")
    return fixture, generator.answers(spec, trace)[0]


def practice(page):
    return page.locator(".abh-practice")


def practice_submit(page, text):
    field = practice(page).locator("input.abh-answer")
    field.fill(text)
    field.press("Enter")


def practice_result(page):
    return practice(page).locator(".abh-result")


def shown_fixture(page):
    return json.loads(practice(page).get_attribute("data-fixture"))


def test_practice_the_same_variant_gives_the_same_numbers_and_two_variants_differ(reader, bench_site, bench):
    page = reader.open(LESSON + "?variant=7")
    expect(practice(page)).to_have_attribute("data-variant", "7")
    seven = shown_fixture(page)
    assert seven == drawn(bench_site.root, 7)[0]
    page.reload()
    assert shown_fixture(page) == seven
    page.get_by_role("button", name="New numbers").click()
    expect(practice(page)).to_have_attribute("data-variant", "8")
    assert page.url.endswith("?variant=8")
    assert shown_fixture(page) == drawn(bench_site.root, 8)[0] != seven
    answer = float(practice(page).locator("li.abh-practice-check").get_attribute("data-answer"))
    assert answer == pytest.approx(drawn(bench_site.root, 8)[1], abs=1e-12)
    page.goto(reader.base + LESSON)
    expect(practice(page)).to_have_attribute("data-variant", "0")
    assert shown_fixture(page) == bench.plain_fixture
    assert not reader.errors, reader.errors


def test_practice_answers_right_wrong_and_on_the_boundary(reader, bench_site):
    answer = drawn(bench_site.root, 5)[1]  # tolerance 0.02, the bench's practice block
    page = reader.open(LESSON + "?variant=5")
    practice_submit(page, repr(answer))
    expect(practice_result(page)).to_have_text("✓ Within 0.02: it counts.")
    practice_submit(page, repr(answer + 0.03))
    expect(practice_result(page)).to_have_text("✗ Not within 0.02.")
    practice_submit(page, repr(answer - 0.02))
    expect(practice_result(page)).to_have_text("✓ Within 0.02: it counts.")
    expect(practice(page).locator(".abh-attempts")).to_have_text("(3 attempts)")
    assert not reader.errors, reader.errors


def test_practice_hints_and_the_worked_solution_follow_the_attempts(reader, bench_site, bench):
    spec, base = practice_spec(bench_site.root)
    from macros.practice import generator

    _, trace = generator.variant(spec, base, 3, "variant.yaml")
    page = reader.open(LESSON + "?variant=3")
    hints = practice(page).locator("details.abh-practice-hint")
    solution = practice(page).locator("details.abh-practice-solution")
    expect(hints).to_have_count(2)
    # The bench's own hints open after 3 and 5 attempts; the practice hints follow the same ladder.
    assert [hints.nth(i).get_attribute("data-after") for i in range(2)] == ["3", "5"]
    solution.locator("summary").click()
    expect(solution).not_to_have_attribute("open", "")
    for count in range(1, 6):
        practice_submit(page, "9")
        opened = [count >= 3, count >= 5]
        for i, is_open in enumerate(opened):
            hints.nth(i).locator("summary").click()
            if is_open:
                expect(hints.nth(i)).to_have_attribute("open", "")
                hints.nth(i).locator("summary").click()
            else:
                expect(hints.nth(i)).not_to_have_attribute("open", "")
    solution.locator("summary").click()
    expect(solution).to_have_attribute("open", "")
    weights = trace["heads"][1]["weights"][2]
    table = solution.locator("table").inner_text()
    for weight in weights:  # the step table is this variant's, as numpy computes it
        assert format_values([weight], bench.decimals)[0] in table
    assert not reader.errors, reader.errors


def test_practice_state_is_kept_per_variant_survives_a_reload_and_reset_clears_it(reader, bench_site):
    page = reader.open(LESSON + "?variant=4")
    practice_submit(page, "0.5")
    expect(practice(page).locator(".abh-attempts")).to_have_text("(1 attempt)")
    page.reload()
    expect(practice(page).locator("input.abh-answer")).to_have_value("0.5")
    expect(practice(page).locator(".abh-attempts")).to_have_text("(1 attempt)")
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('abh:{SLUG}'))")
    assert stored["practice"]["4"][0]["attempts"] == 1
    page.get_by_role("button", name="New numbers").click()  # variant 5: nothing tried there yet
    expect(practice(page).locator(".abh-attempts")).to_have_text("")
    expect(practice(page).locator("input.abh-answer")).to_have_value("")
    page.goto(reader.base + LESSON + "?variant=4")
    expect(practice(page).locator(".abh-attempts")).to_have_text("(1 attempt)")
    page.get_by_role("button", name="Reset this lesson").click()
    expect(practice(page).locator(".abh-attempts")).to_have_text("")
    page.reload()
    expect(practice(page).locator("input.abh-answer")).to_have_value("")
    expect(practice(page).locator(".abh-attempts")).to_have_text("")
    assert not reader.errors, reader.errors


@pytest.mark.parametrize(
    "value", ["-1", "1e9", "1001", "<script>alert(1)</script>", "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"]
)
def test_practice_a_hostile_variant_in_the_address_falls_back_with_a_notice(reader, value):
    page = reader.open(LESSON + "?variant=" + value)
    expect(practice(page)).to_have_attribute("data-variant", "0")
    notice = practice(page).locator(".abh-practice-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("not a whole number from 0 to 1000")
    assert page.locator("article img[src='x'], article script:not([type])").count() == 0
    assert not reader.errors, reader.errors


def test_practice_hostile_typed_text_is_shown_as_text(reader):
    hostile = '<img src=x onerror="window.__hostile = 1">'
    page = reader.open(LESSON + "?variant=2")
    practice_submit(page, hostile)
    expect(practice_result(page)).to_contain_text("That is not a number")
    page.locator(".abh-takeaway textarea").fill(hostile)
    submit(page, 0, hostile)
    page.reload()
    expect(practice(page).locator("input.abh-answer")).to_have_value(hostile)
    expect(page.locator(".abh-takeaway textarea")).to_have_value(hostile)
    expect(check_item(page, 0).locator("input")).to_have_value(hostile)
    assert page.locator("article img[src='x']").count() == 0
    assert page.evaluate("window.__hostile") is None
    assert not reader.errors, reader.errors


def test_practice_on_a_real_lesson_grades_a_drawn_variant(reader):
    from macros.practice import generator
    from macros.sources import practice_key

    slug = "tracing-two-heads"
    spec, base = practice_key.read(sitebuild.PROJECT / "lessons" / slug / "fixture.yaml")
    fixture, trace = generator.variant(spec, base, 17, "variant.yaml")
    answer = generator.answers(spec, trace)[0]
    page = reader.open(f"lessons/{slug}/?variant=17")
    expect(practice(page)).to_have_attribute("data-variant", "17")
    assert shown_fixture(page) == fixture
    practice_submit(page, repr(answer))
    expect(practice_result(page)).to_contain_text("Within")
    practice_submit(page, repr(answer + 1))
    expect(practice_result(page)).to_contain_text("Not within")
    assert not reader.errors, reader.errors
    assert not reader.foreign, reader.foreign


# ---------------------------------------------------------------- the rotary lab


def test_rotary_lab_moves_both_positions_and_the_score_stays_put(reader):
    """docs/assets/js/rotary-lab.js on its lesson page; expected numbers from numpy (positions.py)."""
    from macros.engine import positions

    lesson = lessons.load(sitebuild.PROJECT / "lessons" / "rotary-by-hand")
    x, base = lesson.trace.heads[0], lesson.fixture.positions["base"]
    q, k, a, b = (
        x.Q_projected[0],
        x.K_projected[1],
        lesson.fixture.params["q_position"],
        lesson.fixture.params["k_position"],
    )

    def expected(m, n):
        return format_values([positions.rotary_score(q, k, m, n, base)], lesson.decimals)[0]

    page = reader.open("lessons/rotary-by-hand/")
    lab = page.locator(".abh-rotary")
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
    page = reader.open("lessons/online-softmax/")
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
