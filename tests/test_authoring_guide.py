"""The author guide names every name a lesson template can use, with an example.

The names are read from the code, not from a list kept here: ``macros.pages.context`` (every name
a lesson page sees, and the helpers of every page), the book's own additions (``lessons``,
``track_map``, the front matter's fields), the shared partials of ``macros/explain/`` and
every value of the lesson objects a template reaches (``lesson``, ``trace``, a head, the
fixture and its heads), as ``macros.lookup`` lists them for "did you mean". A new name
that the guide does not mention fails here, so the guide cannot drift from the code.
"""

import functools
import re
from pathlib import Path

import pytest

from macros import lookup
from macros.sources import front_matter
from tests import computed

GUIDE = Path("docs/authoring.md")
# Fenced blocks and inline code: where the guide writes names as a template writes them.
CODE = re.compile(r"^```.*?^```|`[^`\n]+`", re.S | re.M)


def code_of(text):
    return "\n".join(match.group() for match in CODE.finditer(text))


@functools.cache
def template_names():
    """(name as the guide must write it, where it comes from) for everything a template can use."""
    self_attention = computed.lesson("tracing-two-heads")
    direct = computed.lesson("attention-by-hand")
    names = computed.names(self_attention)
    wanted = []
    for name, value in names.items():
        if name == "explain" or name in self_attention.meta:
            continue
        wanted.append((f"{name}(" if callable(value) else name, "macros/pages/context.py"))
    wanted += [("lessons[", "macros/pages/book.py"), ("track_map(", "macros/pages/book.py")]
    wanted += [(name, "front matter") for name in sorted(front_matter.FIELDS)]
    partials = [n for n in dir(names["explain"]) if not n.startswith("_")]
    wanted += [(f"explain.{name}(", "macros/explain/steps.md.j2") for name in partials]
    objects = {
        "lesson": self_attention,
        "trace": self_attention.trace,
        "head": self_attention.trace.heads[0],
        "fixture": self_attention.fixture,
        "fixture (given directly)": direct.fixture,
        "fixture.heads[i]": self_attention.fixture.heads[0],
    }
    for kind, obj in objects.items():
        wanted += [(f".{name}", kind) for name in sorted(lookup.value_names(obj))]
    return tuple(sorted(set(wanted)))


def missing_from(text):
    code = code_of(text)
    return [f"{written} ({source})" for written, source in template_names() if not mentioned(written, code)]


def mentioned(written, code):
    """``num(`` as a call, ``tokens`` as a whole word, ``.d_k`` after any name (``h.d_k``)."""
    before = "" if written.startswith(".") else r"(?<![\w.])"
    after = r"(?!\w)" if written[-1].isalnum() or written[-1] == "_" else ""
    return re.search(before + re.escape(written) + after, code) is not None


def test_the_names_come_from_the_code():
    names = dict(template_names())
    # A few that issue 8 found missing from the old guide, to show the list is the real one.
    for name in ("per_head(", "is_identity(", "explain.softmax(", ".n_heads", ".d_k", ".d_v", ".shifted"):
        assert name in names
    assert len(names) > 100


def test_the_guide_names_every_name_a_template_can_use():
    assert missing_from(GUIDE.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("removed", ["`per_head(heads, what)`", "`h.shifted`"])
def test_a_name_left_out_of_the_guide_is_reported(removed):
    # The negative control: take one mention out and the check names what is lookup.
    text = GUIDE.read_text(encoding="utf-8")
    assert removed in text
    name = "per_head(" if "per_head" in removed else ".shifted"
    cut = re.sub(re.escape(name.strip(".(")) + r"\b", "REMOVED", text)
    assert any(line.startswith(name + " ") for line in missing_from(cut))


@pytest.mark.parametrize(
    "example",
    [
        "trace.n_heads",
        "h.d_k",
        "h.d_v",
        "h.shifted",
        "lesson.decimals",
        "fixture.W_O is none",
        "M.T[0]",
        "../attention-by-hand/lesson.md",
        'lessons["attention-by-hand"].trace',
        '??? success "Solution"',
        "10 ** -lesson.decimals",
    ],
)
def test_the_guide_shows_what_a_new_author_missed(example):
    # Issue 8, section 2b: names and syntax a new author could not find in the old guide.
    assert example in GUIDE.read_text(encoding="utf-8")


def test_section_6_shows_the_starters_check_as_the_starter_writes_it():
    """The guide teaches the check a new lesson starts with; a change to either shows here."""
    starter = Path("macros/tools/scaffold/lesson.md").read_text(encoding="utf-8")
    block = starter[starter.index("{% set tolerance") : starter.index("solution=solution) }}")]
    assert block in GUIDE.read_text(encoding="utf-8")
