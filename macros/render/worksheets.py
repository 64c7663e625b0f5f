"""The pages a class prints: a worksheet beside each lesson, and the class set.

A worksheet is a lesson's practice on paper: ``lessons/<slug>/worksheet.html?set=N`` shows the
questions of set N (0, the lesson's own numbers, to the lesson's count of new sets), with every
number they are computed from and room to work, and ``&key=1`` the same set's answer key. The
class set, ``worksheets.html``, prints one sheet per student (the chosen lessons on one set,
each student's set the next) and, separately, their keys.

Both are pages of plain HTML made here at build time, around no number: the numbers, the words
of each question, the answers and the worked solutions are the lesson's ``practice.js``, the data
file its practice panel loads (macros/render/practice.py's contract), which the page loads as
a classic script, so that it works from a folder on disk. ``assets/js/sheets.js`` (the bundle
of docs/assets/js/sheets.js) lays a chosen set out with plain DOM: no math is typeset, no page
weight of the lesson's is loaded, and no number is computed in the browser.

The contract, for the script and the tests: ``main#abh-sheets[data-lessons]`` holds the lessons
that may be printed, a JSON list of {slug, title, chapter, decimals, source} (``source``: the
data file's address from the page); a page for one lesson has ``data-single``.
"""

import html
import json

from macros.render.subscripts import marked

SCRIPT = "assets/js/sheets.js"
STYLE = "assets/css/worksheet.css"
ICON = "assets/images/favicon.png"  # the theme's, which its pages link: without a link a browser asks for /favicon.ico
LESSON_PAGE = "worksheet.html"
CLASS_PAGE = "worksheets.html"

HOW_TO = (
    "Choose a set of numbers (each set is a student's own; 0 is the lesson's own numbers), then print. "
    "The answer key prints on its own pages, from the same choice."
)


def lesson_entry(entry, chapter_title, source):
    """What the script needs of a lesson: its names, its number format and where its data is."""
    return {
        "slug": entry.slug,
        "title": entry.title,
        "chapter": chapter_title,
        "decimals": entry.meta.get("decimals", 3),
        "source": source,
    }


def shell(title, heading, intro, lessons, up, single):
    """A page: the controls (which the print leaves out), the sheets' place, the data and script."""
    data = html.escape(json.dumps(lessons, ensure_ascii=False), quote=True)
    scripts = "".join(f'<script src="{html.escape(lesson["source"])}"></script>' for lesson in lessons if single)
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n"
        f'<link rel="icon" href="{up}{ICON}">\n<link rel="stylesheet" href="{up}{STYLE}">\n</head>\n<body>\n'
        '<header class="abh-sheets-controls">\n'
        f'<p class="abh-sheets-back"><a href="{up}index.html">Attention by Hand</a></p>\n'
        f"<h1>{marked(heading)}</h1>\n<p>{html.escape(intro)}</p>\n"  # d_k as on the sheets
        '<form class="abh-sheets-form" aria-label="What to print"></form>\n'
        "<noscript><p>This page lays out the sheets with a script: turn scripts on to print them.</p></noscript>\n"
        "</header>\n"
        f'<main id="abh-sheets" data-lessons="{data}"{" data-single" if single else ""}></main>\n'
        f'{scripts}<script src="{up}{SCRIPT}"></script>\n</body>\n</html>\n'
    )


def lesson_page(entry, chapter_title):
    """The worksheet beside a lesson's page, reading the practice.js beside it."""
    lesson = lesson_entry(entry, chapter_title, "practice.js")
    return shell(
        f"Worksheet: {entry.title}",
        f"Worksheet: {entry.title}",
        HOW_TO,
        [lesson],
        "../../",
        single=True,
    )


def class_page(chapters, entries):
    """The class set: every lesson, by chapter, each reading its own practice.js when chosen."""
    lessons = [
        lesson_entry(entry, chapters[entry.chapter - 1], f"lessons/{entry.slug}/practice.js") for entry in entries
    ]
    intro = (
        "Choose lessons and a range of sets, one set per student: each student's sheet holds the chosen lessons "
        "on that student's set of numbers and starts on a new page. Print the sheets, then the answer key."
    )
    return shell("Worksheets for a class", "Worksheets for a class", intro, lessons, "", single=False)


def pages(chapters, entries):
    """{site path: HTML text} of every worksheet page."""
    made = {CLASS_PAGE: class_page(chapters, entries)}
    for entry in entries:
        made[f"lessons/{entry.slug}/{LESSON_PAGE}"] = lesson_page(entry, chapters[entry.chapter - 1])
    return made
