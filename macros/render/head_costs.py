"""The cost of splitting a layer into heads, as a table: parameters and multiply-adds for
h heads of width d_model / h, from macros.engine.cost."""

from macros.engine import cost
from macros.render.tables import markdown_table

HEADER = ["$h$", "$d_k$", "parameters", "multiply-adds", "scores held"]


def rows(n, d_model, head_counts):
    """One row of counts per number of heads, each head of width d_model / h."""
    return [cost.head_split_counts(n, d_model, h)["split"] for h in head_counts]


def table(n, d_model, head_counts):
    """A Markdown table of ``rows``: counts are whole numbers, written as they are. The last
    column is h · n · n, the scores held at once, the one count that grows with h."""
    cells = [
        [str(r[key]) for key in ("heads", "d_k", "parameters", "macs", "score_numbers")]
        for r in rows(n, d_model, head_counts)
    ]
    return markdown_table(HEADER, cells)
