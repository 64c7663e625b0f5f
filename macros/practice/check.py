"""The build's check of a lesson's practice variants.

The build draws the first variants of every lesson in Python: each must pass the fixture's
validation and the generator's constraints, have no overflow and have its answers computed.
"""

from pathlib import Path

from macros.practice import generator
from macros.sources.fixture import merged_data, validate
from macros.sources.found import describe


def lesson_base(fixture_path):
    """The lesson's own fixture in its JSON form (variant 0), its practice block set aside."""
    data = merged_data(fixture_path)
    data.pop("practice", None)
    return validate(fixture_path, data).to_plain()


def spec_for(fixture_path, practice, base=None):
    """The parsed practice block of the lesson at fixture_path, and the lesson's own fixture
    (``base``, when the caller has it: ``lesson_base`` reads and validates the file)."""
    base = lesson_base(fixture_path) if base is None else base
    return generator.parse(practice, base, fixture_path, Path(fixture_path).parent.name), base


def check_variants(fixture_path, practice, count=50, base=None):
    """{variant: its answers} for variant 0 and the drawn variants 1..count; a PracticeError if one fails."""
    spec, base = spec_for(fixture_path, practice, base)
    return variant_answers(fixture_path, spec, base, count)


def variant_answers(fixture_path, spec, base, count):
    """``check_variants`` for a block already parsed (``spec_for``)."""
    results = {}
    for number in range(count + 1):
        results[number] = generator.answers(spec, generator.variant_view(spec, base, number, fixture_path))
        for path, answer in zip(spec.answers, results[number], strict=True):
            if isinstance(answer, bool) or not isinstance(answer, int | float):
                found = f"{describe(answer)} in variant {number}"
                raise generator.PracticeError(fixture_path, "practice.answer", f"{path} to name one number", found)
    return results
