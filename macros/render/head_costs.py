"""The cost of splitting a layer into heads, as a table: parameters and multiply-adds for
h heads of width d_model / h, from macros.engine.cost."""

from macros.engine import cost
from macros.render.numbers import format_number
from macros.render.tables import markdown_table

HEADER = ["heads $h$", "head width $d_k$", "parameters", "multiply-adds", "score matrices"]


def rows(n, d_model, head_counts):
    """One row of counts per number of heads, each head of width d_model / h."""
    return [cost.head_split_counts(n, d_model, h)["split"] for h in head_counts]


def table(n, d_model, head_counts):
    """A Markdown table of ``rows``; counts are whole numbers."""
    cells = [
        [str(r["heads"]), str(r["d_k"]), format_number(r["parameters"], 0), format_number(r["macs"], 0)]
        + [f"{r['heads']} of {n} × {n}"]
        for r in rows(n, d_model, head_counts)
    ]
    return markdown_table(HEADER, cells)
