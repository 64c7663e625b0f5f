"""The build's check of a lesson's practice variants, and the key that lets an unchanged lesson skip it.

The build draws the first variants of every lesson in Python: each must pass the fixture's
validation and the generator's constraints, have no overflow and have its answers computed.
The result depends only on the practice block, the lesson's own fixture and the code that
draws and computes, so ``cache_key`` hashes exactly those.
"""

import functools
import hashlib
import json
from pathlib import Path

from macros.practice import generator
from macros.sources.fixture import merged_data, validate
from macros.sources.found import describe

ROOT = Path(__file__).resolve().parent.parent
# The code a variant's numbers and answers depend on: the engine, validation, the JSON forms, the generator.
SOURCES = (
    *sorted((ROOT / "engine").glob("*.py")),
    *sorted((ROOT / "sources").glob("*.py")),
    *sorted((ROOT / "practice").glob("*.py")),
)


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


@functools.cache
def code_digest():
    """The digest of the drawing code, read once per process (a build is one process)."""
    digest = hashlib.sha256()
    for source in SOURCES:
        digest.update(source.name.encode())
        digest.update(hashlib.sha256(source.read_bytes()).digest())
    return digest.digest()


def cache_key(fixture_path, practice, base=None):
    """A hex digest that changes when the block, the lesson's folder name (its default seed),
    the lesson's own fixture or the drawing code changes.

    ``base`` is the lesson's own fixture in its JSON form when the caller has it already.
    """
    digest = hashlib.sha256()
    digest.update(Path(fixture_path).parent.name.encode() + b"\0")
    digest.update(json.dumps(practice, sort_keys=True, default=str).encode())
    base = lesson_base(fixture_path) if base is None else base
    digest.update(json.dumps(base, sort_keys=True).encode())
    digest.update(code_digest())
    return digest.hexdigest()
