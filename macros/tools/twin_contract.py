"""The browser twin's copy of the trace contract: docs/assets/js/contract.js, generated.

The twin (docs/assets/js/engine.js) writes its JSON form and runs its overflow guard from
this module, which is written from the declarations in macros/engine/trace.py, so the
fields are named once, in Python. tests/test_js_twin.py fails when the checked-in file
differs from what this module generates; ``make contract`` rewrites it.
"""

import json
import sys
from pathlib import Path

from macros.engine.trace import HEAD_FIELDS, LAYER_FIELDS

PATH = Path(__file__).resolve().parents[2] / "docs" / "assets" / "js" / "contract.js"

HEADER = """\
// The trace contract, generated from macros/engine/trace.py by `make contract`: do not edit.
// Each field the twin computes: its name, its kind (how the JSON form writes it), whether
// the overflow guard requires it finite, and whether it is optional (present only where its
// step is). engine.js follows it; tests/test_js_twin.py checks this file.
"""


def _entry(f):
    """One field: an optional one (made only by its step) says so, and the twin writes it only
    where its step made it."""
    entry = {"name": f.name, "kind": f.kind, "finite": f.finite}
    return entry | {"optional": True} if f.optional else entry


def _entries(declared):
    """The fields the twin computes (those not declared ``browser=...``, the reason it does not)."""
    kept = (f for f in declared if f.handled_by("browser"))
    lines = (f"  {json.dumps(_entry(f))}," for f in kept)
    return "[\n" + "\n".join(lines) + "\n]"


def text():
    """The module's text, as it is checked in."""
    return (
        f"{HEADER}\n"
        f"/** The fields of heads[i], in the order a lesson teaches them. */\n"
        f"export const HEAD_FIELDS = {_entries(HEAD_FIELDS)};\n\n"
        f'/** The layer\'s own fields, after "heads". */\n'
        f"export const LAYER_FIELDS = {_entries(LAYER_FIELDS)};\n"
    )


def write(path=PATH):
    Path(path).write_text(text(), encoding="utf-8")
    return path


if __name__ == "__main__":
    print(f"wrote {write(sys.argv[1] if len(sys.argv) > 1 else PATH)}")
