"""Every real page of the book in Chromium, one visit per page and way of reading it: the
page loads with no console error and no request to another host, its labs recompute, every
display formula fits its column at 1280 px, and its practice grades three sets of numbers;
with scripts off it still shows everything it can.

These sweeps read the session's build of the real site (the ``site`` fixture), not the
widget bench of tests/test_browser.py, so they can run in a process of their own.
"""

import pytest

from macros import lessons
from tests import computed, sitebuild
from tests.test_browser import (
    HOME,
    VISIBLE_JS,
    expect,
    practice,
    practice_check,
    practice_result,
    practice_submit,
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


def formulas_fit_their_column(page, path):
    """At 1280 px every display formula fits its column, in both schemes' fonts alike."""
    page.evaluate("document.fonts.ready")
    wide = page.eval_on_selector_all(
        ".math-display",
        "all => all.filter(d => d.scrollWidth > d.clientWidth)"
        ".map(d => [d.scrollWidth - d.clientWidth, d.textContent.slice(0, 60)])",
    )
    assert wide == [], f"{path}: formulas wider than their column at 1280 px (px over, text): {wide}"


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


def practice_grades_three_sets(page, slug):
    """Set 1 (the page's, as built), set 2 (the reader's "New numbers", from the practice data)
    and set 0 ("The lesson's numbers") show numpy's numbers and accept numpy's answers. On set
    1, an answer off by max(0.05, 10%) is not accepted, and one outside the quantity's range (a
    weight of −0.5, say) is refused with the reason. The grading code is the same for every set
    and lesson; tests/test_browser.py tries it at its boundaries and at the last set."""
    practice_of = computed.lesson(slug).practice
    for number, button in ((1, None), (2, "New numbers"), (0, "The lesson's numbers")):
        if button:
            page.get_by_role("button", name=button).click()
        expect(practice(page)).to_have_attribute("data-variant", str(number))
        assert shown_fixture(page) == practice_of.variants[number].fixture
        for i, check in enumerate(practice_of.checks):
            answer = shown_answer(page, i)
            assert answer == practice_of.variants[number].answers[i]
            practice_submit(page, repr(answer), i)
            expect(practice_result(page, i)).to_contain_text("✓")
            if number == 1:
                wrong_answers_are_not_counted_as_right(page, i, check.quantity, answer)


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
    counted = "(1 attempt)" if refused else "(2 attempts)"
    expect(practice_check(page, i).locator(".abh-attempts")).to_have_text(counted)
