"""The practice element of a lesson page: the exercise again, on new numbers drawn in the browser.

The build writes variant 0 (the lesson's own numbers) with its answers, so the element reads
with scripts off; docs/assets/js/practice/widget.js draws other variants with the browser's
twin of the generator and engine. The contract, for the script, tests and outside tools:

- ``.abh-practice[data-variant][data-fixture][data-spec][data-decimals]``: the variant's
  number, its fixture's JSON form, the generator's JSON form (``generator.to_plain``) and
  the lesson's decimals.
- ``li.abh-practice-check[data-path][data-answer]``, one per graded value: the trace path
  (``heads.1.weights.2.0``) and the variant's answer at full precision.
"""

import html
import json

from macros.render.lesson_widgets import key_labels, query_labels

HEADING = "## Practice on new numbers"
MARKER = 'class="abh-practice"'

# What a trace path's field is, in a reader's words: (matrix, what a row is, what a column is).
WORDS = {
    "weights": ("the weight", "query", "key"),
    "scores": ("the raw score", "query", "key"),
    "scaled": ("the scaled score", "query", "key"),
    "exps": ("the exponential", "query", "key"),
    "output": ("coordinate {c} of the reading", "position", None),
    "Q": ("coordinate {c} of the query", "position", None),
    "K": ("coordinate {c} of the key", "position", None),
    "V": ("coordinate {c} of the value", "position", None),
}


def _attrs(**values):
    return " ".join(
        f'{name.replace("_", "-")}="{html.escape(str(value), quote=True)}"' for name, value in values.items()
    )


def question(lesson, path):
    """A graded value named in a reader's words: 'Head 2: the weight of key “cat” for query “mouse”'."""
    parts = str(path).split(".")
    queries, keys = query_labels(lesson), key_labels(lesson)
    if len(parts) == 5 and parts[0] == "heads" and parts[2] in WORDS:
        head, field, row, col = int(parts[1]), parts[2], int(parts[3]), int(parts[4])
        what, _, column = WORDS[field]
        whose = f"Head {head + 1}: " if lesson.trace.n_heads > 1 else ""
        if column == "key":
            return f"{whose}{what} of key “{keys[col]}” for query “{queries[row]}”"
        return f"{whose}{what.format(c=col + 1)} at “{queries[row]}”"
    if len(parts) == 3 and parts[0] == "output":
        return f"Coordinate {int(parts[2]) + 1} of the layer's output at “{queries[int(parts[1])]}”"
    return f"The value at {path}"


def element(lesson):
    """The practice element for variant 0, or '' for a lesson without a practice block."""
    practice = lesson.practice
    if practice is None:
        return ""
    items = "\n".join(
        f'<li class="abh-practice-check" {_attrs(data_path=path, data_answer=repr(float(answer)))}>'
        f'<span class="abh-practice-label">{html.escape(question(lesson, path))}</span></li>'
        for path, answer in zip(practice.spec["answers"], practice.answers, strict=True)
    )
    attrs = _attrs(
        data_variant=0,
        data_fixture=json.dumps(lesson.plain_fixture),
        data_spec=json.dumps(practice.spec),
        data_decimals=lesson.decimals,
    )
    return (
        f'<div class="abh-practice" {attrs} data-search-exclude>\n'
        '<p class="abh-practice-intro">The same kind of question on other numbers: with scripts on, '
        "this part draws new numbers, checks your answer and shows the steps.</p>\n"
        f'<ol class="abh-practice-checks">\n{items}\n</ol>\n</div>'
    )


def placed(lesson, markdown):
    """The page's Markdown with the practice element at its end, unless the lesson placed it itself."""
    if lesson.practice is None or MARKER in markdown:
        return markdown
    return f"{markdown.rstrip()}\n\n{HEADING}\n\n{element(lesson)}\n"
