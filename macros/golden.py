"""The reviewed record of each lesson's published values: tests/golden/<slug>.json.

It holds every trace value formatted exactly as pages format it (the lesson's decimals,
the one formatter), so a change to the engine, the formatter or a fixture that moves a
published number fails the test suite as a readable diff. ``make golden`` rewrites it.
"""

import difflib
import json
import re
from pathlib import Path

import numpy as np

from macros import lessons
from macros.engine.trace import to_dict
from macros.render.numbers import format_rows, format_values

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"


def _formatted(value, places):
    """Numbers as published, one form per vector or matrix; a masked entry (None) stays null."""
    if value is None:
        return None
    if isinstance(value, float | int):
        return format_values([value], places)[0]
    if value and isinstance(value[0], list):  # a matrix: rows of numbers
        texts = format_rows(_filled(value), places)
        return [
            [None if v is None else t for v, t in zip(row, line, strict=True)]
            for row, line in zip(value, texts, strict=True)
        ]
    texts = format_values(_filled([value])[0], places)
    return [None if v is None else t for v, t in zip(value, texts, strict=True)]


def _filled(rows):
    """Masked entries as 0 while choosing one form for the matrix; they are written as null."""
    return np.array([[0.0 if v is None else v for v in row] for row in rows], dtype=float)


def record(lesson):
    trace = to_dict(lesson.trace)
    places = lesson.decimals
    heads = [{name: _formatted(value, places) for name, value in head.items()} for head in trace["heads"]]
    rest = {name: _formatted(value, places) for name, value in trace.items() if name != "heads"}
    return {"lesson": lesson.slug, "decimals": places, "heads": heads, **rest}


INNERMOST_LIST = re.compile(r"\[\s+([^\[\]]*?)\s+\]")


def render(lesson):
    """The record as JSON with one vector or matrix row per line, so diffs read row by row."""
    text = json.dumps(record(lesson), indent=1, ensure_ascii=False)
    return INNERMOST_LIST.sub(lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]", text) + "\n"


def diff(expected, actual, name="record"):
    """A unified diff of two records; empty when every published value is unchanged."""
    lines = difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), name, "now")
    return "".join(lines)


def write_all(root=lessons.LESSONS, out=GOLDEN):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for lesson in lessons.load_all(root).values():
        path = out / f"{lesson.slug}.json"
        path.write_text(render(lesson), encoding="utf-8")
        written.append(path)
    return written
