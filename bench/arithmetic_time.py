"""What the arithmetic check costs a build: every formula of every lesson page read with the
grammar (macros/pages/shown_arithmetic.py), and every practice set's worked solutions
(macros/practice/worked_sums.py).

The book's lessons are computed and their pages rendered once, untimed (the Markdown as the
check receives it, marks still in); then the check runs over all of them --repeat times, each
time with the formula cache emptied (``macros.redo.latex.tokens`` keeps each formula's tokens
for the process: a cold build pays the parse once per distinct formula, as timed here). For
scale, the untimed step's own duration (computing and rendering the pages, no KaTeX, no
MkDocs) is printed too. Times are medians of --repeat runs in one process, wall and CPU.

A build pays this for each page it renders; a page from .cache/pages was checked when made.

Usage: .venv/bin/python bench/arithmetic_time.py [--repeat 7]
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from macros.pages import shown_arithmetic  # noqa: E402
from macros.pages.book import Book  # noqa: E402
from macros.practice import worked_sums  # noqa: E402
from macros.redo import latex  # noqa: E402


def timed(f, repeat):
    """Median wall and median CPU seconds (the CPU figure holds up better on a busy machine)."""
    walls, cpus = [], []
    for _ in range(repeat):
        latex.tokens.cache_clear()
        wall, cpu = time.perf_counter(), time.process_time()
        f()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    book = Book(ROOT, cache=False)
    start = time.perf_counter()
    pages = [book.unchecked(slug) for slug in book.folders]
    made = time.perf_counter() - start
    formulas = sum(len(shown_arithmetic.formulas(markdown)) for _, markdown in pages)

    def pages_checked():
        for lesson, markdown in pages:
            shown_arithmetic.scan(markdown, lesson.decimals)

    def practice_checked():
        for lesson, _ in pages:
            if lesson.practice is not None:
                worked_sums.counted(lesson.practice, lesson.decimals)

    page_wall, page_cpu = timed(pages_checked, args.repeat)
    practice_wall, practice_cpu = timed(practice_checked, args.repeat)
    sets = sum(len(lesson.practice.variants) for lesson, _ in pages if lesson.practice is not None)
    print(f"{len(pages)} lesson pages, {formulas} formulas: computed and rendered in {made:.2f} s (untimed step)")
    print(f"  the page check: {page_wall * 1000:.0f} ms wall, {page_cpu * 1000:.0f} ms CPU")
    print(f"  the practice check, {sets} sets: {practice_wall * 1000:.0f} ms wall, {practice_cpu * 1000:.0f} ms CPU")


if __name__ == "__main__":
    main()
