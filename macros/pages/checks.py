"""The rules a lesson page must pass beside rendering: checked on its template before it
renders, and on its Markdown after. Each failure is a PageError naming the file."""

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
    """The rendered Markdown, once no graded answer shows above its question and every shown
    calculation, redone from its shown numbers, gives its shown result."""
    from macros.pages import shown_arithmetic, unseen_answers

    try:
        markdown = unseen_answers.enforce(name, markdown, lesson.decimals, template)
    except LessonError as error:
        raise PageError(str(error)) from None
    for miss in shown_arithmetic.misses(markdown, lesson.decimals):
        raise PageError(f"{name}: {miss}")
    refuse_undefined_symbols(name, markdown, template)
    return markdown


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
    from macros.render import practice

    try:
        files = {"notebook": notebook_bytes(lesson).decode("utf-8")}
    except LessonError as error:
        raise PageError(str(error)) from None
    if lesson.practice is not None:
        files["practice"] = practice.data_script(lesson)
    return files
