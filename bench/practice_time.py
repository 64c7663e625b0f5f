"""What the build's practice check costs: drawing and checking a lesson's first 50 variants.

For lessons/tracing-two-heads (3 tokens, 2 heads, W_O) with a generator that draws X and
both heads' W_Q under all three constraints, it times check_variants (parse, then draw,
validate, trace and check variants 1..50 and read their answers) and counts how many draws
the constraints rejected. Times are the median of --repeat runs in one process.

A build pays this once per lesson whose page is rendered; an unchanged page comes from
.cache/pages, whose entry means its variants were checked before (macros/pages/cache.py).

Usage: .venv/bin/python bench/practice_time.py [--count 50] [--repeat 7]
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from macros.practice import check, generator, prng  # noqa: E402

LESSON = ROOT / "lessons" / "tracing-two-heads" / "fixture.yaml"
PRACTICE = {
    "draw": {"X": {"ints": [-2, 2]}, "heads[*].W_Q": {"tenths": [-1, 1]}},
    "require": ["no_tied_top_weight", {"scores_within": 8}, "no_fully_masked_row"],
    "answer": "heads.1.weights.2.0",
}


def timed(f, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def draws_needed(count):
    """Total draws for variants 1..count: accepted ones plus those the constraints rejected."""
    spec, base = check.spec_for(LESSON, PRACTICE)
    total = 0
    for n in range(1, count + 1):
        stream = prng.Stream(spec.seed, n)
        while True:
            total += 1
            if (
                generator.first_failure(spec, generator.trace_of(generator.draw_fixture(spec, base, stream), LESSON))
                is None
            ):
                break
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    check_time = timed(lambda: check.check_variants(LESSON, PRACTICE, args.count), args.repeat)
    print(f"{LESSON.parent.name}: {args.count} variants drawn and checked in {check_time * 1000:.1f} ms")
    print(f"  draws in all: {draws_needed(args.count)} ({args.count} accepted)")


if __name__ == "__main__":
    main()
