"""How long the lessons' notebooks take: loading the lessons, generating every notebook, and
executing each one in a fresh kernel, as tests/test_notebooks.py does.

Executing is dominated by starting a kernel per notebook (and importing torch in it, where
torch is installed); the numpy in the cells takes milliseconds.

Usage: .venv/bin/python bench/notebooks.py [--repeat 3] [--lesson SLUG ...]
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from macros import lessons  # noqa: E402
from macros.notebooks.build import notebook_bytes  # noqa: E402


def timed(action):
    start = time.perf_counter()
    result = action()
    return result, time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--lesson", action="append", help="time only this lesson's notebook (repeatable)")
    args = parser.parse_args(argv)
    folders = [lessons.LESSONS / slug for slug in args.lesson] if args.lesson else lessons.folders(lessons.LESSONS)
    loads, generations, executions = [], [], []
    for _ in range(args.repeat):
        loaded, seconds = timed(lambda: [lessons.load(folder) for folder in folders])
        loads.append(seconds)
        notebooks, seconds = timed(lambda loaded=loaded: [notebook_bytes(lesson) for lesson in loaded])
        generations.append(seconds)
        start = time.perf_counter()
        for data in notebooks:
            NotebookClient(nbformat.reads(data.decode("utf-8"), as_version=4), kernel_name="python3").execute()
        executions.append(time.perf_counter() - start)
    print(f"{len(notebooks)} lessons, median of {args.repeat} runs:")
    print(f"  load lessons:       {statistics.median(loads):7.3f} s")
    print(f"  generate notebooks: {statistics.median(generations):7.3f} s")
    print(f"  execute notebooks:  {statistics.median(executions):7.3f} s")


if __name__ == "__main__":
    main()
