"""A page per chapter that sums it up: its formulas, the shapes of its matrices, its numbers
to remember, on one or two printed pages.

Everything on it comes from the chapter's lessons as the build computes them:

- **formulas**: each lesson's front matter ``formulas`` (TeX in symbols, no results);
- **shapes**: one table of the shapes in letters, which every lesson of the chapter is checked
  against (``sizes`` reads each size from the lesson's own arrays and ``refused`` compares every
  matrix's shape with the table; a lesson that breaks it stops the build at its page), and
  each lesson's sizes in numbers;
- **numbers to remember**: sentences a lesson's template hands over with
  ``{{ remember("…") }}`` (its numbers written by ``num`` like any other), taken out of the
  lesson's page (``taken_out``) and listed here under the lesson.

A lesson's page hands its sizes and sentences over as a file made with it (``handed_over``),
so a summary is made from its lessons' pages as the build (or the page cache) has them,
without computing a lesson again.

A summary is ``chapters/<slug>.md`` in the site, after the chapter's lessons in the nav, and
each lesson's page links it at its foot.
"""

import dataclasses
import json
import posixpath
import re
from dataclasses import dataclass

from macros.sources.track import summary_uri as uri

OPEN, CLOSE = "\ue002", "\ue003"  # private-use characters around a sentence to remember
REMEMBERED = re.compile(f"{OPEN}(?P<text>[^{CLOSE}]*){CLOSE}")


class SummaryError(Exception):
    """A chapter's lessons do not fit its summary: the message names the lesson and matrix."""


def link_from(entry, title, from_src):
    """The line at a lesson's foot: its chapter's summary, linked from the lesson's page."""
    target = posixpath.relpath(uri(title), posixpath.dirname(from_src))
    return f"[Chapter {entry.chapter} on one page: {title}]({target})"


# ---------------------------------------------------------------- numbers to remember


def marked(text):
    """What ``remember(text)`` writes into a lesson's page: nothing a reader sees there."""
    if OPEN in text or CLOSE in text:
        raise ValueError("remember(): the sentence holds another remember()")
    return f"{OPEN}{' '.join(str(text).split())}{CLOSE}"


def taken_out(markdown):
    """(the page without its sentences to remember, those sentences in order)."""
    said = [found["text"] for found in REMEMBERED.finditer(markdown)]
    return REMEMBERED.sub("", markdown), said


# ---------------------------------------------------------------- shapes


@dataclass(frozen=True)
class Sizes:
    """A lesson's sizes, read from its arrays (None: the lesson has no such thing)."""

    n: int  # queries (rows of Q)
    keys: int  # rows of K and V: n for self-attention, the source's length for cross-attention
    d_model: int | None  # width of the rows the projections read (None: Q, K, V given directly)
    h: int
    d_k: tuple  # each head's width of queries and keys
    d_v: tuple  # each head's width of values
    d_out: int  # width of the layer's output Y
    projected: bool  # the layer has an output projection W_O of its own
    layers: int  # 1, or the layers of a stack (the sizes are its first layer's)


def layer_of(lesson):
    """(the layer's trace, its specification: heads and W_O, the number of layers): the
    lesson's own layer, or the first of its stack."""
    trace, fixture = lesson.trace, lesson.fixture
    if trace.heads or not getattr(trace, "layers", None):
        return trace, fixture, 1
    return trace.layers[0], fixture.layers[0], len(trace.layers)


def sizes(lesson):
    trace, spec, layers = layer_of(lesson)
    heads = trace.heads
    X = getattr(lesson.fixture, "X", None)
    projections = getattr(spec, "heads", None) or ()
    d_model = projections[0].W_Q.shape[0] if projections and getattr(projections[0], "W_Q", None) is not None else None
    return Sizes(
        n=heads[0].Q.shape[0],
        keys=heads[0].K.shape[0],
        d_model=d_model if d_model is not None else (None if X is None else X.shape[1]),
        h=len(heads),
        d_k=tuple(head.Q.shape[1] for head in heads),
        d_v=tuple(head.V.shape[1] for head in heads),
        d_out=trace.output.shape[1],
        projected=getattr(spec, "W_O", None) is not None,
        layers=layers,
    )


def refused(lesson):
    """The first matrix of the lesson whose shape is not the table's, in words, or None."""
    trace, spec, _ = layer_of(lesson)
    s = sizes(lesson)
    projections = getattr(spec, "heads", None) or ()
    expected = []
    for i, head in enumerate(trace.heads):
        d_k, d_v, named = s.d_k[i], s.d_v[i], f"of head {i + 1}"
        expected += [
            (f"Q {named}", head.Q, (s.n, d_k)),
            (f"K {named}", head.K, (s.keys, d_k)),
            (f"V {named}", head.V, (s.keys, d_v)),
            (f"the scores {named}", head.scores, (s.n, s.keys)),
            (f"the weights {named}", head.weights, (s.n, s.keys)),
            (f"the reading Z {named}", head.output, (s.n, d_v)),
        ]
        if i < len(projections) and getattr(projections[i], "W_Q", None) is not None and s.d_model is not None:
            expected.append((f"W_Q {named}", projections[i].W_Q, (s.d_model, d_k)))
    expected.append(("the concatenation", trace.concat, (s.n, sum(s.d_v))))
    if s.projected:
        expected.append(("W_O", trace.W_O, (sum(s.d_v), s.d_out)))
        if s.d_model is not None:
            expected.append(("Y", trace.output, (s.n, s.d_model)))
    else:
        expected.append(("Y, the concatenation itself without W_O", trace.output, (s.n, sum(s.d_v))))
    for name, array, shape in expected:
        if tuple(array.shape) != shape:
            return f"{name} is {array.shape[0]} × {array.shape[1]}, not {shape[0]} × {shape[1]}"
    return None


