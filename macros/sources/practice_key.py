"""The ``practice:`` key of a fixture: the lesson's exercise on new numbers, with located errors.

The block belongs to the fixture it is written in: ``extends`` does not pass a parent's block
on (see ``fixture.merged_data``), so a lesson that extends another and wants new numbers
declares its own. Its syntax is specified in ``macros/practice/spec.py``.
"""

from macros.errors import PracticeError
from macros.sources import yamlfile


def located(error, fixture_path):
    """The same PracticeError with the line of its field path in the fixture file."""
    line = yamlfile.line_of(yamlfile.field_lines(fixture_path), error.path)
    return PracticeError(error.file, error.path, error.expected, error.found, line)
