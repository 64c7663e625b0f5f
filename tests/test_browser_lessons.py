"""Every real page of the book in Chromium, one visit per page and way of reading it: the
page loads with no console error and no request to another host, its labs recompute, every
display formula fits its column at 1280 px, and its practice grades three sets of numbers;
with scripts off it still shows everything it can.

Every prediction of every lesson is locked in wrong, once for each wrong option, then right,
in the same visit: before the lock-in what settles it is folded; no feedback after a wrong
one names the right option; after the right one each option's reason shows once.

These sweeps read the session's build of the real site (the ``site`` fixture), not the
widget bench of tests/test_browser.py, so they can run in a process of their own.
"""

import re

import pytest

from macros import lessons
from macros.render.numbers import format_values
from tests import computed, sitebuild
from tests.test_browser import (
    HOME,
    SOLUTION_AFTER,
    VISIBLE_JS,
    attempt,
    expect,
    practice,
    practice_check,
    practice_result,
    practice_submit,
    read_as_shown,
    reading,
    says_it_needs_scripts,
    shown_answer,
    shown_fixture,
    uncover,
    visible_text,
    without_scripts,
)

pytestmark = pytest.mark.browser

REAL_PAGES = [HOME, *(sitebuild.lesson_page(folder.name) for folder in lessons.folders(sitebuild.PROJECT / "lessons"))]
REAL_LESSONS = REAL_PAGES[1:]


@pytest.fixture
def reader(tabs, served_site):
    """A reader at 1280 × 900 px, the width at which no formula may scroll sideways."""
    with reading(tabs, served_site, viewport={"width": 1280, "height": 900}) as reader:
        yield reader


@pytest.mark.parametrize("path", REAL_PAGES)
def test_a_real_page_loads_cleanly_its_labs_recompute_and_its_practice_grades(reader, path):
    page = reader.open(path)
    page.wait_for_load_state("load")
    formulas_fit_their_column(page, path)
    for widget in page.locator(".abh-predict").all():
        locked_wrong_then_right(page, widget)
    # Exercise each lab once: recomputing must not throw or show a broken number.
    for lab in page.locator(".abh-lab").all():
        uncover(page, lab)
        lab.locator(".abh-cell").first.fill("0.5")
        expect(lab.locator(".abh-lab-message")).to_be_hidden()
    # Numbers only: prose may name NaN (the masks lesson explains where it comes from).
    text = " ".join(page.locator("td, .katex, svg text, [data-bind]").all_text_contents())
    assert "NaN" not in text and "Infinity" not in text and "undefined" not in text
    assert not reader.errors, reader.errors
    assert not reader.foreign, reader.foreign
    # The page's script is the one bundle, a classic script (no module is requested); no page
    # asks for the practice data before its first use.
    ours = sorted(r.url.removeprefix(reader.base) for r in reader.requests if "/assets/js/" in r.url)
    assert ours == ["assets/js/book.js"], ours
    assert [r.resource_type for r in reader.requests if r.url.endswith("/book.js")] == ["script"]
    assert not [r.url for r in reader.requests if r.url.endswith("/practice.js")]
    slug = path.split("/")[1] if path.startswith("lessons/") else None
    if slug in computed.WITH_PRACTICE:
        practice_grades_three_sets(page, slug)
        assert not reader.errors, reader.errors
        assert not reader.foreign, reader.foreign


def words(text):
    return " ".join(text.split())


def label(option):
    """What a reader calls an option: its text up to the first colon, without quotes or a final
    full stop (the author guide, section 6), written here apart from the build's own rule."""
    return option.split(":")[0].strip().rstrip(".").strip("“”\"' ")


def names(text, option):
    return re.search(rf"(?<!\w){re.escape(label(option))}(?!\w)", text, re.IGNORECASE) is not None


