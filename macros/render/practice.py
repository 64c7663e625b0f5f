"""The practice element of a lesson page, and the data file of its sets of new numbers.

The page carries the exercise on the lesson's own numbers (variant 0): it reads with scripts
off. Its sets of new numbers, computed at build time (macros/practice/build.py), are in a
data file beside the page, ``practice.js``, which the page's script loads on first use (New
numbers, or an address ending in ``?variant=N``). It is a script, not JSON, so that a page
opened from a folder on disk, which may not fetch a file, can load it too.

The contract, for the script, the tests and outside tools:

- ``.abh-practice[data-practice][data-variant][data-count][data-fixture][data-decimals][data-source]``:
  the lesson's slug, the variant shown (0), how many sets of new numbers there are, the shown
  variant's numbers (the fixture's JSON form), the lesson's decimals and the data file.
- ``.abh-practice-inputs``: the numbers the questions are computed from, one table per matrix.
- ``li.abh-practice-check[data-path][data-answer][data-tolerance]`` (and ``data-low``,
  ``data-high``, ``data-whole``, ``data-why`` where the quantity has a range): one per graded
  value, its label in the reader's words, how close an answer must be, and its worked solution
  (``.abh-practice-solution``), hidden until it may open.
- The data file sets ``window.abhPractice[slug] = {count, variants: [{variant, fixture,
  answers, solutions, inputs: {tables: [[caption, rows of texts]], notes: [text]}}]}``,
  answers and solutions in the order of the checks, numbers formatted as the page formats
  them.
"""

import html
import json

from macros.engine import positions
from macros.render.numbers import format_rows, format_values
from macros.sources import folders

HEADING = "## Practice on new numbers"
MARKER = 'class="abh-practice"'
DATA_FILE = folders.PRACTICE_FILE
NAMES = {"W_Q": "W_Q", "W_K": "W_K", "W_V": "W_V", "W_O": "W_O", "X": "X", "Q": "Q", "K": "K", "V": "V"}


def _attrs(**values):
    return " ".join(
        f'{name.replace("_", "-")}="{html.escape(str(value), quote=True)}"'
        for name, value in values.items()
        if value is not None
    )


def inputs(fixture, places):
    """The numbers a question is computed from, as (caption, rows of texts) and (caption, text):
    every matrix of the layer, head by head, and the settings that change what it computes."""
    tables, heads = [], fixture.get("heads", [])
    for name in ("X", "Q", "K", "V", "source"):
        if name in fixture:
            caption = "the source's rows (keys and values come from them)" if name == "source" else name
            tables.append((caption, format_rows(fixture[name], places)))
    for i, head in enumerate(heads):
        for name in ("W_Q", "W_K", "W_V"):
            tables.append((f"{name} of head {i + 1}" if len(heads) > 1 else name, format_rows(head[name], places)))
    if "W_O" in fixture:
        tables.append(("W_O", format_rows(fixture["W_O"], places)))
    if "upstream" in fixture:
        tables.append(("upstream, the loss's gradient dY", format_rows(fixture["upstream"], places)))
    notes = []
    if fixture.get("causal"):
        notes.append("The mask is causal: position i sees positions 1 to i.")
    if "key_length" in fixture:
        lengths = fixture["key_length"] if isinstance(fixture["key_length"], list) else [fixture["key_length"]]
        notes.append(
            "Valid lengths (keys after them are padding, hidden from every query): "
            + ", ".join(map(str, lengths))
            + "."
        )
    encoding = fixture.get("positions", {}).get("encoding")
    if encoding == "sinusoidal":
        PE = positions.sinusoidal(len(fixture["X"]), len(fixture["X"][0]))
        tables.append(("PE, the position encodings added to X before the projections", format_rows(PE, places)))
    elif encoding == "rotary":
        base = fixture["positions"].get("base", 10000)
        notes.append(
            f"Rotary positions, base {base:g}: the query and key at position p (counted from 0 here) turn each "
            "coordinate pair (1, 2), (3, 4), … by p·θ_i, θ_i = base^(−2i/d_k)."
        )
    for name, value in fixture.get("params", {}).items():
        shown = ", ".join(format_values(value if isinstance(value, list) else [value], places))
        notes.append(f"{name} = {shown}")
    return tables, notes


def inputs_html(fixture, places):
    tables, notes = inputs(fixture, places)
    figures = "".join(
        f'<figure><figcaption>{html.escape(caption)}</figcaption><table class="abh-matrix">'
        + "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
        + "</table></figure>"
        for caption, rows in tables
    )
    said = "".join(f"<p>{html.escape(note)}</p>" for note in notes)
    return f'<div class="abh-practice-inputs">{figures}{said}</div>'


def check_item(check, answer, solution):
    q = check.quantity
    attrs = _attrs(
        data_path=check.path,
        data_answer=repr(float(answer)),
        data_tolerance=repr(float(q.tolerance)),
        data_low=None if q.low is None else repr(float(q.low)),
        data_high=None if q.high is None else repr(float(q.high)),
        data_whole="true" if q.whole else None,
        data_why=q.why or None,
    )
    label = q.words[:1].upper() + q.words[1:]
    lines = "".join(f"<li>{html.escape(line)}</li>" for line in solution)
    return (
        f'<li class="abh-practice-check" {attrs}>'
        f'<span class="abh-practice-label">{html.escape(label)}.</span> '
        f'<span class="abh-practice-tolerance">{html.escape(q.stated)}</span>'
        f'<div class="abh-practice-solution" hidden><p>Worked solution</p><ol>{lines}</ol></div></li>'
    )


def element(lesson):
    """The practice element for variant 0, or '' for a lesson without a practice block."""
    practice = lesson.practice
    if practice is None:
        return ""
    own = practice.variants[0]
    items = "\n".join(
        check_item(check, answer, solution)
        for check, answer, solution in zip(practice.checks, own.answers, own.solutions, strict=True)
    )
    attrs = _attrs(
        data_practice=lesson.slug,
        data_variant=0,
        data_count=practice.spec.variants,
        data_fixture=json.dumps(own.fixture),
        data_decimals=lesson.decimals,
        data_source=DATA_FILE,
    )
    return (
        f'<div class="abh-practice" {attrs} data-search-exclude>\n'
        '<p class="abh-practice-intro">The same kind of question on other numbers. These are the '
        "lesson's own; with scripts on, <em>New numbers</em> gives another set, and the answers are checked "
        "for you.</p>\n"
        f"{inputs_html(own.fixture, lesson.decimals)}\n"
        f'<ol class="abh-practice-checks">\n{items}\n</ol>\n</div>'
    )


def placed(lesson, markdown):
    """The page's Markdown with the practice element at its end, unless the lesson placed it itself."""
    if lesson.practice is None or MARKER in markdown:
        return markdown
    return f"{markdown.rstrip()}\n\n{HEADING}\n\n{element(lesson)}\n"


def data_script(lesson):
    """The text of the lesson's practice.js: its sets of new numbers, for the page's script,
    each with the tables and notes of its numbers as the page shows them."""
    data = lesson.practice.to_data()
    for variant in data["variants"]:
        tables, notes = inputs(variant["fixture"], lesson.decimals)
        variant["inputs"] = {"tables": [[caption, rows] for caption, rows in tables], "notes": notes}
    data = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    slug = json.dumps(lesson.slug)
    return f"(window.abhPractice = window.abhPractice || {{}})[{slug}] = {data};\n"
