"""Claims laid out for review: ``python -m macros claims``.

A claim is a sentence that fails the build when its condition stops holding. A reviewer
reads each sentence against what it checks, so this module lists every claim the book
renders: where it is written, the sentence a reader sees, and the condition in the
template. ``perturbed`` renders a lesson on mildly changed numbers, so that a claim whose
condition never fails (one that asserts nothing) can be found.
"""

import dataclasses
import re
from collections import defaultdict
from pathlib import Path

import numpy as np

from macros import compute as computation
from macros.errors import LessonError
from macros.pages.book import Book
from macros.sources import folders
from macros.vocabulary import claims

BLOCK = re.compile(r"\{%-?\s*call\s+claim\((?P<condition>.*?)\)\s*-?%\}", re.S)
LOCATED = re.compile(r"^(?:lessons|macros|docs)/[^:\s]+:\d+: ")


@dataclasses.dataclass(frozen=True)
class Listed:
    claimed: claims.Claimed
    condition: str  # as the template writes it


def conditions(text):
    """{line: condition as written} for every claim block of a template."""
    return {text.count("\n", 0, m.start()) + 1: " ".join(m["condition"].split()) for m in BLOCK.finditer(text)}


def written(root, where):
    """A template's text by its name (``macros/...`` names are the code's own files)."""
    base = Path(__file__).resolve().parents[2] if where.startswith("macros/") else Path(root)
    return (base / where).read_text(encoding="utf-8")


def rendered_claims(book, slug, lenient=False):
    """The claims of one lesson page as it renders, in order."""
    src = folders.src_uri(slug)
    with claims.recorded(lenient) as found:
        book.render(src, book.root / src)
    return found


def listing(root, slugs=None):
    """Every claim of the lessons (all by default), with the condition it checks."""
    book = Book(root, cache=False)
    listed, sources = [], {}
    for slug in slugs or list(book.folders):
        for claimed in rendered_claims(book, slug):
            if claimed.where not in sources:
                sources[claimed.where] = conditions(written(root, claimed.where))
            listed.append(Listed(claimed, sources[claimed.where].get(claimed.line, "?")))
    return listed


def text(listed):
    """The listing as an author reads it: place, sentence, condition."""
    return "\n".join(
        f"{item.claimed.where}:{item.claimed.line}\n  says:   {item.claimed.sentence}\n  checks: {item.condition}"
        for item in listed
    )


# ---------------------------------------------------------------- perturbations


def matrices(fixture):
    """(description, a function giving the fixture with that matrix replaced) for each matrix.
    With an embedding, X is made from E and P when the layer runs, so those are changed instead;
    a stack's heads are its layers'; a separate unembedding's W_U is one more."""
    found = embedding_matrices(fixture)
    for name in ("Q", "K", "V", "source") if found else ("X", "Q", "K", "V", "source"):
        if getattr(fixture, name, None) is not None:
            found.append((name, lambda M, name=name: dataclasses.replace(fixture, **{name: M}), getattr(fixture, name)))
    for i, head in enumerate(getattr(fixture, "heads", ())):
        for name in ("W_Q", "W_K", "W_V"):
            replace = lambda M, i=i, name=name: dataclasses.replace(  # noqa: E731
                fixture,
                heads=tuple(dataclasses.replace(h, **{name: M}) if j == i else h for j, h in enumerate(fixture.heads)),
            )
            found.append((f"heads[{i}].{name}", replace, getattr(head, name)))
    return found + stack_matrices(fixture) + unembedding_matrices(fixture)


def embedding_matrices(fixture):
    emb = getattr(fixture, "embedding", None)
    if emb is None:
        return []
    found = [("embedding.E", lambda M: dataclasses.replace(fixture, embedding=dataclasses.replace(emb, E=M)), emb.E)]
    if emb.P is not None:
        found.append(
            ("embedding.P", lambda M: dataclasses.replace(fixture, embedding=dataclasses.replace(emb, P=M)), emb.P)
        )
    return found


def stack_matrices(fixture):
    """Each layer's heads' projections, layer by layer."""
    found = []
    for l, layer in enumerate(getattr(fixture, "layers", ())):  # noqa: E741
        for i, head in enumerate(layer.heads):
            for name in ("W_Q", "W_K", "W_V"):

                def replace(M, l=l, i=i, name=name):  # noqa: E741
                    heads = tuple(
                        dataclasses.replace(h, **{name: M}) if j == i else h
                        for j, h in enumerate(fixture.layers[l].heads)
                    )
                    layers = tuple(
                        dataclasses.replace(each, heads=heads) if k == l else each
                        for k, each in enumerate(fixture.layers)
                    )
                    return dataclasses.replace(fixture, layers=layers)

                found.append((f"layers[{l}].heads[{i}].{name}", replace, getattr(head, name)))
    return found


def unembedding_matrices(fixture):
    spec = getattr(fixture, "unembedding", None)
    if spec is None or spec.tied:
        return []
    return [
        (
            "unembedding.W_U",
            lambda M: dataclasses.replace(fixture, unembedding=dataclasses.replace(spec, W_U=M)),
            spec.W_U,
        )
    ]


def perturbed(lesson, seed):
    """The lesson computed on its numbers with one matrix mildly changed (seeded): each entry
    moves by a normal draw of a fifth of the matrix's spread, rounded to two decimals."""

    rng = np.random.default_rng(seed)
    options = matrices(lesson.fixture)
    name, replace, M = options[seed % len(options)]
    spread = float(np.std(M)) or 1.0
    changed = replace(np.round(M + rng.normal(0.0, 0.2 * spread, M.shape), 2))
    trace = computation.compute(changed)
    return name, dataclasses.replace(lesson, fixture=changed, trace=trace, practice=None)


@dataclasses.dataclass
class Perturbation:
    """A lesson's claims over several perturbations: per claim, how often it held."""

    held: dict = dataclasses.field(default_factory=lambda: defaultdict(list))  # (where, line) -> [bool]
    sentences: dict = dataclasses.field(default_factory=dict)
    stopped: list = dataclasses.field(default_factory=list)  # the located messages of renders that stopped
    unlocated: list = dataclasses.field(default_factory=list)  # failures without a place: a bug

    def never_failed(self):
        return [(place, self.sentences[place]) for place, results in self.held.items() if all(results)]


def perturb(root, slug, count):
    """Render lesson ``slug`` on ``count`` perturbations of its numbers; a Perturbation."""
    from macros import lessons

    report = Perturbation()
    original = lessons.load(Path(root) / "lessons" / slug, practice=False)
    for seed in range(count):
        _, lesson = perturbed(original, seed)
        book = Book(root, cache=False, compute=lambda s, lesson=lesson: (lesson, {}) if s == slug else _load(root, s))
        try:
            found = rendered_claims(book, slug, lenient=True)
        except LessonError as error:
            (report.stopped if LOCATED.match(str(error)) else report.unlocated).append(str(error))
            continue
        except Exception as error:  # a failure no author can place is the book's own bug
            report.unlocated.append(f"{type(error).__name__}: {error}")
            continue
        for claimed in found:
            report.held[(claimed.where, claimed.line)].append(claimed.held)
            report.sentences.setdefault((claimed.where, claimed.line), claimed.sentence)
    return report


def _load(root, slug):
    from macros import lessons

    return lessons.load(Path(root) / "lessons" / slug, practice=False), {}