# A lock-in as the page's script sees one (the radio's click, then Lock in's: their handlers run
# before click() returns), then one read: the verdict, the feedback's visible text, and whether
# each part the prediction settles shows. One call per lock-in: the sweep does some eighty of
# them, and Playwright's check() and click() each wait for the element to be stable and
# visible first; the widget bench (tests/test_browser.py) locks in by mouse and keyboard.
LOCK_IN_JS = f"""([widget, name, option]) => {{
  if (option !== null) {{
    widget.querySelector(`input[type=radio][value="${{option}}"]`).click();
    widget.querySelector('button.abh-lock').click();
  }}
  const visible = {VISIBLE_JS}, feedback = widget.querySelector('[data-predict-feedback]');
  return {{
    verdict: widget.querySelector('.abh-verdict')?.textContent ?? '',
    shown: visible(feedback) ? feedback.innerText : '',  // innerText of a hidden element is all its text
    settles: [...document.querySelectorAll(`[data-reveal-after="${{name}}"]`)].map(visible),
  }};
}}"""
ITEMS_JS = """widget => [...widget.querySelectorAll('li[data-option]')].map(item => [item.dataset.option,
  item.querySelector('.abh-option-text').textContent, item.querySelector('.abh-reason').textContent])"""


def test_the_sweeps_reading_of_a_label_can_fail():
    """The control for the sweep's check on feedback: it finds a label as a reader would."""
    assert names("No. The dot product favours key 1; additive scoring, KEY 2.", "Key 2")
    assert names("so the largest weight goes to “cat”.", "“cat”") and label("“cat”") == "cat"
    assert label("Three: the tiles whose keys all come after all of their queries") == "Three"
    assert not names("It favours key 21.", "Key 2") and not names("the monkey 2", "Key 2")


def locked_wrong_then_right(page, widget):
    """One prediction, each wrong option locked in first, then the right one."""
    name, correct = widget.get_attribute("data-predict"), widget.get_attribute("data-correct")
    uncover(page, widget)  # a prediction inside another's folded display (two-heads-of-dimension-one)
    lock_in = lambda option: page.evaluate(LOCK_IN_JS, [widget.element_handle(), name, option])  # noqa: E731
    before = lock_in(None)
    assert before["settles"] and not any(before["settles"]), f"{name}: what settles it is not folded: {before}"
    assert not before["shown"].strip(), f"{name}: feedback shows before a lock-in"
    items = {option: (words(text), words(reason)) for option, text, reason in widget.evaluate(ITEMS_JS)}
    answer = items[correct][0]
    for option in [option for option in items if option != correct] + [correct]:
        now = lock_in(option)
        shown, verdict = words(now["shown"]), words(now["verdict"])
        assert all(now["settles"]), f"{name}: still folded after a lock-in"  # a wrong one never blocks the way on
        if option != correct:
            assert verdict.startswith(f"Locked in: not right. {items[option][1]}"), verdict
            assert not names(shown, answer), f"{name}: after option {option}, the feedback names “{label(answer)}”"
    assert verdict.startswith("Locked in: right."), verdict
    for option, (text, reason) in items.items():
        assert shown.count(reason) == 1, f"{name}: option {option}'s reason shows {shown.count(reason)} times"
        assert option == correct or text in shown, f"{name}: option {option} is not listed"


def formulas_fit_their_column(page, path):
    """At 1280 px every display formula fits its column, in both schemes' fonts alike."""
    page.evaluate("document.fonts.ready")
    wide = page.eval_on_selector_all(
        ".math-display",
        "all => all.filter(d => d.scrollWidth > d.clientWidth)"
        ".map(d => [d.scrollWidth - d.clientWidth, d.textContent.slice(0, 60)])",
    )
    assert wide == [], f"{path}: formulas wider than their column at 1280 px (px over, text): {wide}"


PHONE = {"width": 390, "height": 844}
# Displays wider than a 390 px screen, book-wide: 152 before formulas written side by side were
# set as rows that wrap (macros/render/math_rows.py), 17 after; the bound is a third of the 135
# counted on the book's first 23 lessons.
MOST_WIDE_ON_A_PHONE = 45


def test_on_a_phone_formulas_stack_and_the_few_wide_ones_scroll(tabs, served_site):
    """At 390 px each display fits its column or scrolls inside its own container, whose edge
    shadows say there is more; few are wider than the screen at all."""
    wide = {}
    with reading(tabs, served_site, viewport=PHONE) as reader:
        for path in REAL_LESSONS:
            page = reader.open(path)
            page.evaluate("document.fonts.ready")
            wide[path] = page.eval_on_selector_all(
                ".math-display",
                "all => all.filter(d => d.scrollWidth > d.clientWidth).map(d => [getComputedStyle(d).overflowX,"
                " getComputedStyle(d).backgroundImage.includes('gradient'), d.textContent.slice(0, 40)])",
            )
    cut = {path: found for path, found in wide.items() if any(o != "auto" or not shadow for o, shadow, _ in found)}
    assert cut == {}, f"cut at 390 px without a scroll container and its shadows: {cut}"
    counts = {path: len(found) for path, found in wide.items() if found}
    assert sum(counts.values()) <= MOST_WIDE_ON_A_PHONE, counts


