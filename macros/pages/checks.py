"""The rules a lesson page must pass beside rendering: checked on its template before it
renders, and on its Markdown after. Each failure is a PageError naming the file."""

import re

from macros.errors import LessonError
from macros.sources import prose


class PageError(LessonError):
    """A page that cannot be made: its message names the file and what to change."""


def refuse_typed_values(name, template, lesson):
    """A decimal typed in the prose, or a position, count or label typed in a claim, is a
    value no helper computed: refused, with the others of its kind named too."""
    labels = {*lesson.fixture.query_labels, *lesson.fixture.key_labels}
    message = prose.typed_numbers_message(name, template) or prose.typed_in_claims_message(name, template, labels)
    if message:
        raise PageError(message)


def checked(name, markdown, lesson, template):
    """The rendered Markdown, once no graded answer shows above its question, every shown
    calculation, redone from its shown numbers, gives its shown result, and every symbol of
    its math is in the glossary; the authors' marks on formulas that are not arithmetic
    taken out."""
    from macros.pages import arithmetic_marks, unseen_answers

    try:
        markdown = unseen_answers.enforce(name, markdown, lesson.decimals, template)
    except LessonError as error:
        raise PageError(str(error)) from None
    refuse_unchecked_arithmetic(name, markdown, lesson.decimals, template)
    markdown = arithmetic_marks.unmarked(markdown)
    refuse_undefined_symbols(name, markdown, template)
    refuse_unsettled_predictions(name, markdown, template)
    return markdown


def refuse_unchecked_arithmetic(name, markdown, places, template):
    """A PageError for the first formula the arithmetic check cannot read (at its template
    line when one matches it), a mark out of place, or a calculation that misses its result."""
    from macros.pages import arithmetic_marks, formula_lines, shown_arithmetic

    spans = [match.span() for match in shown_arithmetic.MATH.finditer(markdown)]
    for mark in arithmetic_marks.stray(markdown, spans):
        raise PageError(
            f"{mark.where}: a mark 'not arithmetic' outside a formula: write it inside the formula it marks"
        )
    found = shown_arithmetic.scan(markdown, places)
    for unread in found.unread:
        line = formula_lines.template_line(template, unread.tex)
        raise PageError(
            f"{name}{f':{line}' if line else ''}: the formula ${formula_lines.short(unread.tex)}$ writes numbers "
            f"beside = or ≈, but {unread.reason}; write it as a calculation of the shown numbers, or mark it "
            "inside the formula with {# not arithmetic: why #}"
        )
    for mark in found.needless:
        raise PageError(
            f"{mark.where}: the formula marked 'not arithmetic' ({mark.reason}) reads as arithmetic: "
            "remove the mark, so that the check redoes it"
        )
    for miss in found.misses:
        raise PageError(f"{name}: {miss}")


PREDICTION = re.compile(r'<div class="abh-predict" data-predict="([^"]+)"')


def refuse_unsettled_predictions(name, markdown, template):
    """Every prediction has something folded after it until the reader locks in (the display
    that settles it, ``data-reveal-after``), so the answer is never right under the question;
    refused at the template line of its ``predict(`` call."""
    for found in PREDICTION.finditer(markdown):
        prediction = found.group(1)
        if f'data-reveal-after="{prediction}"' in markdown[found.end() :]:
            continue
        call = re.search(rf"""predict\(\s*["']{re.escape(prediction)}["']""", template)
        where = f"{name}:{template.count(chr(10), 0, call.start()) + 1}" if call else name
        raise PageError(
            f"{where}: predict {prediction!r}: nothing after it waits for the lock-in; put the display that settles"
            f' it inside <div data-reveal-after="{prediction}" markdown> ... </div> (the author guide, section 6)'
        )


def refuse_undefined_symbols(name, markdown, template):
    """Every symbol the page's math uses has a glossary entry, so the glossary explains it;
    refused at the first template line whose math writes it (or the file, when the symbol
    comes from a helper or a shared partial)."""
    from macros.vocabulary import glossary

    undefined = sorted(glossary.symbols_in(markdown) - glossary.glossary_symbols())
    if not undefined:
        return
    lines = template.splitlines()
    line = next((n for n, text in enumerate(lines, 1) if set(undefined) & glossary.symbols_in(text)), None)
    where = f"{name}:{line}" if line else name
    raise PageError(
        f"{where}: the math uses {', '.join(undefined)}, which the glossary does not define: add each to GLOSSARY "
        "and to a section of SECTIONS in macros/vocabulary/glossary.py (every symbol in a lesson's math has an "
        "entry, which the glossary page shows)"
    )


def made_with(lesson):
    """The files published beside a lesson's page: its notebook and, when it has practice,
    the practice data script."""
    from macros.notebooks.build import notebook_bytes
    from macros.notebooks.names import script as notebook_script
    from macros.render import practice

    try:
        files = {"notebook": notebook_bytes(lesson).decode("utf-8")}
    except LessonError as error:
        raise PageError(str(error)) from None
    files["notebook_script"] = notebook_script(lesson, files["notebook"])
    if lesson.practice is not None:
        files["practice"] = practice.data_script(lesson)
    return files
