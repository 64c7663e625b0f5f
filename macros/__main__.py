"""Command line: ``python -m macros trace PATH``, ``render DIR`` and ``golden --out DIR``.

``trace`` prints a fixture's whole trace as JSON, for authors writing a lesson and for
tools outside the site (``--path heads.1.weights`` selects one value, ``--decimals 3``
prints rows on one line, rounded, for reading). ``render`` writes the book as plain
Markdown with a minimal mkdocs.yml. ``golden`` rewrites the reviewed record of
published values into the folder it is given.
"""

import argparse
import json
import sys

from macros import export, golden, lessons, missing
from macros.engine.trace import to_dict
from macros.errors import LessonError
from macros.render.numbers import format_values
from macros.sources import fixture


class PathError(LessonError):
    """A ``--path`` that names no value of the trace."""


def select(data, path, trace):
    """The value at a dotted path of the trace's JSON form: 'heads.1.weights.0'."""
    objects = trace
    for part in path.split("."):
        if isinstance(data, list):
            if not part.isdigit() or int(part) >= len(data):
                raise PathError(f"--path {path}: expected a position from 0 to {len(data) - 1}, got {part!r}")
            data, objects = data[int(part)], objects[int(part)] if objects is not None else None
        elif isinstance(data, dict) and part in data:
            data, objects = data[part], getattr(objects, part, None)
        else:
            friendly = missing.message(objects, part) if objects is not None else None
            known = sorted(data) if isinstance(data, dict) else []
            raise PathError(f"--path {path}: " + (friendly or f"no value {part!r}; the values are {', '.join(known)}"))
    return data


def _shown(value, places):
    return "masked" if value is None else format_values([value], places)[0]


def readable(value, places, indent=""):
    """Rows on one line, numbers rounded to ``places``, columns aligned: for reading."""
    if isinstance(value, dict):
        lines = []
        for name, inner in value.items():
            if isinstance(inner, list | dict):
                lines += [f"{indent}{name}:", readable(inner, places, indent + "  ")]
            else:
                lines.append(f"{indent}{name}: {_shown(inner, places)}")
        return "\n".join(lines)
    if isinstance(value, list) and value and isinstance(value[0], dict):
        parts = []
        for i, inner in enumerate(value):
            parts += [f"{indent}[{i}]", readable(inner, places, indent + "  ")]
        return "\n".join(parts)
    if isinstance(value, list) and value and isinstance(value[0], list):
        rows = [[_shown(x, places) for x in row] for row in value]
        width = max(len(text) for row in rows for text in row)
        return "\n".join(indent + "  ".join(text.rjust(width) for text in row) for row in rows)
    if isinstance(value, list):
        return indent + "  ".join(_shown(x, places) for x in value)
    return indent + _shown(value, places)


def trace_command(args):
    loaded = fixture.load(args.path)
    trace = lessons.compute(loaded)
    generated = lessons.generation_of(loaded, trace)
    data = to_dict(trace) | (generated.to_dict() if generated else {})
    if args.select:
        data = select(data, args.select, trace)
    if args.decimals is None:
        print(json.dumps(data, indent=1))
    else:
        print(readable(data, args.decimals))


def render_command(args):
    written = export.write(args.project, args.dir)
    print(f"wrote {len(written)} pages and mkdocs.yml into {args.dir}")


def golden_command(args):
    for path in golden.write_all(args.out, args.lessons):
        print(f"wrote {path}")


def decimals(text):
    value = int(text)
    if not 0 <= value <= 12:
        raise argparse.ArgumentTypeError("a whole number from 0 to 12")
    return value


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m macros", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    trace = commands.add_parser("trace", help="print a fixture's trace (JSON unless --decimals)")
    trace.add_argument("path", help="a lesson's fixture.yaml")
    trace.add_argument("--path", dest="select", metavar="DOTTED", help="one value, e.g. heads.1.weights")
    trace.add_argument("--decimals", type=decimals, metavar="N", help="readable: rows on one line, N decimals")
    trace.set_defaults(run=trace_command)
    render = commands.add_parser("render", help="write every page as plain Markdown, with a minimal mkdocs.yml")
    render.add_argument("dir", help="the folder to write (docs/ and mkdocs.yml go in it)")
    render.add_argument("--project", default=".", help="the project folder (lessons/, docs/)")
    render.set_defaults(run=render_command)
    record = commands.add_parser("golden", help="rewrite the records of published values")
    record.add_argument("--out", required=True, help="the folder of records (the project keeps them in tests/golden)")
    record.add_argument("--lessons", default=str(lessons.LESSONS), help="the lessons folder")
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
