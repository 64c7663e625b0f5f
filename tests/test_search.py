"""The search box finds each abbreviation's lesson first: typed as a reader types it, every
abbreviation the glossary lists (GQA, MQA, RoPE, ALiBi, KV cache, MLA, GELU...) brings up the
lesson the glossary links it to as the first result, with the abbreviation in the result's
text and no TeX there. The index splits words at punctuation (mkdocs.yml), so "(GQA;" in a
sentence is found; the glossary page ranks below the lessons it points to (its front matter);
a lesson named as often as another can rank itself up (a lesson's ``search: {boost: 2}``)."""

import re

import pytest
from playwright.sync_api import expect

from macros.vocabulary import glossary
from tests.sitebuild import lesson_page

pytestmark = pytest.mark.browser
ABBREVIATION = re.compile(r"\b[A-Z][A-Za-z]*[A-Z][A-Za-z]*(?: cache)?\b")
TIMEOUT_MS = 20_000


def abbreviations():
    """(abbreviation, the lesson the glossary links it to), from the glossary's terms."""
    found = {}
    for term, _, slug in glossary.TERMS:
        for word in ABBREVIATION.findall(term.split(",")[0].split(" (")[0]):
            found.setdefault(word, slug)
    return sorted(found.items())


def test_the_glossary_lists_the_abbreviations_readers_type():
    # negative control for the list the search test walks
    assert {"GQA", "MQA", "RoPE", "ALiBi", "KV cache", "MLA"} <= dict(abbreviations()).keys()


def test_each_abbreviation_finds_its_lesson_first(served_site, tabs):
    wrong = []
    with tabs.lend() as page:
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(served_site + "index.html")
        box = page.locator("input.md-search__input")
        for word, slug in abbreviations():
            box.click()
            box.fill("")
            page.keyboard.type(word)  # as a reader types: the search runs on each key
            first = page.locator(".md-search-result__item").first
            expect(first).to_contain_text(word, ignore_case=True, timeout=TIMEOUT_MS)
            try:  # the results of a shorter prefix ("KV") can stand for a moment: wait for this word's
                expect(first.locator("a").first).to_have_attribute("href", re.compile(re.escape(lesson_page(slug))))
            except AssertionError:
                found = first.locator("a").first.get_attribute("href")
                wrong.append(f"{word}: first result {found}, expected {lesson_page(slug)}")
            text = first.inner_text()
            if "\\" in text or "$" in text:
                wrong.append(f"{word}: TeX in the result's text: {text[:120]!r}")
    assert wrong == []
