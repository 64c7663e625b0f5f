"""What the arithmetic check reads, laid out for review: ``python -m macros arithmetic``.

For each lesson page: how many formulas it has, how many the check read (a calculation of
shown numbers in it), how many of those meet the result they must give, the formulas marked
not arithmetic (with the author's reason), any it cannot read and any silent miss (both of
which stop a build). For each lesson's practice: the sums its worked solutions show, how
many hold, how many a rounding note explains, how many miss, and whether the check is on
(``worked_sums.NOT_YET``).
"""

from dataclasses import dataclass

from macros.pages import shown_arithmetic
from macros.pages.book import Book
from macros.practice import worked_sums


@dataclass(frozen=True)
class Row:
    slug: str
    scan: shown_arithmetic.Scan
    practice: worked_sums.Counted | None


def listing(root, slugs=None, book=None):
    """A Row for each lesson (all by default), in the book's folder order; ``book``: a Book
    over ``root`` whose lessons are already computed (the tests')."""
    book = book or Book(root, cache=False)
    rows = []
    for slug in slugs or list(book.folders):
        lesson, markdown = book.unchecked(slug)
        found = shown_arithmetic.scan(markdown, lesson.decimals)
        counted = worked_sums.counted(lesson.practice, lesson.decimals) if lesson.practice else None
        rows.append(Row(slug, found, counted))
    return rows


PAGE = ("formulas", "with =/≈", "read", "compared", "marked", "unread", "misses")
PRACTICE = ("sums", "holding", "noted", "missing", "check")


def _page(scan):
    return [
        scan.formulas,
        scan.equations,
        scan.read,
        scan.compared,
        len(scan.marked),
        len(scan.unread),
        len(scan.misses),
    ]


def _practice(row):
    if row.practice is None:
        return ["-"] * len(PRACTICE)
    sums = row.practice
    return [sums.read, sums.holding, sums.noted, sums.missing, "off" if row.slug in worked_sums.NOT_YET else "on"]


def _line(first, width, page, practice):
    return first.ljust(width) + "".join(f"{c!s:>10}" for c in page) + "   |" + "".join(f"{c!s:>9}" for c in practice)


def text(rows):
    """The table, its totals, then every mark with its reason and every problem found."""
    width = max(len(row.slug) for row in rows) + 2
    lines = [_line("page", width, PAGE, PRACTICE)]
    lines += [_line(row.slug, width, _page(row.scan), _practice(row)) for row in rows]
    totals = [sum(column) for column in zip(*(_page(row.scan) for row in rows), strict=True)]
    sums = [row.practice for row in rows if row.practice]
    practice = [sum(getattr(s, name) for s in sums) for name in ("read", "holding", "noted", "missing")] + [""]
    lines.append(_line("total", width, totals, practice))
    lines += ["", "Marked not arithmetic:"] + [f"  {mark}" for row in rows for mark in row.scan.marked]
    problems = [(row.slug, item) for row in rows for item in (*row.scan.unread, *row.scan.needless, *row.scan.misses)]
    lines += ["", "Stopping a build:"] + [f"  {slug}: {item}" for slug, item in problems] if problems else []
    return "\n".join(lines)
