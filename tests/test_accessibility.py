"""Every built page, light and dark, against axe-core's WCAG 2.1 A and AA rules.

axe-core runs offline: it is the copy shipped inside the pinned ``axe-playwright-python``
package (injected into the page by the test, never published with the site). It checks the
live DOM, after docs/assets/js/page.js (and the modules it loads) has enhanced the page, so
the controls the script adds are checked too. Any serious or critical violation fails, listed by page, scheme, rule
and the offending selectors.

Each page is loaded once, with the browser preferring light: all the rules run on it in the
light scheme; then the reader's palette toggle switches it to dark, which changes colours
and nothing else, and the rules about colour run again. Loading with a dark preference (the
``prefers-color-scheme`` media query mkdocs.yml gives each palette) is checked on the page
with its widgets in use, below.

KaTeX's glyph boxes (``.katex-html``, hidden from assistive technology: the MathML beside
them is what a screen reader reads) are left out of the scan; they were a third of its time.
What the scan would check there, the test checks directly: every box of a formula has the
colour of the text around the formula, full opacity and no background of its own, so the
formula's contrast is that text's, which axe checks (at the text's size: a subscript,
smaller, is held to the same colours). The boxes hold no control and no
link (KaTeX's ``trust`` option is off in macros/render/katex_server.cjs), so leaving them out
of the other rules drops nothing they could find.

The site is the session's real build (the ``site`` fixture), served over HTTP on 127.0.0.1,
and the browser is the session's Chromium, lent a tab at a time (tests/tabs.py), as in the
other browser tests.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests import sitebuild

TIMEOUT_MS = 10000
SCHEMES = {"light": ("light", "default"), "dark": ("dark", "slate")}  # name: (media preference, Material scheme)
WCAG_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
COLOUR_RULES = ["color-contrast", "link-in-text-block"]  # the WCAG A/AA rules a colour scheme can change
FAILING = {"serious", "critical"}
NOT_SCANNED = {"exclude": [[".katex-html"]]}
# The boxes of each formula whose colour is not the text's around it, that paint a background or that fade.
FORMULAS_OFF_THE_TEXT = """() => {
  const found = [];
  for (const formula of document.querySelectorAll('.katex')) {
    const around = getComputedStyle(formula.parentElement).color;
    for (const box of [formula, ...formula.querySelectorAll('.katex-html, .katex-html *')]) {
      const style = getComputedStyle(box);
      if (style.color !== around || style.backgroundColor !== 'rgba(0, 0, 0, 0)' || style.opacity !== '1') {
        found.push(`${formula.textContent.slice(0, 30)}: ${style.color} on ${style.backgroundColor}`);
      }
    }
  }
  return found;
}"""

pytestmark = pytest.mark.browser


# The worksheets are plain pages, not the theme's (no palette to switch): tests/test_worksheets.py
# scans them, as a teacher leaves them and with a key shown.
WORKSHEETS = ("worksheet.html", "worksheets.html")


def built_pages(site_dir):
    """Every HTML page of the built site but the worksheets, as its path ('index.html',
    'glossary.html', '404.html'). The chapters' summaries are one template around the same parts
    as the lessons (tables, formulas, links): the largest of them is scanned for all."""
    summaries = sorted(site_dir.glob("chapters/*.html"), key=lambda path: path.stat().st_size)
    return [
        path.relative_to(site_dir).as_posix()
        for path in sorted(site_dir.rglob("*.html"))
        if path.name not in WORKSHEETS and (path.parent.name != "chapters" or path == summaries[-1])
    ]


def violations_on(page, axe, rules=None, context=None):
    """axe-core's violations on the page as it is now, of the WCAG 2.1 A/AA rules or the
    ``rules`` named: [(rule, impact, [selectors])]."""
    only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": WCAG_A_AA}
    # Colours read mid-transition are neither the old nor the new ones: the theme's header
    # fades its title into the page's when the page scrolls (a click scrolls a control into
    # view), and a scan during that fade once found the half-faded title too pale.
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    if not page.evaluate("() => typeof window.axe === 'object'"):  # once a page, not once a run
        page.evaluate(axe.axe_script)
    results = page.evaluate(
        "([context, options]) => axe.run(context || document, options)",
        [context, {"runOnly": only, "resultTypes": ["violations"]}],
    )
    return [
        (
            v["id"],
            v["impact"],
            [" ".join(node["target"]) if isinstance(node["target"], list) else node["target"] for node in v["nodes"]],
        )
        for v in results["violations"]
    ]


def in_scheme(page, scheme):
    """Wait until the page shows the scheme (Material sets it on <body>)."""
    page.wait_for_function(
        "scheme => document.body.getAttribute('data-md-color-scheme') === scheme", arg=SCHEMES[scheme][1]
    )


def switch_to(page, scheme):
    """The reader's palette toggle in the header: its label for the other scheme's input."""
    target = 1 if scheme == "dark" else 0  # mkdocs.yml lists the light palette first
    page.locator(f"label[for=__palette_{target}]").click()
    in_scheme(page, scheme)


def scan(tabs, base, paths):
    """Every page in both schemes: {(path, scheme): (violations, formula boxes off the text)}.
    The page is checked after its scripts ran."""
    axe = Axe()
    found = {}
    with tabs.lend(color_scheme="light") as page:
        page.set_default_timeout(TIMEOUT_MS)
        page.set_default_navigation_timeout(TIMEOUT_MS)
        for path in paths:
            response = page.goto(base + path)
            assert response is not None and (response.ok or path == "404.html"), (
                f"{path}: {response and response.status}"
            )
            # page.js marks <html> once it and the modules it loads on demand have enhanced the page.
            page.wait_for_load_state("load")
            page.wait_for_selector("html[data-abh-ready]", state="attached")
            in_scheme(page, "light")
            found[path, "light"] = violations_on(page, axe, context=NOT_SCANNED), page.evaluate(FORMULAS_OFF_THE_TEXT)
            switch_to(page, "dark")
            found[path, "dark"] = (
                violations_on(page, axe, COLOUR_RULES, context=NOT_SCANNED),
                page.evaluate(FORMULAS_OFF_THE_TEXT),
            )
            switch_to(page, "light")  # the toggle's choice is kept for the next page
    return found


def test_no_serious_or_critical_violation_on_any_page_light_or_dark(site, served_site, tabs):
    paths = built_pages(site.site)
    assert len(paths) >= 9, paths  # home, glossary, the author guide, six lessons, the 404 page
    found = scan(tabs, served_site, paths)
    problems = [
        f"{path or '/'} [{scheme}] {rule} ({impact}): {', '.join(selectors)}"
        for (path, scheme), (violations, _) in found.items()
        for rule, impact, selectors in violations
        if impact in FAILING
    ]
    problems += [
        f"{path or '/'} [{scheme}] a formula not in the colour of the text around it: {box}"
        for (path, scheme), (_, boxes) in found.items()
        for box in boxes
    ]
    assert not problems, f"{len(problems)} serious or critical accessibility problems:\n" + "\n".join(problems)


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_no_serious_or_critical_violation_once_the_widgets_are_used(served_site, tabs, scheme):
    """The controls the script shows only after the reader acts: a prediction's feedback after a
    wrong lock-in, a graded answer, a saved takeaway with the book's beside it, a practice set
    loaded from its data file with a worked solution open, and the question a reset asks."""
    with tabs.lend(color_scheme=SCHEMES[scheme][0]) as page:
        page.set_default_timeout(TIMEOUT_MS)
        page.set_default_navigation_timeout(TIMEOUT_MS)
        page.goto(served_site + sitebuild.lesson_page("two-heads-of-dimension-one") + "?variant=2")
        page.wait_for_selector("html[data-abh-ready]", state="attached")
        in_scheme(page, scheme)
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
    assert not found, found


def test_the_scan_finds_a_known_violation(served_site, tabs):
    """Negative control: on a real page, a link told from its text by colour alone and an image
    without a text alternative are both reported, and so is a formula in a pale grey of its
    own, so a clean result above means the rules ran."""
    with tabs.lend(color_scheme="light") as page:
        page.goto(served_site)
        page.evaluate(
            """() => {
              const p = document.createElement('p');
              p.innerHTML = 'Some words <a href="#x" style="text-decoration:none;color:#2e3fa0">a link</a> more words.';
              p.append(Object.assign(document.createElement('img'), {src: 'data:,', className: 'abh-bad'}));
              const formula = document.createElement('span');
              formula.className = 'katex';
              formula.innerHTML = '<span class="katex-html"><span style="color:#ccc">x</span></span>';
              p.append(formula);
              document.querySelector('article').append(p);
            }"""
        )
        rules = {rule for rule, impact, _ in violations_on(page, Axe(), context=NOT_SCANNED) if impact in FAILING}
        off_the_text = page.evaluate(FORMULAS_OFF_THE_TEXT)
    assert {"image-alt", "link-in-text-block"} <= rules, rules
    assert off_the_text == ["x: rgb(204, 204, 204) on rgba(0, 0, 0, 0)"], off_the_text


def test_the_palette_toggle_gives_the_dark_scan_the_dark_colours(served_site, tabs):
    """Negative control for the dark half of the scan: text in a fixed dark grey reads on the
    light page and not on the dark one, after the same toggle the scan uses."""
    with tabs.lend(color_scheme="light") as page:
        page.goto(served_site)
        page.wait_for_selector("html[data-abh-ready]", state="attached")
        page.evaluate(
            """() => document.querySelector('article').insertAdjacentHTML(
                 'beforeend', '<p class="abh-fixed-grey" style="color:#333">Words in a fixed grey.</p>')"""
        )
        found = {}
        for scheme in ("light", "dark"):
            if scheme == "dark":
                switch_to(page, "dark")
            found[scheme] = [
                selectors
                for rule, _, selectors in violations_on(page, Axe(), COLOUR_RULES, NOT_SCANNED)
                if rule == "color-contrast"
            ]
    assert found == {"light": [], "dark": [[".abh-fixed-grey"]]}, found
