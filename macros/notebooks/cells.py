"""A cell of a notebook before nbformat sees it: its kind and its source text."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Cell:
    kind: str  # "markdown" or "code"
    source: str


def markdown(*lines):
    return Cell("markdown", "\n".join(lines).strip("\n"))


def code(*lines):
    return Cell("code", "\n".join(lines).strip("\n"))
