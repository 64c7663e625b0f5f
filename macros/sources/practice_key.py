"""The ``practice:`` key of a fixture: the lesson's generator of new numbers, read with located errors.

The block belongs to the fixture it is written in: ``extends`` does not pass a parent's block
on (see ``fixture.merged_data``), so a lesson that extends another and wants new numbers
declares its own. The generator's syntax is specified in ``macros/practice/generator.py``.
"""

from macros.practice import check, generator
from macros.sources import yamlfile
from macros.sources.fixture import merged_data


def block(fixture_path):
    """The practice block written in the lesson's own fixture (not a parent's), or None."""
    return merged_data(fixture_path).get("practice")


def located(error, fixture_path):
    """The same PracticeError with the line of its field path in the fixture file."""
    line = yamlfile.line_of(yamlfile.field_lines(fixture_path), error.path)
    return generator.PracticeError(error.file, error.path, error.expected, error.found, line)


def read(fixture_path):
    """(parsed Spec, the lesson's own fixture in its JSON form) or None; a located PracticeError."""
    practice = block(fixture_path)
    if practice is None:
        return None
    try:
        return check.spec_for(fixture_path, practice)
    except generator.PracticeError as error:
        raise located(error, fixture_path) from None
