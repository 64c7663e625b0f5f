"""What the build's practice costs: drawing, computing and checking a lesson's sets of new numbers.

For a lesson whose fixture has a ``practice:`` block (lessons/tracing-two-heads unless told),
it times the lesson computed with its practice and without (``lessons.load(folder,
practice=...)``): the difference is what a build pays for the practice when it renders the
page. It also counts the draws in all, those the ``require:`` rules refused among them, by
counting the calls of ``macros.practice.draw.draw_fixture`` while each set is drawn again.
Times are the median of --repeat runs in one process.

A build pays this once per lesson whose page it renders; an unchanged page comes from
.cache/pages, whose entry means its sets were checked before (macros/pages/cache.py).

Usage: .venv/bin/python bench/practice_time.py [--lesson tracing-two-heads] [--repeat 7]
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from macros import lessons  # noqa: E402
from macros.practice import draw  # noqa: E402
from macros.sources.folders import FIXTURE_FILE  # noqa: E402


def timed(action, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def draws_needed(lesson):
    """Draws in all for the sets 1..variants, as the build draws them (``draw.variant``)."""
    spec, file = lesson.practice.spec, lesson.folder / FIXTURE_FILE
    drawing, calls = draw.draw_fixture, []

    def counted(*args):
        calls.append(None)
        return drawing(*args)

    draw.draw_fixture = counted
    try:
        for number in range(1, spec.variants + 1):
            draw.variant(spec, lesson.plain_fixture, number, file)
    finally:
        draw.draw_fixture = drawing
    return len(calls)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", default="tracing-two-heads", help="a lesson folder with practice")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    folder = ROOT / "lessons" / args.lesson
    lesson = lessons.load(folder)
    if lesson.practice is None:
        raise SystemExit(f"{folder / FIXTURE_FILE}: no practice block to time")
    sets = lesson.practice.spec.variants
    with_practice = timed(lambda: lessons.load(folder), args.repeat)
    without = timed(lambda: lessons.load(folder, practice=False), args.repeat)
    print(f"{args.lesson}: {sets} sets drawn, computed and checked in {(with_practice - without) * 1000:.1f} ms")
    print(f"  the lesson with its practice {with_practice * 1000:.1f} ms, without {without * 1000:.1f} ms")
    print(f"  draws in all: {draws_needed(lesson)} ({sets} kept)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
