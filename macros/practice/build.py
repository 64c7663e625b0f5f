"""The build's check of a lesson's practice block, cached so that an unchanged lesson costs nothing.

For a lesson whose fixture has ``practice:``, the build draws the first ``COUNT`` variants in
Python (``check.check_variants``): each must pass validation and the generator's constraints,
have no overflow and an answer; else the build stops with a located message. What the page
needs (the generator's JSON form and variant 0's answers) is kept in
``.cache/practice/<key>.json``, named by the block's ``check.cache_key``; a later build whose
key is unchanged reads it back and draws nothing. ``ABH_PRACTICE_CACHE`` names another
folder (the tests' copies of the project share the project's own this way).
"""

import json
import os
from dataclasses import dataclass
from pathlib import Path

from macros import cache_age
from macros.files import write_whole
from macros.practice import check, generator
from macros.sources import practice_key

COUNT = 50


@dataclass(frozen=True)
class Practice:
    """What a lesson's page needs: the generator's JSON form and its own numbers' answers."""

    spec: dict  # generator.to_plain: what docs/assets/js/practice/generator.js reads
    answers: tuple  # variant 0's graded values, in the order of spec["answers"]


def cache_file(fixture_path, key):
    folder = os.environ.get("ABH_PRACTICE_CACHE")
    if not folder:
        root = Path(fixture_path).resolve().parent.parent.parent  # <root>/lessons/<slug>/fixture.yaml
        folder = root / ".cache" / "practice"
    return Path(folder) / f"{key}.json"


def read_cache(file, key):
    try:
        stored = json.loads(Path(file).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(stored, dict) or stored.get("key") != key or stored.get("count", 0) < COUNT:
        return None
    cache_age.used(file)
    return Practice(stored["spec"], tuple(stored["answers"]))


def write_cache(file, key, practice):
    try:
        text = json.dumps({"key": key, "count": COUNT, "spec": practice.spec, "answers": list(practice.answers)})
        write_whole(file, text.encode("utf-8"))  # whole: worker processes may write the same key at once
    except OSError:
        pass  # a read-only tree still builds; it only checks again next time


def load(fixture_path, count=COUNT, merged=None, base=None):
    """The lesson's Practice, or None when its fixture has no practice block; a located PracticeError.

    ``merged`` (the fixture's fields, ``extends`` resolved) and ``base`` (its JSON form) spare
    reading the file again when the caller has them.
    """
    block = practice_key.block(fixture_path) if merged is None else merged.get("practice")
    if block is None:
        return None
    base = check.lesson_base(fixture_path) if base is None else base  # read and validated once
    key = check.cache_key(fixture_path, block, base)
    file = cache_file(fixture_path, key)
    cached = read_cache(file, key) if count <= COUNT else None
    if cached is not None:
        return cached
    try:
        spec, _ = check.spec_for(fixture_path, block, base)
        results = check.variant_answers(fixture_path, spec, base, count)
    except generator.PracticeError as error:
        raise practice_key.located(error, fixture_path) from None
    practice = Practice(generator.to_plain(spec), tuple(results[0]))
    if count >= COUNT:  # fewer variants drawn is not the build's check: nothing to keep
        write_cache(file, key, practice)
    return practice