@pytest.mark.parametrize("path", REAL_LESSONS)
def test_a_real_lesson_shows_everything_without_javascript(tabs, served_site, path):
    with without_scripts(tabs, served_site + path) as page:
        hidden = page.eval_on_selector_all(
            "[data-reveal-after], .abh-fold",
            f"all => all.filter(e => !({VISIBLE_JS})(e)).map(e => e.outerHTML.slice(0, 80))",
        )
        assert hidden == [], hidden  # what the script keeps until a choice shows without it
        empty = "all => all.filter(e => !/[0-9]/.test(e.textContent)).map(e => e.dataset.bind)"
        assert page.eval_on_selector_all("article [data-bind]", empty) == []
        # A lab shows its bound numbers without the script ("abh-label", a gate's label, is no lab).
        assert page.locator("article [data-bind]").count() > 0 or page.locator("article .abh-lab").count() == 0
        # Only a prediction's options are inputs in the HTML itself; the rest is the script's.
        assert page.locator("article input:not([type=radio]), article textarea").count() == 0
        assert "Lock in" not in visible_text(page)
        takeaways = page.locator(".abh-takeaway").all_inner_texts()
        assert all(text.strip() for text in takeaways), takeaways  # the book's takeaway shows
        says_it_needs_scripts(page)


def off_by(answer):
    """An answer off by the larger of 0.05 and 10%: wrong for every tolerance the book uses."""
    return answer + max(0.05, 0.1 * abs(answer))


# One question of the shown set answered as a reader would, in one call: a wrong answer (its
# result read, its worked solution tried and found shut), then the right one (result read, the
# solution opened and its lines read). The form's submit and the summary's click run their
# handlers before this returns.
ANSWER_JS = f"""([i, wrong, right]) => {{
  const item = document.querySelectorAll('.abh-practice li.abh-practice-check')[i];
  const input = item.querySelector('input.abh-answer'), form = item.querySelector('form');
  const details = item.querySelector('details.abh-practice-solution');
  const visible = {VISIBLE_JS};
  const read = () => item.querySelector('.abh-result').textContent;
  const found = {{label: item.querySelector('label').textContent, path: item.dataset.path}};
  if (wrong !== null) {{
    input.value = wrong; form.requestSubmit(); found.wrong = read();
    details.querySelector('summary').click(); found.openAfterWrong = details.open;
  }}
  input.value = right; form.requestSubmit(); found.right = read();
  if (!details.open) details.querySelector('summary').click();
  found.open = details.open && visible(details.querySelector('ol'));
  found.lines = [...details.querySelectorAll('ol > li')].map(li => li.textContent);
  return found;
}}"""


def wrong_for(q, answer):
    """A wrong answer the quantity's range accepts, so that it counts as an attempt: off by the
    larger of 0.05 and 10% (a whole number off by at least 1), on the side the range allows."""
    off = max(1, round(0.1 * abs(answer))) if q.whole else max(0.05, 0.1 * abs(answer))
    return answer + off if q.high is None or answer + off <= q.high else answer - off


