"""Every real page of the book in Chromium, one visit per page and way of reading it: the
page loads with no console error and no request to another host, its labs recompute, and
every display formula fits its column at 1280 px; with scripts off it still shows everything
it can; and each lesson's practice grades three of its sets.

These sweeps read the session's build of the real site (the ``site`` fixture), not the
widget bench of tests/test_browser.py, so they can run in a process of their own.
"""

import pytest

from macros import lessons
from tests import computed, sitebuild
from tests.test_browser import (
    HOME,
    NAVIGATION_TIMEOUT_MS,
    Reader,
    expect,
    practice,
    practice_check,
    practice_result,
    practice_submit,
    ready,
    says_it_needs_scripts,
    shown_answer,
    shown_fixture,
    uncover,
    visible_text,
)

pytestmark = pytest.mark.browser

REAL_PAGES = [HOME, *(sitebuild.lesson_page(folder.name) for folder in lessons.folders(sitebuild.PROJECT / "lessons"))]
REAL_LESSONS = REAL_PAGES[1:]


@pytest.fixture(scope="module")
def server(site):
    with sitebuild.served(site.site) as url:
        yield url


@pytest.fixture
def reader(browser, server):
    """A reader at 1280 × 900 px, the width at which no formula may scroll sideways."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield Reader(context, server)
    context.close()


@pytest.mark.parametrize("path", REAL_PAGES)
def test_a_real_page_loads_with_no_console_error_and_no_request_to_another_host(reader, path):
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
        # Only a prediction's options are inputs in the HTML itself; the rest is the script's.
        assert page.locator("article input:not([type=radio]), article textarea").count() == 0
        assert "Lock in" not in visible_text(page)
        for takeaway in page.locator(".abh-takeaway").all():  # the book's takeaway shows
            assert takeaway.inner_text().strip()
        says_it_needs_scripts(page)
    finally:
        context.close()


def off_by(answer):
    """An answer off by the larger of 0.05 and 10%: wrong for every tolerance the book uses."""
    return answer + max(0.05, 0.1 * abs(answer))


@pytest.mark.parametrize("slug", computed.WITH_PRACTICE)
def test_practice_on_a_real_lesson_grades_three_sets(reader, slug):
    """Sets 1 (the page's), 0 (the lesson's own) and the last: the right answer is accepted, one
    off by max(0.05, 10%) is not, and a weight's answer of −0.5 is refused with the reason."""
    practice_of = lessons.load(sitebuild.PROJECT / "lessons" / slug).practice
    last = practice_of.spec.variants
    page = reader.open(sitebuild.lesson_page(slug))  # set 1, as the page was built
    for number in (1, 0, last):
        if number != 1:
            page.goto(f"{reader.base}{sitebuild.lesson_page(slug)}?variant={number}")
            ready(page)
        expect(practice(page)).to_have_attribute("data-variant", str(number))
        assert shown_fixture(page) == practice_of.variants[number].fixture
        for i, check in enumerate(practice_of.checks):
            answer = shown_answer(page, i)
            assert answer == practice_of.variants[number].answers[i]
            practice_submit(page, repr(answer), i)
            expect(practice_result(page, i)).to_contain_text("✓")
            q, off = check.quantity, off_by(answer)
            practice_submit(page, repr(off), i)
            expect(practice_result(page, i)).not_to_contain_text("✓")
            refused = (q.whole and not off.is_integer()) or (q.high is not None and off > q.high)
            if refused:  # outside the quantity's range: refused with the reason, not counted
                expect(practice_result(page, i)).to_have_text(f"Not counted: {q.why}.")
            if q.low == 0 and q.high == 1:
                practice_submit(page, "-0.5", i)
                expect(practice_result(page, i)).to_have_text(f"Not counted: {q.why}.")
            counted = "(1 attempt)" if refused else "(2 attempts)"
            expect(practice_check(page, i).locator(".abh-attempts")).to_have_text(counted)
    assert not reader.errors, reader.errors
    assert not reader.foreign, reader.foreign
