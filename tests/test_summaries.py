"""A chapter on one page (macros/render/summaries.py): each chapter's lessons with their formulas
and their sentences to remember, and the shapes of the matrices, checked against every lesson.

The page's parts are checked against their sources read here, not against the page's own
code: the front matter's formulas (as the TeX KaTeX annotates), each lesson's arrays (their
shapes, from the session's computed lessons), and the sentences a lesson hands over (on the
summary, never on the lesson's own page). Printed by Chromium to A4, each summary takes one or
two pages with nothing wider than the paper, and loads with no console error, served and from
disk; tests/test_accessibility.py scans it with every other page.
"""

import html
import re
import subprocess
import types

import pytest

from macros.errors import SourceError
from macros.render import summaries
from macros.sources import front_matter, track
from tests import computed, sitebuild
from tests.test_browser import reading

CHAPTER = "Generating and speed"  # six lessons, three with sentences to remember, the longest page
A4_PRINTED_PX = 718  # 210 mm less Chromium's default print margins of about 10 mm a side, at 96 px per inch
# A table or formula that sticks out of the page, or that would scroll (what a scroll hides is
# cut on paper).
WIDER_THAN_THE_PAGE = """() => [...document.querySelectorAll(
    '.chapter-summary table, .chapter-summary .md-typeset__table, .chapter-summary .katex-display')]
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5
    || (getComputedStyle(e).overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1))
  .map(e => e.textContent.slice(0, 40))"""


def chapters():
    titles, entries = track.load(sitebuild.PROJECT / "lessons")
    return [(c, title, [e for e in entries if e.chapter == c]) for c, title in enumerate(titles, 1)]


# ---------------------------------------------------------------- without a build


def test_a_sentence_to_remember_leaves_the_lesson_page_for_its_summary():
    sentence = "A cache of  $2\\,g\\,d_k$ numbers."
    page = "Before. " + summaries.marked(sentence) + " After.\n"
    left, said = summaries.taken_out(page)
    assert left == "Before.  After.\n" and said == ["A cache of $2\\,g\\,d_k$ numbers."]
    with pytest.raises(ValueError, match="another remember"):
        summaries.marked(summaries.marked("nested"))


def test_every_lesson_of_the_track_gives_its_formulas():
    for _, _, entries in chapters():
        for entry in entries:
            assert entry.meta.get("formulas"), f"{entry.slug}: no formulas in its front matter"


@pytest.mark.parametrize(
    ("formulas", "field", "found"),
    [
        ([], "formulas", "an empty list"),
        (["a = b", "x = 0.5"], "formulas[1]", "'x = 0.5'"),
        ("s = qk", "formulas", "'s = qk'"),
    ],
)
def test_a_formula_list_that_is_not_symbols_is_refused_at_its_field(formulas, field, found):
    meta = {"title": "T", "kind": "derivation", "minutes": 5, "summary": "S.", "formulas": formulas}
    with pytest.raises(SourceError, match=rf"front matter: {re.escape(field)}: expected .*, got {re.escape(found)}"):
        front_matter.check("lessons/x/lesson.md", meta)


def test_the_shapes_table_holds_for_every_lesson_and_a_wrong_shape_is_named():
    for _, _, entries in chapters():
        for entry in entries:
            assert summaries.refused(computed.lesson(entry.slug)) is None, entry.slug
    # negative control: masks with its head's keys one row short
    masks = computed.lesson("masks")
    head = masks.trace.heads[0]
    short = types.SimpleNamespace(**{name: getattr(head, name) for name in ("Q", "V", "scores", "weights", "output")})
    short.K = head.K[:-1]
    trace = types.SimpleNamespace(heads=(short,), concat=masks.trace.concat, output=masks.trace.output, W_O=None)
    broken = types.SimpleNamespace(trace=trace, fixture=masks.fixture)
    # the keys are counted by K's rows, so V, with one row more, is the matrix named
    assert summaries.refused(broken) == f"V of head 1 is {head.V.shape[0]} × 2, not {head.K.shape[0] - 1} × 2"


# ---------------------------------------------------------------- the built site


def summary_html(site, title):
    return (site.site / track.summary_uri(title).replace(".md", ".html")).read_text(encoding="utf-8")


def visible(fragment):
    """A fragment of a page as text, the same way for any page: tags out, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def remembered(page, title):
    """The sentences to remember under a lesson's heading on a summary, as text."""
    section = page[page.index(f">{html.escape(title, quote=False)}</a>") :]
    section = section[: section.find("<h3") if "<h3" in section else section.index("<h2")]
    if "To remember:" not in section:
        return []
    return [visible(item) for item in re.findall(r"<li>(.*?)</li>", section[section.index("To remember:") :], re.S)]


def untidy(tex):
    return re.sub(r"\s|\\qquad|,", "", tex)


