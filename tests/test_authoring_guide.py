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


def test_section_6_shows_the_starters_prediction_as_the_starter_writes_it():
    starter = Path("macros/tools/scaffold/lesson.md").read_text(encoding="utf-8")
    block = starter[starter.index("{% set top, s, q") : starter.index('<div data-reveal-after="largest" markdown>')]
    assert block in GUIDE.read_text(encoding="utf-8")


def test_the_practice_section_shows_the_starters_block_as_the_starter_writes_it():
    """The guide teaches the practice block a new lesson starts with: questions about its idea,
    in two kinds the sets take in turn."""
    starter = Path("macros/tools/scaffold/fixture.yaml").read_text(encoding="utf-8")
    block = starter[starter.index("practice:") :]
    assert "kinds:" in block and block in GUIDE.read_text(encoding="utf-8")


# The two refusals section 6 quotes, and the edit of the starter's prediction that gives each.
REFUSALS = [
    (
        '"], for a score of " ~ num(s[0]) ~ ". ',
        '"], for a score of " ~ num(s[0]) ~ ". '
        + "The largest weight goes to the largest score: compare it with the other two. ",
    ),
    ("compare it with the other two.", "compare it with the one for mice."),
]


@pytest.mark.parametrize("before, after", REFUSALS, ids=["shared", "naming"])
def test_section_6_quotes_the_refusals_the_build_gives(tmp_path, before, after):
    import shutil

    from macros.pages.book import PageError
    from macros.tools import scaffold

    shutil.copytree("lessons", tmp_path / "lessons", ignore=shutil.ignore_patterns("__pycache__"))
    folder, _ = scaffold.create("my-topic", "My topic", root=tmp_path / "lessons")
    template = folder / "lesson.md"
    text = template.read_text(encoding="utf-8")
    assert text.count(before) == 1
    template.write_text(text.replace(before, after), encoding="utf-8")
    with pytest.raises(PageError) as caught:
        computed.book_over(tmp_path).render("lessons/my-topic/lesson.md", template)
    quoted = [line for line in GUIDE.read_text(encoding="utf-8").splitlines() if line.startswith("lessons/my-topic/")]
    assert str(caught.value) in quoted


# ---------------------------------------------------------------- the examples, rendered

# An example is a backticked snippet with ``{{ ... }}`` in a table row of the guide. Each is
# rendered against a lesson that has what it reads (the lessons below, in turn), with the few
# names the tables' examples assume a template has set: h, h2, w, v, w0, w1, r, a, b, L, tolerance.
EXAMPLE = re.compile(r"`([^`\n]*\{\{[^`\n]*\}\}[^`\n]*)`")
TRIED = (
    "tracing-two-heads",
    "attention-cost",
    "online-softmax",
    "flash-attention-tiles",
    "masks",
    "alibi",
    "decoding-cost",
)


def examples():
    """(example, what the row says it gives, when that is one literal) for each table row."""
    found = []
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| `"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        literal = re.fullmatch(r"`([^`{}%]+)`", cells[-1]) if len(cells) == 3 else None
        found += [(example, literal and literal[1]) for example in EXAMPLE.findall(line)]
    return found


def rendered(example, slug):
    """The example rendered as a template of lesson ``slug`` would render it."""
    lesson = computed.lesson(slug)
    book = computed.book()
    names = dict(computed.names(lesson))
    h = lesson.trace.heads[0]
    names |= {"h": h, "h2": lesson.trace.heads[-1], "w": h.weights[0], "v": h.V.T[0]}
    names |= {"w0": 0.25, "w1": 0.5, "r": 1, "a": 0.25, "b": 0.5, "L": 32768, "tolerance": 0.01}
    names |= book.track_names(f"lessons/{slug}/lesson.md")  # the home page's track map, for its example
    return book.environment.from_string(example).render(names)


def first_render(example):
    """The example rendered by the first lesson of TRIED that has what it reads, or the errors."""
    errors = []
    for slug in TRIED:
        try:
            return rendered(example, slug), None
        except Exception as error:  # any mistake: try the next lesson, report them all if none renders it
            errors.append(f"{slug}: {str(error).splitlines()[0]}")
    return None, errors


def mismatch(example, gives):
    """Why the example is wrong, or None: it renders in no lesson, or, where its result follows
    from its text alone (a helper given literals), it does not give what the guide says."""
    text, errors = first_render(example)
    if errors is not None:
        return f"the guide's example {example!r} renders in none of {TRIED}:\n" + "\n".join(errors)
    literal_arguments = re.fullmatch(r"[^{]*\{\{ \w+\(([^a-zA-Z(]|\"[a-z]+\")*\) \}\}[^}]*", example)
    if gives and literal_arguments and gives not in text:
        return f"the guide says {example!r} gives {gives!r}; it gives {text!r}"
    return None


@pytest.mark.parametrize(("example", "gives"), examples(), ids=[e for e, _ in examples()])
def test_every_example_of_the_guide_renders(example, gives):
    assert mismatch(example, gives) is None


def test_the_examples_are_found_and_a_wrong_result_is_caught():
    """The control: the tables hold dozens of examples; a result written wrong (as the guide
    once said of and_list) and an example no lesson can render are reported."""
    assert len(examples()) > 40
    assert "it gives 'keys 1 and 3'" in mismatch("keys {{ and_list([1, 3]) }}", "1, 2 and 4")
    assert "renders in none of" in mismatch("{{ num(h.weigths[0][0]) }}", None)
