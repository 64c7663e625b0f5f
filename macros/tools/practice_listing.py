"""``python -m macros practice [slug ...]``: each lesson's practice as a reader meets it, and what
its rules refused while drawing it.

For each lesson with a practice block: each kind of question (the sets take the kinds in
turn) with its words, tolerance and range; the ``require:`` rules; how many draws each rule
refused (``distinct`` counts a repeat of an earlier set) out of how many in all; and one set
of each kind with its answer and worked solution, as the page shows them. Authors read it
while choosing what to draw and what to refuse; the review of the book's practice reads it.
"""

from dataclasses import dataclass
from pathlib import Path

from macros import lessons
from macros.practice import draw


@dataclass(frozen=True)
class Listed:
    slug: str
    practice: object
    decimals: int


def listing(project=".", slugs=None):
    root = Path(project) / "lessons"
    folders = [folder for folder in lessons.folders(root) if not slugs or folder.name in slugs]
    found = []
    for folder in folders:
        lesson = lessons.load(folder)
        if lesson.practice is not None:
            found.append(Listed(lesson.slug, lesson.practice, lesson.decimals))
    return found


def _rules(spec):
    return ", ".join(draw.label(spec, i) for i in range(len(spec.require))) or "none"


def _range(q):
    if q.whole:
        return "exact whole number"
    low = "" if q.low is None else f"{q.low:g} ≤ "
    high = "" if q.high is None else f" ≤ {q.high:g}"
    bounds = f", {low}x{high}" if low or high else ""
    return f"within {q.tolerance:g}{bounds}"


def text(found):
    lines = []
    for item in found:
        p = item.practice
        refused = ", ".join(f"{rule}: {n}" for rule, n in p.refused.items()) or "none"
        lines += [
            f"{item.slug}",
            f"  require: {_rules(p.spec)}",
            f"  drawn: {p.tries} draws for {p.spec.variants} sets; refused by rule: {refused}",
        ]
        for kind in range(len(p.spec.kinds)):
            example = next(v for v in p.variants[1:] if v.kind == kind)
            numbers = [v.number for v in p.variants[1:] if v.kind == kind]
            lines.append(f"  kind {kind + 1} (sets {', '.join(map(str, numbers))}); set {example.number}:")
            for q in example.questions:
                lines.append(f"    {q.quantity.label} [{_range(q.quantity)}] = {q.answer:.{item.decimals + 2}g}")
                lines += [f"      {line}" for line in q.solution]
        lines.append("")
    return "\n".join(lines)
