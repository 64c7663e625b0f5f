"""The build's check of a lesson's practice block.

For a lesson whose fixture has ``practice:``, the build draws the first ``COUNT`` variants in
Python (``check.variant_answers``): each must pass validation and the generator's constraints,
have no overflow and an answer; else the build stops with a located message. The page needs
the generator's JSON form and variant 0's answers. The page cache keeps the page made from
them, so an unchanged lesson is not checked again.
"""

from dataclasses import dataclass

from macros.practice import check, generator
from macros.sources import practice_key

COUNT = 50


@dataclass(frozen=True)
class Practice:
    """What a lesson's page needs: the generator's JSON form and its own numbers' answers."""

    spec: dict  # generator.to_plain: what docs/assets/js/practice/generator.js reads
    answers: tuple  # variant 0's graded values, in the order of spec["answers"]


def load(fixture_path, count=COUNT, merged=None, base=None):
    """The lesson's Practice, or None when its fixture has no practice block; a located PracticeError.

    ``merged`` (the fixture's fields, ``extends`` resolved) and ``base`` (its JSON form) spare
    reading the file again when the caller has them.
    """
    block = practice_key.block(fixture_path) if merged is None else merged.get("practice")
    if block is None:
        return None
    base = check.lesson_base(fixture_path) if base is None else base  # read and validated once
    try:
        spec, _ = check.spec_for(fixture_path, block, base)
        results = check.variant_answers(fixture_path, spec, base, count)
    except generator.PracticeError as error:
        raise practice_key.located(error, fixture_path) from None
    return Practice(generator.to_plain(spec), tuple(results[0]))
