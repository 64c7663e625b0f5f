"""HTML for the interactive parts of a lesson, written so the page reads fully without them.

Every widget is plain HTML that makes sense with JavaScript off (questions as a list,
answers and hints in collapsible blocks, numbers and figures already computed), and says,
where its controls would be, that they need JavaScript and how to get it
(macros/render/noscript.py).
docs/assets/js/page.js and the modules it loads (checks.js, predict.js, takeaway.js,
labs.js, practice.js) enhance it in the reader's browser. The answers are the build-time
engine's numbers, written into data attributes here, so nothing drifts.

The contract with the page's script (classes and data attributes):

- ``script.abh-lesson`` (type application/json): {slug, title, decimals, fixture,
  requires, optional}; one per lesson page, emitted with the lesson's facts line.
- ``.abh-gate[data-gate][data-need][data-tolerance]`` holds ``li.abh-check[data-check]
  [data-answer]`` items, each with a ``.abh-label``. A typed answer x counts when
  |x − answer| ≤ tolerance: the boundary counts as right. ``data-with-prediction`` names a
  prediction whose final choice the gate's status also reports (and the gate needs right).
  ``p.abh-status`` shows what is met.
- ``.abh-predict[data-predict][data-correct]`` holds radio inputs (one per option, value
  from 1) and ``[data-predict-feedback]``, a folded block with one ``li[data-option]`` per
  option: its text (``.abh-option-text``) and its reason (``.abh-reason``). The script hides
  the feedback until the reader locks a choice in, then shows the chosen option's reason and
  moves focus to it; a wrong choice may be chosen again (every lock-in is kept, the last one
  counts), a right one is final, and then the other options follow, each once with its own
  reason. Elements with ``data-reveal-after="<prediction>"`` (the display that settles it)
  are hidden by the script until it is locked in; they show without the script and in print.
- ``.abh-hints[data-attempts-of="<gate>"]`` holds ``details.abh-hint[data-after="N"]``:
  a hint opens after N evaluated attempts on that gate's checks, or once the gate's numbers
  have landed, never by time. A step marked ``data-solution`` is a worked solution: by the
  book's one rule it opens after a right answer or after ``SOLUTION_AFTER`` (3) evaluated
  attempts, never from the start.
- ``li.abh-check[data-recall]`` marks a recall question: it asks again, on purpose, for a
  value the page has already shown (every other graded answer must be unseen before its
  question; macros/pages/unseen_answers.py enforces it at build time).
- ``.abh-fold[data-fold-until="<gate>"]`` is worked content the script hides until the
  reader's first evaluated attempt on that gate; with ``data-fold-checks="1 2 3"`` (positions
  in the gate), until each of those checks has landed or had ``SOLUTION_AFTER`` evaluated
  attempts. With the script off, and in print, it simply shows.
- ``.abh-why[data-why]`` holds a label; the script adds a one-line text box whose text is
  kept with the lesson's state (under ``whys``) and only ever shown back as text.
- ``.abh-takeaway[data-takeaway]`` holds the book's takeaway. The script puts an empty box
  before it for the reader's own and shows the book's once the reader saves theirs.
- ``.abh-lab[data-lab]`` is a live widget: ``.abh-editor[data-field][data-initial]``
  tables become editable cells for that fixture field (a dotted path such as
  ``heads.0.W_Q``); on every edit the twin engine recomputes and updates, inside the lab
  only, ``[data-bind]`` texts (a dotted trace path), ``rect[data-bar]`` bar lengths and
  ``rect[data-heat]`` cell shades. ``.abh-lab-message`` reports bad input. Values are
  formatted in groups, as the build formats them: a bound vector is one group, the
  single numbers of one ``svg.abh-figure`` are one group, and single numbers sharing a
  ``data-group`` (a figure's table twin) are one group.

State lives in localStorage under ``abh:<slug>``; see docs/assets/js/state.js.
"""

import html
import json

import numpy as np

from macros.errors import WidgetError
from macros.render import reasons
from macros.render.noscript import notice
from macros.render.numbers import format_masked, format_values

# The book's one rule for worked solutions: they open after a right answer or after this many
# evaluated attempts (docs/assets/js/checks.js SOLUTION_AFTER says the same).
SOLUTION_AFTER = 3


