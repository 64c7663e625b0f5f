"""Lesson prose never types a computed number: every decimal on a page comes from a helper.

The rule itself is ``macros.sources.prose.typed_decimals`` (the build runs it on every
lesson); here it runs on every page, lessons and docs, and on hand-written cases.
"""

import pytest

from macros.sources.prose import typed_decimals, typed_in_claims
from tests.sitebuild import PROJECT

# Paths from the project, not the working folder: run from elsewhere, the test still reads
# every page (and every shared partial, which is reader prose too).
PAGES = [
    *sorted((PROJECT / "lessons").rglob("*.md")),
    *sorted((PROJECT / "docs").rglob("*.md")),
    *sorted((PROJECT / "macros" / "explain").glob("*.j2")),
]


def test_the_pages_are_found():
    assert len(PAGES) > 6


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(PROJECT)))
def test_no_typed_decimals(path):
    assert typed_decimals(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "text, found",
    [
        ("The weight is 0.248 here.", [(1, "0.248")]),
        ("Scaled: 1.414 and -0.707.", [(1, "1.414"), (1, "-0.707")]),
        ("---\ntitle: x\n---\nsee 0.5\n", [(4, "0.5")]),
        ('{{ choice("c", "?", [("within 0.01", "no")], 1) }}', [(1, "0.01")]),
    ],
)
def test_typed_decimals_are_found(text, found):
    assert typed_decimals(text) == found


@pytest.mark.parametrize(
    "text",
    [
        "{{ num(0.25) }}",
        "{% set t = 0.05 %}",
        "Lesson 8.2 is next.",
        "---\nx: 0.5\n---\n",
        "`x = 0.5`",
        "```\n0.5\n```",
    ],
)
def test_code_and_section_numbers_pass(text):
    assert typed_decimals(text) == []


# ---------------------------------------------------------------- positions typed in a claim


def claimed(sentence):
    return typed_in_claims("{% call claim(ok) -%}\n" + sentence + "\n{%- endcall %}")


@pytest.mark.parametrize(
    "sentence, typed",
    [
        # grouped-query-attention's sentence as it was first written
        ("With g = 2, heads 1 and 2 share theirs, and heads 3 and 4 share theirs.", ["heads 1 and 2", "heads 3 and 4"]),
        ("Heads 1, 2 and 3 read the same key.", ["Heads 1, 2 and 3"]),
        ("Head 2 is a first-token head.", ["Head 2"]),
        ("Only rows 2 and 3 change.", ["rows 2 and 3"]),
        ("The mask hides keys 2 to 4.", ["keys 2 to 4"]),
        ("Entry 3 is the largest, and 4 heads agree.", ["Entry 3", "4 heads"]),
    ],
)
def test_a_place_typed_in_a_claim_is_found_whole(sentence, typed):
    assert [what for _, what in claimed(sentence)] == typed


@pytest.mark.parametrize(
    "sentence",
    [
        "{{ counted('head', [0, 1]) }} share theirs, and {{ head_label(h2) | capitalize }} does not.",
        "Rows {{ and_list(rows) }} change, and the heads agree on the first token.",
        "$W_O$ has $h\\,d_v = 4$ rows.",
    ],
)
def test_a_place_computed_in_a_claim_passes(sentence):
    assert claimed(sentence) == []


def test_a_place_typed_outside_a_claim_passes():
    assert typed_in_claims("Heads 1 and 2 share theirs.\n") == []
