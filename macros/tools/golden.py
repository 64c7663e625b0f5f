"""The reviewed record of each lesson's published values: one <slug>.json per lesson.

It holds every trace value formatted exactly as pages format it (the lesson's decimals,
the one formatter), so a change to the engine, the formatter or a fixture that moves a
published number fails the test suite as a readable diff. ``make golden`` rewrites it
(``python -m macros golden --out tests/golden``): where the records live is the caller's
business, not this module's.
"""

import difflib
import json
import re
from pathlib import Path

import numpy as np

from macros import lessons
from macros.engine.trace import HEAD_FIELDS, MASK, to_dict
from macros.render.numbers import format_masked, format_values


def _formatted(value, places):
    """Numbers as published, one form per vector or matrix; a masked entry (None) stays null."""
    if value is None or isinstance(value, float | int):
        return value if value is None else format_values([value], places)[0]
    entries = np.array(value, dtype=object)  # a vector or a matrix; None where masked
    present = entries != None  # noqa: E711  (element-wise, not identity)
    return format_masked(np.where(present, entries, 0.0).astype(float), present, places)


# Published head fields the reviewed records leave out: the mask is not a number, and the
# shifted scores joined the trace after the records were reviewed (a reviewed `make golden` adds them).
UNRECORDED = {f.name for f in HEAD_FIELDS if f.kind == MASK} | {"shifted"}


def layer(trace, places):
    """A layer's published values as the page formats them (a batch's layers, and a stack's, each
    the same way; a stack has no heads of its own)."""
    rest = {
        name: [layer(inner, places) for inner in value] if name in ("batch", "layers") else _nested(value, places)
        for name, value in trace.items()
        if name != "heads"
    }
    if "heads" not in trace:
        return rest
    heads = [
        {name: _nested(value, places) for name, value in head.items() if name not in UNRECORDED}
        for head in trace["heads"]
    ]
    return {"heads": heads, **rest}


def record(lesson):
    places = lesson.decimals
    steps = lesson.generation.to_dict() if lesson.generation else {}
    generated = {"generation": _nested(steps, places)} if steps else {}
    return {"lesson": lesson.slug, "decimals": places, **layer(to_dict(lesson.trace), places), **generated}


def _nested(value, places):
    """The generation steps (KV cache, groups, blocks, tables) formatted as published, field by field."""
    if isinstance(value, dict):
        return {name: _nested(inner, places) for name, inner in value.items()}
    if isinstance(value, list) and value and isinstance(value[0], dict | list) and not _numeric(value):
        return [_nested(inner, places) for inner in value]
    return _formatted(value, places) if _numeric(value) or value is None else value


def _numeric(value):
    """A number, or a vector or matrix of numbers (None where masked)."""
    if isinstance(value, bool):
        return False
    if value is None or isinstance(value, int | float):
        return True
    return (
        isinstance(value, list)
        and bool(value)
        and all(x is None or isinstance(x, int | float) for x in np.ravel(np.array(value, dtype=object)))
    )


INNERMOST_LIST = re.compile(r"\[\s+([^\[\]]*?)\s+\]")


def render(lesson):
    """The record as JSON with one vector or matrix row per line, so diffs read row by row."""
    text = json.dumps(record(lesson), indent=1, ensure_ascii=False)
    return INNERMOST_LIST.sub(lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]", text) + "\n"


def diff(expected, actual, name="record"):
    """A unified diff of two records; empty when every published value is unchanged."""
    lines = difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), name, "now")
    return "".join(lines)


def write_all(out, root=lessons.LESSONS):
    """Write every lesson's record into the folder ``out``; the paths written, in order."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for lesson in lessons.load_all(root).values():
        path = out / f"{lesson.slug}.json"
        path.write_text(render(lesson), encoding="utf-8")
        written.append(path)
    return written