def _attrs(**values):
    return " ".join(
        f'{name.replace("_", "-")}="{html.escape(str(value), quote=True)}"' for name, value in values.items()
    )


def _number(x):
    """Full precision for data attributes: the browser compares against the exact value."""
    return repr(float(x))


def lesson_data(slug, title, decimals, fixture_plain, meta):
    """The lesson's own numbers for the browser; ``</`` is escaped so JSON cannot end the script."""
    data = {
        "slug": slug,
        "title": title,
        "decimals": decimals,
        "fixture": fixture_plain,
        "requires": meta.get("requires", []),
        "optional": bool(meta.get("optional", False)),
    }
    text = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return f'<script type="application/json" class="abh-lesson">{text}</script>'


def gate(name, questions, need, tolerance, with_prediction=None, recall=False):
    """A list of numeric questions, ``need`` of which must land within ``tolerance``.

    ``questions`` is a list of (label, answer) with answers from the trace; each check's
    id is the gate's name and its position, which keeps a reader's saved answers attached.
    ``recall`` marks every question as asking again for a value already shown.
    """
    if not 1 <= need <= len(questions):
        raise WidgetError(f"gate {name!r}: expected to need 1 to {len(questions)} answers, got {need}")
    if not tolerance >= 0:
        raise WidgetError(f"gate {name!r}: expected a tolerance of at least 0, got {tolerance}")
    extra = {"data_with_prediction": with_prediction} if with_prediction else {}
    items = "\n".join(
        f'<li class="abh-check" {_attrs(data_check=f"{name}-{i}", data_answer=_number(answer))}'
        f"{' data-recall' if recall else ''}>"
        f'<span class="abh-label">{html.escape(label)}</span></li>'
        for i, (label, answer) in enumerate(questions, 1)
    )
    return (
        f'<div class="abh-gate" {_attrs(data_gate=name, data_need=need, data_tolerance=_number(tolerance), **extra)}'
        " data-search-exclude>\n"
        f'<ol class="abh-checks">\n{items}\n</ol>\n'
        f"{notice('Checking your answers here')}\n"
        f'<p class="abh-status" aria-live="polite" hidden></p>\n</div>'
    )


def predict(name, question, options):
    """A prediction locked in before the computation it predicts.

    Options are (text, holds, reason) triples: ``holds`` is computed from the lesson's numbers
    and exactly one option must hold, so a prediction is a claim the build keeps true. The
    reasons (plain text, read out after lock-in) say why an option holds or fails, each its
    own, and a wrong one without naming the right option (macros/render/reasons.py). The
    feedback stays folded (and, with scripts on, hidden) until the reader locks a choice in.
    """
    if len(options) < 2:
        raise WidgetError(f"predict {name!r}: expected at least two options, got {len(options)}")
    holding = [i for i, (_, holds, _) in enumerate(options, 1) if holds]
    if len(holding) != 1:
        raise WidgetError(
            f"predict {name!r}: expected exactly one option that holds for these numbers,"
            f" got {len(holding)}{' (options ' + ', '.join(map(str, holding)) + ')' if holding else ''}"
        )
    reasons.check(name, [text for text, _, _ in options], [reason for _, _, reason in options], holding[0])
    group = f"abh-predict-{name}"
    choices = "\n".join(
        f'<label class="abh-option"><input type="radio" {_attrs(name=group, value=i)}> {html.escape(text)}</label>'
        for i, (text, _, _) in enumerate(options, 1)
    )
    feedback = "\n".join(
        f'<li {_attrs(data_option=i)}><p class="abh-option-text">{html.escape(text)}</p>\n'
        f'<p class="abh-reason">{html.escape(reason)}</p></li>'
        for i, (text, _, reason) in enumerate(options, 1)
    )
    return (
        f'<div class="abh-predict" {_attrs(data_predict=name, data_correct=holding[0])} data-search-exclude>\n'
        f'<fieldset><legend class="abh-question">{html.escape(question)}</legend>\n{choices}\n</fieldset>\n'
        f"{notice('Locking in your prediction here')}\n"
        '<details class="abh-predict-feedback" data-predict-feedback><summary>What each answer means</summary>\n'
        f"<ol>\n{feedback}\n</ol>\n</details>\n</div>"
    )


