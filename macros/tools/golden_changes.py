"""Every published value that changed in the reviewed records (tests/golden/) since a git ref.

``python -m macros golden --changes-since REF`` reads the records committed at REF (with
``git show``), compares them with the working tree's and prints the changes as Markdown: for
each lesson, every changed value's dotted path in its record (``heads.0.weights.1.2``, positions
counted from 0), before and after, as the records hold them (numbers as pages print them), and
the lessons added or removed. CI writes it to the job summary. Reading the records needs the
standard library only.
"""

import json
import subprocess
from pathlib import Path

from macros.errors import LessonError


class _Absent:
    """A value one side of a comparison does not have."""

    def __init__(self, label):
        self.label = label


NEW, GONE = _Absent("(new)"), _Absent("(removed)")
# Rows shown per lesson: a change of the formatter can move every number of the book, and
# past this many the records' own `git diff` says the rest.
LIMIT = 200


def leaves(value, path=()):
    """Every published value of a record as (dotted path, value): a matrix gives one per entry."""
    if isinstance(value, dict) and value:
        for key, inner in value.items():
            yield from leaves(inner, (*path, str(key)))
    elif isinstance(value, list) and value:
        for index, inner in enumerate(value):
            yield from leaves(inner, (*path, str(index)))
    else:
        yield ".".join(path), value


def value_changes(before, after):
    """(path, before, after) for each value that differs between two records: changed and new
    values in the new record's order, then removed ones; NEW or GONE stands for a missing side."""
    old, new = dict(leaves(before)), dict(leaves(after))
    found = [(path, old.get(path, NEW), value) for path, value in new.items() if old.get(path, NEW) != value]
    return found + [(path, value, GONE) for path, value in old.items() if path not in new]


def shown(value):
    """A record's value as a Markdown table cell: text as it is, anything else as JSON."""
    if isinstance(value, _Absent):
        return value.label
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    fence = "``" if "`" in text else "`"
    escaped = text.replace("|", "\\|")  # a pipe would end the table cell, even in a code span
    return f"{fence}{escaped}{fence}"


def report(before, after, since, limit=LIMIT):
    """Markdown listing every changed value of two sets of records ({lesson: record})."""
    lines, counted = [], 0
    for lesson in [*after, *(slug for slug in before if slug not in after)]:
        if lesson not in before:
            lines += [f"### {lesson}", "", f"A new lesson: {len(list(leaves(after[lesson])))} recorded values.", ""]
            continue
        if lesson not in after:
            lines += [f"### {lesson}", "", "Removed, with all its recorded values.", ""]
            continue
        changes = value_changes(before[lesson], after[lesson])
        if not changes:
            continue
        counted += len(changes)
        lines += [f"### {lesson}", "", "| value | before | after |", "| --- | --- | --- |"]
        lines += [f"| `{path}` | {shown(old)} | {shown(new)} |" for path, old, new in changes[:limit]]
        if len(changes) > limit:
            lines.append(f"\n… and {len(changes) - limit} more (the record's `git diff` shows every one).")
        lines.append("")
    if not lines:
        return f"## Published values\n\nNo published value changed since `{since}`.\n"
    added = sum(1 for slug in after if slug not in before)
    removed = sum(1 for slug in before if slug not in after)
    summary = f"{counted} {_plural(counted, 'value')} changed since `{since}`"
    summary += "".join(
        f", {n} {_plural(n, 'lesson')} {what}" for n, what in ((added, "added"), (removed, "removed")) if n
    )
    return "\n".join([f"## Published values\n\n{summary}.\n", *lines]).rstrip("\n") + "\n"


def _plural(n, word):
    return word if n == 1 else word + "s"


def records_in(folder):
    """The working tree's records: {lesson: record}, in file-name order."""
    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(Path(folder).glob("*.json"))}


def _git(folder, *args):
    result = subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, encoding="utf-8")
    if result.returncode:
        raise LessonError(f"git {' '.join(args)}: {result.stderr.strip()}")
    return result.stdout


def records_at(ref, folder):
    """The records committed at ``ref``: {lesson: record}; none where the folder did not exist yet."""
    folder = Path(folder)
    verify = ["git", "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"]
    if subprocess.run(verify, cwd=folder, capture_output=True).returncode:
        raise LessonError(f"--changes-since {ref}: not a commit in this repository (is its history fetched?)")
    names = [name for name in _git(folder, "ls-tree", "--name-only", ref, "--", ".").split("\n") if name]
    return {
        Path(name).stem: json.loads(_git(folder, "show", f"{ref}:./{name}"))
        for name in sorted(names)
        if name.endswith(".json")
    }


def changes_since(ref, folder):
    return report(records_at(ref, folder), records_in(folder), ref)
