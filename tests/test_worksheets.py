"""Worksheets on paper: a lesson's worksheet, a class set and its key, printed to PDF by Chromium.

The pages are macros/render/worksheets.py's, laid out by docs/assets/js/sheets.js from each
lesson's practice.js. The test prints them as a teacher would (``page.pdf``, A4 and US Letter)
and reads the paper's text back with ``pdftotext`` (Debian's poppler-utils; .ci/run installs
it), minus signs (U+2212) and zero-width spaces (U+200B) normalised. Expected values are the
practice data's own (the data file the practice panels load, read here by Python), never the
page's script:

- every student sheet starts a page and holds every number of its set (each row of each
  table, each note) and no answer, in any way an answer can be written (the lesson's decimals
  or any other count of them, whole, with thousands separators), no worked solution and no
  key; the key, printed apart, gives each answer as the build's formatter writes it and its
  exact value, equal to the data's;
- no table is wider than an A4 page's printed width;
- the pages pass the accessibility scan and load with no console error, served and from disk.

An answer that is also a number the sheet gives (a small whole count, a 1 in a matrix) cannot
be told from it on paper; such forms are left out of the search, and the answer lines are
checked to be blank instead. The negative control runs the same search over the key, where
it must find every answer.
"""

import json
import re
import shutil
import subprocess

import pytest
from axe_playwright_python.sync_playwright import Axe

from macros.render.numbers import format_number
from tests.test_accessibility import FAILING, violations_on
from tests.test_browser import reading
from tests.test_reader_words import build_talk

pytestmark = [pytest.mark.browser, pytest.mark.build]

CLASS_LESSONS = ("masks", "kv-cache", "paged-kv-cache")  # decimals; large whole answers (12,345); small counts
SETS = range(1, 6)
ONE = "why-scale"
ONE_SET = 7
MINUS, ZERO_WIDTH = "\u2212", "\u200b"
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
SUBSCRIPT = re.compile(r"(?<![A-Za-z0-9_])([A-Za-zθ])_([A-Za-z0-9]+)")  # render/practice.py's: W_Q prints WQ


def practice_data(site, slug):
    """The sets of a lesson, as its practice.js holds them."""
    text = (site.site / "lessons" / slug / "practice.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("] = ") + 4 :].rstrip().rstrip(";"))


def decimals_of(site, slug):
    main = (site.site / "lessons" / slug / "worksheet.html").read_text(encoding="utf-8")
    found = re.search(r'data-lessons="([^"]*)"', main).group(1).replace("&quot;", '"')
    return json.loads(found)[0]["decimals"]


def normal(text):
    return text.replace(MINUS, "-").replace(ZERO_WIDTH, "")


def pdf_text(pdf_bytes, tmp_path, name):
    """The printed pages' texts, in their layout (rows of a table on one line)."""
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf_bytes)
    done = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True)
    return [normal(page) for page in done.stdout.decode("utf-8").split("\f") if page.strip()]


def printed(page, url, paper):
    page.goto(url)
    page.wait_for_selector("html[data-abh-ready]", state="attached", timeout=30000)
    return page.pdf(format=paper, print_background=False)


def written_forms(value, whole):
    """Ways an answer can be written: to 1 to 6 decimals; whole, with or without separators."""
    forms = {f"{value:.{places}f}" for places in range(1, 7)}
    if whole or float(value).is_integer() or abs(value) >= 10:
        forms |= {f"{round(value)}", f"{round(value):,}"}
    return {normal(form) for form in forms}


def given_numbers(set_):
    """Every number a sheet gives for a set: its tables, notes, questions' words and tolerances."""
    texts = [cell for _, rows in set_["inputs"]["tables"] for row in rows for cell in row]
    texts += (
        set_["inputs"]["notes"] + [q["label"] for q in set_["questions"]] + [q["stated"] for q in set_["questions"]]
    )
    texts += [caption for caption, _ in set_["inputs"]["tables"]]
    return {token.rstrip(",") for text in texts for token in NUMBER.findall(normal(text))}


def answers_found(text, sets):
    """The answers of ``sets`` that ``text`` writes in some form other than a number the sheets give."""
    given = set().union(*(given_numbers(s) for s in sets))
    tokens = {token.rstrip(",") for token in NUMBER.findall(text)}
    found = []
    for s in sets:
        for q in s["questions"]:
            hits = (written_forms(q["answer"], q["whole"]) - given) & tokens
            found += [(s["variant"], q["answer"], sorted(hits))] if hits else []
    return found


