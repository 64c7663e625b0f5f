"""Markdown tables: readable as plain text in the built Markdown, rendered by the theme."""

from macros.render.numbers import format_values


def markdown_table(header, rows):
    """A pipe table; cells are already text."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def joined(values, places):
    """A row of numbers for a table cell or a sentence: '2, 0, 2, −2'."""
    return ", ".join(format_values(values, places))