def practice_grades_three_sets(page, slug):
    """Sets 1 (the page's, as built), 2 and 3 (the reader's "New numbers", from the practice
    data) and 0 ("The lesson's numbers") show numpy's numbers and their own questions, which
    take the lesson's kinds in turn. On sets 1 to 3 each question is answered wrong (an attempt,
    not accepted, its worked solution still shut), then right; the worked solution then opens
    and its last step shows the value asked, as the page formats it. On set 1, an answer off
    by max(0.05, 10%) and one out of the quantity's range are tried too. The grading code is
    the same for every set and lesson; tests/test_browser.py tries it at its boundaries."""
    lesson = computed.lesson(slug)
    practice_of = lesson.practice
    for number, button in ((1, None), (2, "New numbers"), (3, "New numbers"), (0, "The lesson's numbers")):
        if button:
            page.get_by_role("button", name=button).click()
        expect(practice(page)).to_have_attribute("data-variant", str(number))
        variant = practice_of.variants[number]
        assert shown_fixture(page) == variant.fixture
        expect(practice(page).locator("li.abh-practice-check")).to_have_count(len(variant.questions))
        for i, q in enumerate(variant.questions):
            answer = shown_answer(page, i)
            assert answer == q.answer
            wrong = repr(wrong_for(q.quantity, answer)) if number else None
            found = page.evaluate(ANSWER_JS, [i, wrong, repr(answer)])
            assert (found["path"], found["label"]) == (q.path, read_as_shown(q.quantity.label) + ".")
            if number:
                assert "✗" in found["wrong"] and not found["openAfterWrong"], found
            assert "✓" in found["right"] and found["open"], found
            assert found["lines"] == [read_as_shown(line) for line in q.solution]
            shown = f"{round(answer):,}" if q.quantity.whole else format_values([answer], lesson.decimals)[0]
            assert shown in found["lines"][-1], (shown, found["lines"][-1])
            if number == 1:
                wrong_answers_are_not_counted_as_right(page, i, q.quantity, answer)


def wrong_answers_are_not_counted_as_right(page, i, q, answer):
    """After the right answer: one off by max(0.05, 10%) is wrong, or refused with the reason
    when it leaves the quantity's range; a weight's −0.5 is refused; refusals are not counted."""
    off = off_by(answer)
    practice_submit(page, repr(off), i)
    expect(practice_result(page, i)).not_to_contain_text("✓")
    refused = (q.whole and not off.is_integer()) or (q.high is not None and off > q.high)
    if refused:
        expect(practice_result(page, i)).to_have_text(f"Not counted: {q.why}.")
    if q.low == 0 and q.high == 1:
        practice_submit(page, "-0.5", i)
        expect(practice_result(page, i)).to_have_text(f"Not counted: {q.why}.")
    counted = "(2 attempts)" if refused else "(3 attempts)"  # after the sweep's wrong and right answers
    expect(practice_check(page, i).locator(".abh-attempts")).to_have_text(counted)


DEEP_DIVE = "two-heads-of-dimension-one"


def test_the_deep_dives_tables_open_by_their_own_questions(reader):
    """Each head's step table holds three of the six answers: it opens once those three have each
    landed or had SOLUTION_AFTER evaluated attempts, never after one wrong answer elsewhere. The
    comparison and the W_O lab hold answers 3 and 6 (the readings) and wait for those two."""
    page = reader.open(sitebuild.lesson_page(DEEP_DIVE))
    heads = [page.locator(f".abh-fold[data-fold-checks='{a} {a + 1} {a + 2}']") for a in (1, 4)]
    readings = page.locator(".abh-fold[data-fold-checks='3 6']")
    expect(readings).to_have_count(2)
    note = "open once questions 1, 2 and 3 of the check below have each been answered right or tried"
    expect(page.locator(".abh-fold-note").first).to_contain_text(f"{note} {SOLUTION_AFTER} times.")
    attempt(page, "six-numbers", 1, position=1)  # the attempt that used to open all six answers
    for folded in [*heads, readings.first, readings.last]:
        expect(folded).to_be_hidden()
    for position in (1, 2):
        attempt(page, "six-numbers", SOLUTION_AFTER, position)
    expect(heads[0]).to_be_hidden()  # question 3 has had no attempt yet
    attempt(page, "six-numbers", SOLUTION_AFTER - 1, position=3)
    expect(heads[0]).to_be_hidden()
    attempt(page, "six-numbers", 1, position=3)
    expect(heads[0]).to_be_visible()
    expect(heads[1]).to_be_hidden()  # head 2's answers stay folded
    expect(readings.first).to_be_hidden()  # and so do the readings: question 6 is untried
    answers = computed.lesson(DEEP_DIVE).trace.heads[1]
    for position, value in ((4, answers.scores[0][1]), (5, answers.weights[0][0]), (6, answers.output[0][0])):
        field = page.locator(f".abh-gate li.abh-check:nth-child({position}) input.abh-answer")
        field.fill(repr(float(value)))  # a right answer opens by the rule at once
        field.press("Enter")
    expect(heads[1]).to_be_visible()
    expect(readings.last).to_be_visible()  # the lab; the comparison also waits for the prediction
    assert not reader.errors, reader.errors
