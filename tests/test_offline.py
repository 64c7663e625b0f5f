"""The book opened from a folder on disk, as a class without a network gets it (the README's
"Handing the book to a class without a network"), and the same tour served over HTTP.

From ``file://`` browsers refuse ES modules and ``fetch``, and a link to a folder shows a
listing. So the pages load one classic script (macros/pages/scripts.py), the practice sets
are a script (macros/render/practice.py), search reads its index from a script with
Material's offline plugin and a local worker shim, and every page is a file
(``use_directory_urls: false``). The tour opens the home page and three real lessons in
headless Chromium: it searches for "softmax" and follows a result, answers a check, locks a
prediction, loads a practice set by ``?variant=N``, answers it and moves to the next, edits a
lab (the engine's twin), moves the rotary lab (a module the bundle starts only on its page)
and follows a notebook link; no console error, no request to another host. Answers typed
are the pages' own ``data-answer`` attributes, which tests/test_browser.py holds to Python's.
"""

import re
from pathlib import Path
from urllib.parse import urljoin

import pytest

from tests import sitebuild
from tests.test_browser import NAVIGATION_TIMEOUT_MS, expect, reading, uncover

pytestmark = [pytest.mark.browser, pytest.mark.build]

HOME = "index.html"
CHECKED = "attention-by-hand"  # a check and a prediction
PRACTISED = "two-heads-separate-projections"  # practice on new numbers, and a lab
ROTARY = "rotary-by-hand"  # a widget whose module starts only on its page
VARIANT = 3


@pytest.fixture(params=["file", "http"])
def reader(request, tabs, site):
    """A reader of the real site, opened from its folder (file://) or served over HTTP."""
    base = site.site.as_uri() + "/" if request.param == "file" else request.getfixturevalue("served_site")
    with reading(tabs, base, viewport={"width": 1280, "height": 900}) as reader:
        yield reader


def answer(item):
    """Types an item's own answer into its box and submits it."""
    field = item.locator("input.abh-answer")
    field.fill(item.get_attribute("data-answer"))
    field.press("Enter")
    expect(item.locator(".abh-result")).to_contain_text("✓")


def search_from_the_home_page(reader):
    page = reader.open(HOME)
    expect(page.locator(".track-lesson").first).to_be_visible()
    page.locator("input.md-search__input").click()
    page.keyboard.type("softmax")
    results = page.locator(".md-search-result__item")
    expect(results.first).to_be_visible(timeout=NAVIGATION_TIMEOUT_MS)
    assert results.count() > 0
    first = results.first.locator("a").first
    # The results are drawn again as the search worker answers each letter typed: the first
    # result is read once it has stayed the same for a while, so the link clicked is the one read.
    target, previous = first.get_attribute("href"), None
    while target != previous:
        page.wait_for_timeout(300)
        target, previous = first.get_attribute("href"), target
    assert re.match(r"^[^#?]+\.html", target), target  # a page's file, which opens from disk
    first.click()
    page.wait_for_selector("html[data-abh-ready]", state="attached", timeout=NAVIGATION_TIMEOUT_MS)
    assert page.url.split("#")[0] == urljoin(reader.base + HOME, target).split("#")[0]


def check_and_predict(reader):
    page = reader.open(sitebuild.lesson_page(CHECKED))
    assert page.locator(".abh-noscript").count() == 0  # the script runs: no notice
    check = page.locator("li.abh-check[data-answer]").first
    uncover(page, check)
    answer(check)
    widget = page.locator(".abh-predict").first
    uncover(page, widget)
    correct = widget.get_attribute("data-correct")
    widget.locator(f"input[type=radio][value='{correct}']").check()
    widget.locator("button.abh-lock").click()
    expect(widget.locator(".abh-verdict")).to_contain_text("Locked in: right.")
    page = reader.reload()  # the reader's work is kept in this browser, from disk too
    expect(page.locator(".abh-predict").first.locator(".abh-verdict")).to_contain_text("Locked in: right.")
    expect(page.locator("li.abh-check[data-answer]").first.locator(".abh-result")).to_contain_text("✓")


def practice_and_lab(reader):
    page = reader.open(f"{sitebuild.lesson_page(PRACTISED)}?variant={VARIANT}")
    practice = page.locator(".abh-practice")
    expect(practice).to_have_attribute("data-variant", str(VARIANT))
    expect(practice.locator(".abh-practice-title")).to_contain_text(f"set {VARIANT} of")
    data = [r for r in reader.requests if r.url.endswith(f"lessons/{PRACTISED}/practice.js")]
    assert [r.resource_type for r in data] == ["script"]
    answer(practice.locator("li.abh-practice-check").first)
    page.get_by_role("button", name="New numbers").click()  # the next set, and its address
    expect(practice).to_have_attribute("data-variant", str(VARIANT + 1))
    assert page.url.endswith(f"?variant={VARIANT + 1}")
    lab = page.locator(".abh-lab").first
    uncover(page, lab)
    lab.locator(".abh-cell").first.fill("2.5")
    expect(lab).to_have_attribute("data-recompute-ms", re.compile(r"^\d"))  # the engine's twin ran
    expect(lab.locator(".abh-lab-message")).to_be_hidden()


def rotary_and_notebook(reader, site_dir):
    page = reader.open(sitebuild.lesson_page(ROTARY))
    lab = page.locator(".abh-rotary")
    uncover(page, lab)  # it shows what settles the lesson's prediction, so it waits for a lock-in
    expect(lab.locator("input[type=range]")).to_have_count(2)
    before = int(lab.locator("[data-role='q-position']").inner_text())
    lab.get_by_role("button", name="Both forward by one").click()
    expect(lab.locator("[data-role='q-position']")).to_have_text(str(before + 1))
    follow_the_notebook_link(page, ROTARY, site_dir)


def follow_the_notebook_link(page, slug, site_dir):
    """The link saves the notebook published beside the page, served (the link's download
    attribute) and from disk, where Chromium ignores that attribute and the page's script
    saves it from the notebook's script instead (docs/assets/js/save-notebook.js)."""
    published = (Path(site_dir) / "lessons" / slug / f"{slug}.ipynb").read_bytes()
    link = page.get_by_role("link", name="open the notebook")
    target = urljoin(page.url, link.get_attribute("href"))
    assert target == urljoin(page.url, f"{slug}.ipynb")
    with page.expect_download() as caught:
        link.click()
    assert caught.value.suggested_filename == f"{slug}.ipynb"
    assert Path(caught.value.path()).read_bytes() == published
    assert page.url.split("#")[0].endswith("index.html")  # the page stays: no JSON shown


def test_the_home_page_three_lessons_and_search_work(reader, site):
    search_from_the_home_page(reader)
    check_and_predict(reader)
    practice_and_lab(reader)
    rotary_and_notebook(reader, site.site)
    assert not reader.errors, reader.errors
    assert not reader.foreign, reader.foreign  # from disk: no request over the network at all
