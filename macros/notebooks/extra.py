"""A lesson's own cells: lessons/<slug>/notebook.py, in the percent format.

A line ``# %%`` starts a code cell and ``# %% [markdown]`` a markdown cell, whose lines
lose their leading ``# ``. Text before the first marker is a code cell. Jupytext, VS Code
and Spyder read the same format, so an author can run the file as it is.
"""

import re

from macros.errors import LessonError, shown_path
from macros.notebooks.cells import Cell
from macros.sources import reads, yamlfile

FILE = "notebook.py"
MARKER = re.compile(r"^# %%(?P<rest>.*)$")
KINDS = {"": "code", "[markdown]": "markdown", "[md]": "markdown"}


def _strip_comment(line):
    if line.startswith("# "):
        return line[2:]
    return line[1:] if line.startswith("#") else line


def _cell(kind, lines):
    if kind == "markdown":
        lines = [_strip_comment(line) for line in lines]
    source = "\n".join(lines).strip("\n")
    return Cell(kind, source) if source.strip() else None


def parse(text, file):
    """The cells of a percent-format file; an unknown ``# %% [kind]`` names the file and line."""
    cells, kind, lines = [], "code", []
    for number, line in enumerate(text.splitlines(), 1):
        match = MARKER.match(line)
        if not match:
            lines.append(line)
            continue
        cells.append(_cell(kind, lines))
        # A title after the marker ("# %% An experiment [markdown]") is allowed; the kind is the bracket.
        bracket = re.search(r"\[[^\]]*\]\s*$", match["rest"])
        tag = bracket.group(0).strip() if bracket else ""
        if tag not in KINDS:
            where = f"{shown_path(file)}:{number}"
            raise LessonError(f"{where}: expected '# %%' or '# %% [markdown]' to start a cell, got {line.strip()!r}")
        kind, lines = KINDS[tag], []
    cells.append(_cell(kind, lines))
    return [cell for cell in cells if cell is not None]


def lesson_cells(folder):
    """The cells a lesson adds after its generated notebook, or none without a notebook.py."""
    file = folder / FILE
    if not reads.exists(file):
        return []
    return parse(yamlfile.read_text(file), file)
