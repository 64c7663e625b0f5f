"""Command line: ``python -m macros trace PATH`` and ``python -m macros golden``.

``trace`` prints a fixture's whole trace as JSON, for authors writing a lesson and for
tools outside the site. ``golden`` rewrites the reviewed record of published values.
"""

import argparse
import json
import sys

from macros import fixture, golden, lessons
from macros.engine.trace import to_dict
from macros.errors import LessonError


def trace_command(args):
    print(json.dumps(to_dict(lessons.compute(fixture.load(args.path))), indent=1))


def golden_command(args):
    for path in golden.write_all(args.lessons):
        print(f"wrote {path}")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m macros", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    trace = commands.add_parser("trace", help="print a fixture's trace as JSON")
    trace.add_argument("path", help="a lesson's fixture.yaml")
    trace.set_defaults(run=trace_command)
    record = commands.add_parser("golden", help="rewrite tests/golden/ from the current lessons")
    record.add_argument("--lessons", default="lessons", help="the lessons folder")
    record.set_defaults(run=golden_command)
    args = parser.parse_args(argv)
    try:
        args.run(args)
    except LessonError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