SHAPES = (
    ("$X$, the rows the layer reads", r"n \times d_{\text{model}}"),
    ("$W_Q$, $W_K$ of each head", r"d_{\text{model}} \times d_k"),
    ("$W_V$ of each head", r"d_{\text{model}} \times d_v"),
    ("$Q$ of each head", r"n \times d_k"),
    ("$K$ of each head", r"n \times d_k"),
    ("$V$ of each head", r"n \times d_v"),
    ("the scores $S$ and weights $A$", r"n \times n"),
    ("the reading $Z = AV$ of each head", r"n \times d_v"),
    ("the heads' readings side by side", r"n \times h\,d_v"),
    ("$W_O$", r"h\,d_v \times d_{\text{model}}"),
    ("the output $Y$", r"n \times d_{\text{model}}"),
)


def _widths(values):
    distinct = sorted(set(values))
    return ", ".join(str(v) for v in distinct)


def shapes_table(entries, sized):
    """The shapes in letters, then each lesson's sizes in numbers (``sized``: slug -> Sizes)."""
    lines = ["| matrix | shape |", "| --- | --- |"]
    lines += [f"| {name} | ${shape}$ |" for name, shape in SHAPES]
    fewer = any(sized[entry.slug].keys != sized[entry.slug].n for entry in entries)
    keys = (
        r" Where the keys are not the queries' own rows (a source in cross-attention, or one query reading "
        r"several keys), $K$ and $V$ have $m$ rows, and $S$ and $A$ are $n \times m$."
        if fewer
        else ""
    )
    columns = [r"$n$", *([r"$m$"] if fewer else []), r"$d_{\text{model}}$", "$h$", "$d_k$", "$d_v$"]
    direct = (
        r" A lesson that gives $Q$, $K$ and $V$ directly, with no projections, has no $d_{\text{model}}$ (a dash)."
        if any(sized[entry.slug].d_model is None for entry in entries)
        else ""
    )
    lines += [
        "",
        rf"Here $n$ counts the queries and $h$ the heads.{keys} Without an output projection, $Y$ is the heads' "
        f"readings side by side.{direct} Each lesson's sizes:",
        "",
        "| lesson | " + " | ".join(columns) + " |",
        "| --- |" + " ---: |" * len(columns),
    ]
    for entry in entries:
        s = sized[entry.slug]
        d_model = "—" if s.d_model is None else str(s.d_model)
        layers = f" ({s.layers} layers, the first)" if s.layers > 1 else ""
        cells = [s.n, *([s.keys] if fewer else []), d_model, s.h, _widths(s.d_k), _widths(s.d_v)]
        lines.append(f"| {entry.title}{layers} | " + " | ".join(str(cell) for cell in cells) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------- the page


def handed_over(lesson, remembered):
    """What a lesson's page hands its chapter's summary (as text, made with the page, so that
    the summary needs neither the lesson computed again nor its page rendered again): its
    sizes and its sentences to remember. A lesson whose matrices do not have the shapes the
    summary's table states is a SummaryError."""
    why = refused(lesson)
    if why:
        raise SummaryError(
            f"its matrices do not have the shapes its chapter's summary states: {why} "
            "(macros/render/summaries.py, SHAPES)"
        )
    return json.dumps({"sizes": dataclasses.asdict(sizes(lesson)), "remembered": remembered})


def taken_over(text):
    """(Sizes, sentences) from what ``handed_over`` wrote."""
    data = json.loads(text)
    found = data["sizes"]
    return Sizes(**{**found, "d_k": tuple(found["d_k"]), "d_v": tuple(found["d_v"])}), data["remembered"]


def page(number, title, entries, handed, src):
    """The summary's Markdown. ``handed``: slug -> (its Sizes, its sentences to remember), as its
    page handed them over; ``src``: the summary's own place, which links are relative to."""

    def to(entry):
        return posixpath.relpath(entry.src, posixpath.dirname(src))

    parts = [
        f"# Chapter {number} on one page: {title}",
        "",
        '<div class="chapter-summary" markdown>',
        "",
        "The lessons of this chapter, what each one says, its formulas and its numbers to remember, "
        "then the shapes of the matrices they use. Every number here is the lesson's own.",
        "",
        "## The lessons",
        "",
    ]
    for entry in entries:
        parts += [f"### {entry.number}. [{entry.title}]({to(entry)})", "", entry.meta["summary"], ""]
        parts += [f"$$\n{tex}\n$$\n" for tex in entry.meta.get("formulas", [])]
        said = handed[entry.slug][1]
        if said:
            parts += ["To remember:", ""] + [f"- {text}" for text in said] + [""]
    parts += [
        "## Shapes",
        "",
        shapes_table(entries, {slug: found[0] for slug, found in handed.items()}),
        "",
        "</div>",
        "",
    ]
    return "\n".join(parts)
