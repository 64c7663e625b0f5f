"""Reader pages in readers' words: no talk of how the pages are made, and no explanation
given twice.

A reader meets a lesson, not its machinery: a sentence about what "the build" refuses or a
package pin typed into a sentence is written for authors and belongs in the author guide. A
shared explanation is given in full once, by the first lesson of the track that needs it;
later lessons say it in a sentence and link there, so a paragraph of 25 words or more
appears on one page at most, once. Only what a reader sees is read: a page's data
attributes, scripts and its note for a browser without JavaScript are left out, and so are
the notes that give rounded numbers' unrounded values, computed for the numbers in hand
(two pages can show the same numbers).
"""

import re
from collections import defaultdict

import pytest

from tests import computed

BUILD_TALK = re.compile(
    r"(?i)\b(?:this book refuses|no page is published|the build|fixture|the engine|yaml|jinja|template"
    r"|millionth of a millionth|we mean at most)\b|\w==\d"
)
LONG = 25  # words: a paragraph this long is an explanation, not a label or a short step
HIDDEN = re.compile(r"(?s)<script\b.*?</script>|<noscript>.*?</noscript>|<style\b.*?</style>")
TAG = re.compile(r"<[^>]+>")
ROUNDING_NOTE = re.compile(r"^The [\w ]{1,40} shown (?:are|is) rounded")


def visible(markdown):
    """The page's text as a reader sees it: no scripts, no tags (so no attributes)."""
    return TAG.sub(" ", HIDDEN.sub(" ", markdown))


def paragraphs(markdown):
    """Each paragraph of prose of LONG words or more, with its spacing made even."""
    text = re.sub(r"(?s)\$\$.*?\$\$", " ", visible(markdown))
    for block in re.split(r"\n\s*\n", text):
        words = block.split()
        if len(words) >= LONG and not block.lstrip().startswith("|") and not ROUNDING_NOTE.match(" ".join(words)):
            yield " ".join(words)


def build_talk(markdown):
    return [match.group() for match in BUILD_TALK.finditer(visible(markdown))]


@pytest.mark.parametrize("slug", computed.SLUGS)
def test_a_lesson_page_speaks_to_readers(slug):
    assert build_talk(computed.page(slug)) == []


def test_build_talk_is_found_in_text_and_not_in_data():
    # negative control: the phrases the rule lists are found in a sentence, not in markup
    page = (
        '<div data-fixture="{}"></div>\nThe computation refuses such a row, and no page is published (torch==2.13.0).'
    )
    assert build_talk(page) == ["no page is published", "h==2"]


def test_no_long_paragraph_is_given_twice_in_the_book():
    where = defaultdict(list)
    for slug in computed.SLUGS:
        for paragraph in paragraphs(computed.page(slug)):
            where[paragraph].append(slug)
    repeated = {paragraph[:80]: slugs for paragraph, slugs in where.items() if len(slugs) > 1}
    assert repeated == {}


def test_a_repeated_paragraph_is_found():
    # negative control: the same explanation on two lines of one page, and a label that is not one
    explanation = " ".join(["word"] * LONG)
    page = f"{explanation}\n\n<p>{explanation}</p>\n\nA short label.\n\nA short label."
    assert list(paragraphs(page)) == [explanation, explanation]