def tex_on(page):
    return [
        html.unescape(t) for t in re.findall(r'<annotation encoding="application/x-tex">(.*?)</annotation>', page, re.S)
    ]


@pytest.mark.build
def test_each_chapter_is_on_one_page_linked_from_the_nav_and_each_lessons_foot(site):
    home = (site.site / "index.html").read_text(encoding="utf-8")
    for number, title, entries in chapters():
        target = track.summary_uri(title).replace(".md", ".html")
        assert f'href="{target}"' in home, title  # in the nav
        for entry in entries:
            page = (site.site / "lessons" / entry.slug / "index.html").read_text(encoding="utf-8")
            link = f'href="../../{target}">Chapter {number} on one page: {title}</a>'
            assert link in page and page.index(link) > page.index('class="abh-practice'), entry.slug  # at the foot


@pytest.mark.build
def test_the_summary_holds_each_lessons_formulas_sizes_and_sentences(site):
    number, title, entries = next(chapter for chapter in chapters() if chapter[1] == CHAPTER)
    page = summary_html(site, title)
    # KaTeX's TeX of the page, in one piece: a formula of several parts is cut into rows at its
    # \qquad and commas (macros/render/math_rows.py), so those are left out of the comparison
    written = untidy("".join(tex_on(page)))
    sentences = 0
    for entry in entries:
        for tex in entry.meta["formulas"]:
            assert untidy(tex) in written, (entry.slug, tex)
        s = summaries.sizes(computed.lesson(entry.slug))
        head = computed.lesson(entry.slug).trace.heads[0]
        assert head.K.shape[0] == head.Q.shape[0]  # no column of keys in this chapter: they are the queries' rows
        row = re.search(rf"<td>{re.escape(html.escape(entry.title, quote=False))}</td>(.*?)</tr>", page, re.S)
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))
        expected = [head.Q.shape[0], s.d_model, s.h, head.Q.shape[1], head.V.shape[1]]
        assert cells == [str(size) for size in expected], entry.slug
        lesson_page = (site.site / "lessons" / entry.slug / "index.html").read_text(encoding="utf-8")
        template = (sitebuild.PROJECT / "lessons" / entry.slug / "lesson.md").read_text(encoding="utf-8")
        said = remembered(page, entry.title)
        assert len(said) == template.count("{{ remember("), entry.slug
        for sentence in said:  # on the summary, not on the lesson's own page
            sentences += 1
            assert len(sentence) > 40 and sentence not in visible(lesson_page), (entry.slug, sentence)
    assert sentences >= 3
    assert f"Chapter {number} on one page: {title}" in page


# ---------------------------------------------------------------- printed and in the browser


@pytest.mark.browser
@pytest.mark.build
def test_each_summary_prints_on_one_or_two_a4_pages_with_nothing_cut(tabs, served_site, site, tmp_path):
    """Served, as A4 paper: every lesson title on the paper, at most two pages; laid out for
    print at the paper's width, no table or formula sticks out (negative control at 120 px)."""
    with reading(tabs, served_site, viewport={"width": A4_PRINTED_PX, "height": 900}) as reader:
        for _, title, entries in chapters():
            page = reader.open(track.summary_uri(title).replace(".md", ".html"))
            path = tmp_path / "summary.pdf"
            path.write_bytes(page.pdf(format="A4"))
            text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, check=True).stdout.decode()
            pages = [part for part in text.split("\f") if part.strip()]
            assert 1 <= len(pages) <= 2, (title, len(pages))
            flat = " ".join(text.split())
            assert all(entry.title in flat for entry in entries), title
            page.emulate_media(media="print")
            assert page.evaluate(WIDER_THAN_THE_PAGE) == [], title
        page.set_viewport_size({"width": 120, "height": 900})
        assert page.evaluate(WIDER_THAN_THE_PAGE) != []
        page.emulate_media(media="screen")
        assert reader.errors == [] and reader.foreign == []


@pytest.mark.browser
@pytest.mark.build
def test_a_summary_opened_from_disk_loads_with_no_console_error(tabs, site):
    """The first and the last chapter's (one template makes them all; served, every one loads
    in the printing test above)."""
    with reading(tabs, site.site.as_uri() + "/") as reader:
        every = chapters()
        for _, title, _ in (every[0], every[-1]):
            page = reader.open(track.summary_uri(title).replace(".md", ".html"))
            assert page.locator(".chapter-summary table").count() == 2
        assert reader.errors == [] and reader.foreign == []


def test_shapes_read_as_numbers():
    # the sizes of attention-by-hand: one query, four keys, Q, K and V given directly
    s = summaries.sizes(computed.lesson("attention-by-hand"))
    assert (s.n, s.keys, s.d_model, s.h, s.d_k, s.d_v) == (1, 4, None, 1, (2,), (2,))
