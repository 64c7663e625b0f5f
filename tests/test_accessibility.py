"""Every built page, light and dark, against axe-core's WCAG 2.1 A and AA rules.

axe-core runs offline: it is the copy shipped inside the pinned ``axe-playwright-python``
package (injected into the page by the test, never published with the site). It checks the
live DOM, after docs/assets/js/page.js (and the modules it loads) has enhanced the page, so
the controls the script adds are checked too. Any serious or critical violation fails, listed by page, scheme, rule
and the offending selectors.

The scheme is chosen the way the site's palette chooses it: mkdocs.yml gives each palette a
``prefers-color-scheme`` media query, so the browser's colour-scheme preference picks
``default`` (light) or ``slate`` (dark); the test waits until the page shows that scheme.

The site is the session's real build (the ``site`` fixture), served over HTTP on 127.0.0.1,
and the browser is the session's Chromium (the ``browser`` fixture in tests/conftest.py),
as in the other browser tests.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests import sitebuild

TIMEOUT_MS = 10000
SCHEMES = {"light": ("light", "default"), "dark": ("dark", "slate")}  # name: (media preference, Material scheme)
WCAG_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING = {"serious", "critical"}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(site):
    with sitebuild.served(site.site) as url:
        yield url


def built_pages(site_dir):
    """Every HTML page of the built site, as its path ('index.html', 'glossary.html', '404.html')."""
    return [path.relative_to(site_dir).as_posix() for path in sorted(site_dir.rglob("*.html"))]


def violations_on(page, axe):
    """axe-core's WCAG 2.1 A/AA violations on the page as it is now: [(rule, impact, [selectors])]."""
    options = {"runOnly": {"type": "tag", "values": WCAG_A_AA}, "resultTypes": ["violations"]}
    results = axe.run(page, options=options).response
    return [
        (
            v["id"],
            v["impact"],
            [" ".join(node["target"]) if isinstance(node["target"], list) else node["target"] for node in v["nodes"]],
        )
        for v in results["violations"]
    ]


def scan(browser, base, paths, scheme):
    """Every page in one colour scheme: {path: violations}. The page is checked after its scripts ran."""
    preference, material = SCHEMES[scheme]
    context = browser.new_context(color_scheme=preference)
    context.set_default_timeout(TIMEOUT_MS)
    axe = Axe()
    found = {}
    try:
        page = context.new_page()
        for path in paths:
            response = page.goto(base + path)
            assert response is not None and (response.ok or path == "404.html"), (
                f"{path}: {response and response.status}"
            )
            # page.js marks <html> once it and the modules it loads on demand have enhanced the page.
            page.wait_for_load_state("load")
            page.wait_for_selector("html[data-abh-ready]", state="attached")
            page.wait_for_function(
                "scheme => document.body.getAttribute('data-md-color-scheme') === scheme", arg=material
            )
            found[path] = violations_on(page, axe)
    finally:
        context.close()
    return found


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_no_serious_or_critical_violation_on_any_page(site, server, browser, scheme):
    paths = built_pages(site.site)
    assert len(paths) >= 9, paths  # home, glossary, the author guide, six lessons, the 404 page
    found = scan(browser, server, paths, scheme)
    problems = [
        f"{path or '/'} [{scheme}] {rule} ({impact}): {', '.join(selectors)}"
        for path, violations in found.items()
        for rule, impact, selectors in violations
        if impact in FAILING
    ]
    assert not problems, f"{len(problems)} serious or critical accessibility violations:\n" + "\n".join(problems)


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_no_serious_or_critical_violation_once_the_widgets_are_used(server, browser, scheme):
    """The controls the script shows only after the reader acts: a prediction's feedback after a
    wrong lock-in, a graded answer, a saved takeaway with the book's beside it, a practice set
    loaded from its data file with a worked solution open, and the question a reset asks."""
    preference, material = SCHEMES[scheme]
    context = browser.new_context(color_scheme=preference)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(server + sitebuild.lesson_page("two-heads-of-dimension-one") + "?variant=2")
        page.wait_for_selector("html[data-abh-ready]", state="attached")
        page.wait_for_function("scheme => document.body.getAttribute('data-md-color-scheme') === scheme", arg=material)
        prediction = page.locator(".abh-predict[data-predict='predict']")
        wrong = next(o for o in ("1", "2", "3") if o != prediction.get_attribute("data-correct"))
        prediction.locator(f"input[value='{wrong}']").check()
        prediction.locator("button.abh-lock").click()
        box = page.locator(".abh-gate li.abh-check input.abh-answer").first
        box.fill("abc")
        box.press("Enter")
        page.locator(".abh-takeaway textarea").fill("Two softmaxes are not one.")
        page.get_by_role("button", name="Save my takeaway").click()
        practice = page.locator(".abh-practice li.abh-practice-check").first
        practice.locator("input.abh-answer").fill(practice.get_attribute("data-answer"))
        practice.locator("input.abh-answer").press("Enter")
        practice.locator("details.abh-practice-solution > summary").click()
        page.get_by_role("button", name="Reset this lesson").click()
        found = [v for v in violations_on(page, Axe()) if v[1] in FAILING]
    finally:
        context.close()
    assert not found, found


def test_the_scan_finds_a_known_violation(server, browser):
    """Negative control: on a real page, a link told from its text by colour alone and an image
    without a text alternative are both reported, so a clean result above means the rules ran."""
    context = browser.new_context(color_scheme="light")
    try:
        page = context.new_page()
        page.goto(server)
        page.evaluate(
            """() => {
              const p = document.createElement('p');
              p.innerHTML = 'Some words <a href="#x" style="text-decoration:none;color:#2e3fa0">a link</a> more words.';
              p.append(Object.assign(document.createElement('img'), {src: 'data:,', className: 'abh-bad'}));
              document.querySelector('article').append(p);
            }"""
        )
        rules = {rule for rule, impact, _ in violations_on(page, Axe()) if impact in FAILING}
    finally:
        context.close()
    assert {"image-alt", "link-in-text-block"} <= rules, rules
