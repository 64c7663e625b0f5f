"""Assemble a lesson's cells into an nbformat notebook, and write it as the same bytes every time.

nbformat 4.5 requires a cell id and nbformat would draw a random one; here each id is made
from the cell's position and a hash of its source, so an unchanged lesson gives unchanged
bytes. nbformat writes JSON with sorted keys; cells carry no outputs and no execution counts.
"""

import hashlib

import nbformat
from nbformat import v4

from macros.notebooks import backward, checks, extra, layer, model, paged, steps
from macros.notebooks.cells import markdown

KERNEL = {"name": "python3", "display_name": "Python 3", "language": "python"}


def title(lesson, page_url):
    """The notebook's first cell. It names its lesson by title, linked only to an address that
    works wherever the file is opened: a notebook is downloaded and opened far from the site, so
    a link relative to the page (``./``) would lead nowhere."""
    meta = lesson.meta
    lesson_name = f"[{meta['title']}]({page_url})" if page_url else f"*{meta['title']}*"
    return markdown(
        f"# {meta['title']}",
        "",
        f"This notebook goes with the lesson {lesson_name} of *Attention by Hand*. "
        "It computes the lesson step by step from the lesson's numbers with numpy alone, and prints every "
        "result so that you can set it beside the page. Run the cells from top to bottom. Near the end one "
        "cell checks the results against the values the page shows, and another compares them with PyTorch "
        "if it is installed. Then change a number and run again to see what moves.",
    )


def cells(lesson, page_url=None):
    """Every cell, in order: title, the computation, the checks, then the lesson's own cells.

    The lesson's own cells come last so that an experiment which changes a number cannot
    upset the checks above it.
    """
    described = layer.describe(lesson)
    return [
        title(lesson, page_url),
        *steps.computation(lesson, described),
        *checks.against_page(lesson, described),
        *paged.cells(lesson),
        *checks.with_torch(described, lesson.fixture),
        *backward.with_torch(lesson.fixture, described),
        *model.with_torch(lesson.fixture, described),
        *extra.lesson_cells(lesson.folder),
    ]


def cell_id(position, source):
    return f"{position:03d}-{hashlib.sha256(source.encode()).hexdigest()[:8]}"


def notebook_cell(position, cell):
    """The cell as nbformat's v4.new_code_cell / new_markdown_cell make it, with its own id.

    Made here rather than by those two, which validate each cell against the schema on its
    own: the whole notebook is validated once, and a lesson's notebook costs a quarter as much.
    """
    made = nbformat.NotebookNode(
        id=cell_id(position, cell.source), cell_type=cell.kind, metadata=nbformat.NotebookNode(), source=cell.source
    )
    if cell.kind == "code":
        made.update(execution_count=None, outputs=[])
    return made


def notebook(lesson, page_url=None):
    """The lesson's notebook as an nbformat NotebookNode, validated."""
    nb = v4.new_notebook(metadata={"kernelspec": dict(KERNEL), "language_info": {"name": "python"}})
    nb.cells = [notebook_cell(position, cell) for position, cell in enumerate(cells(lesson, page_url))]
    nbformat.validate(nb)
    return nb


def notebook_bytes(lesson, page_url=None):
    """The notebook file's bytes. ``page_url`` is the lesson page's full address, where the site
    is published at one; without it the notebook names the lesson by its title."""
    return (nbformat.writes(notebook(lesson, page_url)) + "\n").encode("utf-8")