def rows_missing(text, set_):
    """The rows and notes of a set's numbers that the printed text does not hold."""
    flat = " ".join(text.split())
    missing = []
    for caption, rows in set_["inputs"]["tables"]:
        for row in rows:
            if not re.search(r"\s+".join(map(re.escape, map(normal, row))), text):
                missing.append((caption, row))
    for note in set_["inputs"]["notes"]:
        if " ".join(normal(SUBSCRIPT.sub(r"\1\2", note)).split()) not in flat:
            missing.append(("note", note))
    return missing


def sheets_of(pages, heading):
    """{set number: text of its pages}: a sheet starts at a page whose first line is its heading."""
    sheets, current = {}, None
    for text in pages:
        first = text.strip().splitlines()[0].strip()
        found = re.fullmatch(rf"{heading}, set (\d+)", first)
        if found:
            current = int(found.group(1))
            sheets[current] = ""
        assert current is not None, f"a page before the first sheet: {first!r}"
        sheets[current] += text + "\n"
    return sheets


def key_answer(q, decimals):
    """The key's answer as the build's formatter writes it (macros.render.numbers)."""
    return f"{round(q['answer']):,}" if q["whole"] else normal(format_number(q["answer"], decimals))


@pytest.fixture(params=["file", "http"])
def reader(request, tabs, site):
    base = site.site.as_uri() + "/" if request.param == "file" else request.getfixturevalue("served_site")
    with reading(tabs, base, viewport={"width": 1000, "height": 900}) as reader:
        yield reader


@pytest.fixture(scope="module")
def pdftotext():
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is missing: install Debian's poppler-utils (.ci/run does)")


def test_a_class_set_prints_every_sheet_on_its_own_pages_with_no_answer(reader, site, tmp_path, pdftotext):
    data = {slug: practice_data(site, slug) for slug in CLASS_LESSONS}
    choice = f"worksheets.html?lessons={','.join(CLASS_LESSONS)}&from={SETS[0]}&to={SETS[-1]}"
    page = reader.page
    pages = pdf_text(printed(page, reader.base + choice, "A4"), tmp_path, "sheets")
    student_dom = normal(page.inner_text("main"))
    sheets = sheets_of(pages, "Worksheet")
    assert sorted(sheets) == list(SETS)
    for number, text in sheets.items():
        sets = [next(s for s in data[slug]["variants"] if s["variant"] == number) for slug in CLASS_LESSONS]
        for slug, set_ in zip(CLASS_LESSONS, sets, strict=True):
            assert rows_missing(text, set_) == [], (slug, number)
        assert answers_found(text, sets) == [], number
        for set_ in sets:
            for q in set_["questions"]:
                assert all(normal(line) not in student_dom for line in q["solution"]), q["solution"]
        assert re.findall(r"Answer \(set \d+, [^)]*\): (\S*)", text) == ["_" * 22] * sum(
            len(s["questions"]) for s in sets
        )
    assert not re.search(r"Worked solution|exact value|Answer key", "\n".join(pages))
    assert page.locator(".abh-key").count() == 0
    print(f"class set: {len(CLASS_LESSONS)} lessons x {len(SETS)} sets, {len(pages)} A4 pages")

    key_pages = pdf_text(printed(page, reader.base + choice + "&key=1", "Letter"), tmp_path, "key")
    keys = sheets_of(key_pages, "Answer key")
    assert sorted(keys) == list(SETS)
    for number, text in keys.items():
        sets = [next(s for s in data[slug]["variants"] if s["variant"] == number) for slug in CLASS_LESSONS]
        expected = [q["answer"] for s in sets for q in s["questions"]]
        exact = [float(v) for v in re.findall(r"exact value (\S+)\)", text)]
        assert exact == expected, number
        shown = re.findall(r"Answer: (\S+) \(exact", text)
        decimals = [decimals_of(site, slug) for slug in CLASS_LESSONS]
        assert shown == [key_answer(q, d) for s, d in zip(sets, decimals, strict=True) for q in s["questions"]]
        # Negative control: the search that found nothing on the sheets finds here every answer
        # the key writes as a number no sheet gives (a whole 3 is also a matrix's 3).
        given = set().union(*(given_numbers(s) for s in sets))
        findable = [
            q["answer"]
            for s, d in zip(sets, decimals, strict=True)
            for q in s["questions"]
            if key_answer(q, d) not in given
        ]
        assert findable and [answer for _, answer, _ in answers_found(text, sets)] == findable, number
    assert reader.errors == [] and reader.foreign == []


