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
    return markdown


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
