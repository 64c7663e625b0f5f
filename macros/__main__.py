"""Command line: ``python -m macros trace PATH``, ``render DIR``, ``golden --out DIR``, ``claims``,
``arithmetic``, ``practice`` and ``lesson SLUG``.

``trace`` prints a fixture's whole trace as JSON, for authors writing a lesson and for
tools outside the site (``--path heads.1.weights`` selects one value, ``--decimals 3``
prints rows on one line, rounded, for reading). ``render`` writes the book as plain
Markdown with a minimal mkdocs.yml. ``golden`` rewrites the reviewed record of
published values into the folder it is given, or with ``--changes-since REF`` prints every
recorded value that changed since a git ref, as Markdown. ``claims`` lists every claim of
the book (where it is written, its sentence, the condition it checks) for claims_listing.
``arithmetic`` counts what the arithmetic check reads on each page and in each lesson's
practice solutions, with every formula marked not arithmetic and why. ``practice`` lists each
lesson's practice: its kinds of question with their tolerance, its rules and what each refused,
and one worked solution of each kind.
``lesson`` starts a new lesson from the
starter in ``macros/tools/scaffold/`` and lists it in the track (``make lesson`` runs it).
"""

import argparse
import json
import sys

from macros import compute, lessons, lookup
from macros.engine.records import trace_record
from macros.errors import LessonError, shown_path
from macros.pages import scripts as page_scripts
from macros.render.numbers import format_values
from macros.sources import fixture
from macros.tools import export, golden, golden_changes, scaffold

GOLDEN = lessons.LESSONS.parent / "tests" / "golden"  # where the project keeps its records


def select(data, path, trace):
    """The value at a dotted path of the trace's JSON form: 'heads.1.weights.0'."""
    try:
        return lookup.select(data, path, trace)
    except lookup.PathError as error:
        raise lookup.PathError(f"--path {error}") from None


# In the JSON form null means "masked" in scaled and shifted, and "too large for float64" in
# the unshifted exponentials, the only fields allowed to overflow.
OVERFLOW_FIELDS = {"plain_exps", "plain_sums"}


def _shown(value, places, name=""):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if value is None:
        return "overflow" if name in OVERFLOW_FIELDS else "−∞" if name == "running_max" else "masked"
    return format_values([value], places)[0]


def _is_matrix(value):
    return isinstance(value, list) and bool(value) and isinstance(value[0], list)


def readable(value, places, indent="", name=""):
    """Rows on one line, numbers rounded to ``places``, columns aligned: for reading."""
    if isinstance(value, dict):
        lines = []
        for key, inner in value.items():
            if isinstance(inner, list | dict):
                lines += [f"{indent}{key}:", readable(inner, places, indent + "  ", key)]
            else:
                lines.append(f"{indent}{key}: {_shown(inner, places, key)}")
        return "\n".join(lines)
    if isinstance(value, list) and value and (isinstance(value[0], dict) or _is_matrix(value[0])):
        parts = []  # records, or a stack of matrices (one reading matrix per head): one block each
        for i, inner in enumerate(value):
            parts += [f"{indent}[{i}]", readable(inner, places, indent + "  ", name)]
        return "\n".join(parts)
    if isinstance(value, list) and value and isinstance(value[0], list):
        rows = [[_shown(x, places, name) for x in row] for row in value]
        width = max(len(text) for row in rows for text in row)
        return "\n".join(indent + "  ".join(text.rjust(width) for text in row) for row in rows)
    if isinstance(value, list):
        return indent + "  ".join(_shown(x, places, name) for x in value)
    return indent + _shown(value, places, name)


def trace_command(args):
    loaded = fixture.load(args.path)
    trace = compute.compute(loaded)
    generated = compute.generation_of(loaded, trace)
    data = trace_record(trace) | (generated.to_dict() if generated else {})
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
    if args.changes_since:
        print(golden_changes.changes_since(args.changes_since, args.records), end="")
        return
    for path in golden.write_all(args.out, args.lessons):
        print(f"wrote {path}")


def claims_command(args):
    from macros.tools import claims_listing

    print(claims_listing.text(claims_listing.listing(args.project, args.lessons or None)))


def arithmetic_command(args):
    from macros.tools import arithmetic_listing

    print(arithmetic_listing.text(arithmetic_listing.listing(args.project, args.lessons or None)))


def practice_command(args):
    from macros.tools import practice_listing

    print(practice_listing.text(practice_listing.listing(args.project, args.lessons or None)))


def lesson_command(args):
    folder, chapter = scaffold.create(args.slug, args.title, args.chapter, args.lessons)
    print(f"created {shown_path(folder)}/ (fixture.yaml, lesson.md), listed last in the chapter {chapter!r}")
    print("next: make serve, open the lesson, and follow docs/authoring.md")


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
    record = commands.add_parser("golden", help="rewrite the records of published values, or list their changes")
    task = record.add_mutually_exclusive_group(required=True)
    task.add_argument("--out", help="the folder of records to write (the project keeps them in tests/golden)")
    task.add_argument(
        "--changes-since", metavar="REF", help="print, as Markdown, every recorded value that changed since a git ref"
    )
    record.add_argument("--lessons", default=str(lessons.LESSONS), help="the lessons folder")
    record.add_argument("--records", default=str(GOLDEN), help="with --changes-since: the folder of records to compare")
    record.set_defaults(run=golden_command)
    listed = commands.add_parser("claims", help="list every claim: where it is written, its sentence, its condition")
    listed.add_argument("lessons", nargs="*", help="lesson folder names (default: every lesson)")
    listed.add_argument("--project", default=".", help="the project folder (lessons/)")
    listed.set_defaults(run=claims_command)
    counted = commands.add_parser(
        "arithmetic", help="count what the arithmetic check reads on each page and in each practice's solutions"
    )
    counted.add_argument("lessons", nargs="*", help="lesson folder names (default: every lesson)")
    counted.add_argument("--project", default=".", help="the project folder (lessons/)")
    counted.set_defaults(run=arithmetic_command)
    drawn = commands.add_parser(
        "practice", help="list each practice: its kinds of question, tolerance, rules and what they refused"
    )
    drawn.add_argument("lessons", nargs="*", help="lesson folder names (default: every lesson)")
    drawn.add_argument("--project", default=".", help="the project folder (lessons/)")
    drawn.set_defaults(run=practice_command)
    lesson = commands.add_parser("lesson", help="start a new lesson from the starter and add it to the track")
    lesson.add_argument("slug", help="the lesson's folder name: lowercase words joined by hyphens")
    lesson.add_argument("--title", help="the lesson's title (default: from the name)")
    lesson.add_argument("--chapter", help="the chapter's title in lessons/track.yaml (default: the last chapter)")
    lesson.add_argument("--lessons", default=str(lessons.LESSONS), help="the lessons folder")
    lesson.set_defaults(run=lesson_command)
    args = parser.parse_args(argv)
    try:
        args.run(args)
    except (LessonError, page_scripts.ScriptsError) as error:  # render needs the page scripts too
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