def test_a_lesson_worksheet_prints_its_set_and_its_key_apart(reader, site, tmp_path, pdftotext):
    set_ = next(s for s in practice_data(site, ONE)["variants"] if s["variant"] == ONE_SET)
    url = reader.base + f"lessons/{ONE}/worksheet.html?set={ONE_SET}"
    pages = pdf_text(printed(reader.page, url, "Letter"), tmp_path, "one")
    assert pages[0].strip().startswith(f"Worksheet, set {ONE_SET}")
    text = "\n".join(pages)
    assert rows_missing(text, set_) == [] and answers_found(text, [set_]) == []
    key = "\n".join(pdf_text(printed(reader.page, url + "&key=1", "A4"), tmp_path, "one-key"))
    assert [float(v) for v in re.findall(r"exact value (\S+)\)", key)] == [q["answer"] for q in set_["questions"]]
    assert reader.errors == [] and reader.foreign == []


def test_the_search_for_answers_finds_one_written_on_a_sheet(site):
    """Negative control for answers_found and rows_missing on text made by hand."""
    set_ = practice_data(site, ONE)["variants"][ONE_SET]
    answer = set_["questions"][0]["answer"]
    assert answers_found(f"some words {answer:.3f} more", [set_]) != []
    assert answers_found(f"some words {answer:.4f}", [set_]) != []
    assert rows_missing("nothing here", set_) != []


WIDER_THAN_THE_PAGE = """() => [...document.querySelectorAll('main table, main p, main li')]
    .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
    .map(e => [e.closest('section').dataset.slug, e.textContent.slice(0, 40)])"""


def test_no_table_is_wider_than_a_printed_page(tabs, served_site, site):
    """Every lesson's set 1 on one class set, laid out for print at an A4 page's printed width
    (210 mm less worksheet.css's margins of 14 mm a side: 688 px); negative control: at 400 px
    the widest tables stick out."""
    slugs = [p.parent.name for p in sorted((site.site / "lessons").glob("*/worksheet.html"))]
    with tabs.lend(viewport={"width": 688, "height": 900}) as page:
        page.goto(served_site + f"worksheets.html?lessons={','.join(slugs)}&from=1&to=1")
        page.wait_for_selector("html[data-abh-ready]", state="attached", timeout=30000)
        page.emulate_media(media="print")
        assert page.evaluate("matchMedia('print').matches")
        count = page.locator("main section.abh-sheet-lesson").count()
        wide = page.evaluate(WIDER_THAN_THE_PAGE)
        page.set_viewport_size({"width": 400, "height": 900})
        too_narrow = page.evaluate(WIDER_THAN_THE_PAGE)
        page.emulate_media(media="screen")
    assert count == len(slugs) > 20
    assert wide == []
    assert too_narrow != []


PAGES = [f"lessons/{ONE}/worksheet.html?set=2", f"lessons/{ONE}/worksheet.html?set=2&key=1"] + [
    f"worksheets.html?lessons={','.join(CLASS_LESSONS)}&from=1&to=2" + key for key in ("", "&key=1")
]


@pytest.mark.parametrize("path", PAGES)
def test_worksheet_pages_load_with_no_console_error(reader, path):
    reader.open(path)
    assert reader.page.locator("main article").count() >= 1
    assert reader.errors == [] and reader.foreign == []


@pytest.mark.parametrize("path", PAGES)
def test_worksheet_pages_pass_the_accessibility_scan(tabs, served_site, path):
    """Served only: from disk, axe's own requests for the stylesheets are refused (it reads them
    for its rules), which says nothing of the page."""
    with tabs.lend(color_scheme="light") as page:
        page.goto(served_site + path)
        page.wait_for_selector("html[data-abh-ready]", state="attached", timeout=30000)
        found = [v for v in violations_on(page, Axe()) if v[1] in FAILING]
    assert found == []


def test_worksheet_pages_speak_to_readers(site):
    """The pages' own words (their data left out), by tests/test_reader_words.py's rule."""
    for path in ("worksheets.html", f"lessons/{ONE}/worksheet.html"):
        assert build_talk((site.site / path).read_text(encoding="utf-8")) == [], path
