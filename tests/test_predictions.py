"""Every lesson asks the reader to predict before it computes (issue: practice that teaches).

A prediction is ``predict(...)`` on the page (macros/render/widgets.py): its options' truth is
computed, and exactly one holds. Here, on every page as the build renders it: there is at
least one, and the first stands before the page's first graded question, so the reader
commits to a guess before working anything out.
"""

import pytest

from tests import computed


def first(markdown, marker):
    at = markdown.find(marker)
    return at if at >= 0 else len(markdown)


@pytest.mark.parametrize("slug", computed.SLUGS)
def test_every_lesson_predicts_before_it_asks_for_a_number(slug):
    page = computed.page(slug)
    assert 'class="abh-predict"' in page, f"{slug}: no prediction on the page"
    assert first(page, 'class="abh-predict"') < first(page, 'class="abh-gate"'), (
        f"{slug}: the first prediction comes after the first graded question"
    )


def test_the_order_check_can_fail():
    """The control: a page whose gate comes first is caught."""
    page = '<div class="abh-gate"></div> <div class="abh-predict"></div>'
    assert not first(page, 'class="abh-predict"') < first(page, 'class="abh-gate"')