def takeaway(name, text):
    return (
        f'<div class="abh-takeaway" {_attrs(data_takeaway=name)}>\n<p>{html.escape(text)}</p>\n'
        f"{notice('Writing and keeping your own takeaway here')}\n</div>"
    )


def editor(field, matrix, label, decimals):
    """A matrix shown as a table; labs.js turns its cells into inputs for ``field``."""
    matrix = np.atleast_2d(np.asarray(matrix, dtype=float))
    texts = format_values(matrix, decimals)
    width = matrix.shape[1]
    rows = "".join(
        "<tr>" + "".join(f"<td>{texts[r * width + c]}</td>" for c in range(width)) + "</tr>"
        for r in range(matrix.shape[0])
    )
    initial = json.dumps(matrix.tolist())
    return (
        f'<figure class="abh-editor" {_attrs(data_field=field, data_initial=initial)}>'
        f'<figcaption>{html.escape(label)}</figcaption><table class="abh-matrix">{rows}</table></figure>'
    )


def bound_rows(path, matrix, visible, decimals, labels):
    """Table rows of a matrix whose cells stay current in a lab: one format for the matrix
    (as its heat map has), masked cells written as the exact 0 they hold, ``data-group`` tying the cells
    together so the browser formats them as one group too."""
    texts = format_masked(matrix, visible, decimals)
    return [
        [label]
        + [
            "0" if text is None else f"<span {_attrs(data_bind=f'{path}.{i}.{j}', data_group=path)}>{text}</span>"
            for j, text in enumerate(row)
        ]
        for i, (label, row) in enumerate(zip(labels, texts, strict=True))
    ]


def bound(path, values, decimals):
    """Text of one computed number or row, kept current by a lab: ``data-bind`` is its trace path."""
    return f"<span {_attrs(data_bind=path)}>{', '.join(format_values(values, decimals))}</span>"


def check(name, question, answer, tolerance, hints=(), solution="", recall=False):
    """One graded number in one call: the question, a hint ladder that opens one hint per
    evaluated attempt, and the worked solution, which opens after a right answer or after
    ``SOLUTION_AFTER`` evaluated attempts. ``hints`` and ``solution`` are Markdown (math
    included); the check's id is ``<name>-1``."""
    if not hints and not solution:
        raise WidgetError(f"check {name!r}: expected at least one hint or a solution, got neither")
    steps = [(after, f"Hint {after}", hint, "") for after, hint in enumerate(hints, 1)]
    steps += [(SOLUTION_AFTER, "Worked solution", solution, " data-solution")] if solution else []
    details = "\n".join(
        f'<details class="abh-hint" data-after="{after}"{mark} markdown>\n'
        f"<summary>{title}</summary>\n\n{text}\n\n</details>"
        for after, title, text, mark in steps
    )
    return (
        gate(name, [(question, answer)], 1, tolerance, recall=recall)
        + f'\n\n<div class="abh-hints" {_attrs(data_attempts_of=name)} data-search-exclude markdown>\n{details}\n</div>'
    )


def fold(gate_name, caller, checks=()):
    """Worked content kept folded until the reader's first attempt at ``gate_name``; with
    ``checks`` (positions in the gate, from 1), until each of those questions has landed or
    had ``SOLUTION_AFTER`` evaluated attempts: content holding several answers then opens by
    the rule of a worked solution, for each answer it holds, not after any one attempt."""
    positions = list(checks)
    if not all(isinstance(p, int) and p >= 1 for p in positions):
        raise WidgetError(f"fold {gate_name!r}: expected checks as positions in the gate from 1, got {positions}")
    extra = {"data_fold_checks": " ".join(map(str, positions))} if positions else {}
    attrs = _attrs(data_fold_until=gate_name, **extra)
    return f'<div class="abh-fold" {attrs} data-search-exclude markdown>\n\n{caller()}\n\n</div>'


def why(name, label):
    """A one-line reason the reader writes beside a prediction, kept with the lesson's state."""
    return f'<div class="abh-why" {_attrs(data_why=name)}>\n<p class="abh-why-label">{html.escape(label)}</p>\n</div>'
