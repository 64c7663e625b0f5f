"""The search index's formulas as plain text (pylatexenc's ``LatexNodes2Text``), each worked
out once, and, in ``mkdocs build``, by a lesson worker rather than by the build's own process.

Search holds each formula as its TeX between arithmatex's delimiters (``\\(…\\)``,
``\\[…\\]``; ``macros.site.compat`` says how the index is written and rewritten); a reader
searches it as text: ``a \\approx [0.6090, 0.0730]`` becomes ``a ≈[0.6090, 0.0730]``.
pylatexenc is most of the time that rewriting takes, and a book repeats its formulas, so
each is worked out once (``readable``).

As each page is built its formulas are noted (``note``). With workers (``macros.pages.ahead``,
in ``mkdocs build``), they are handed over once every page is built (``hand_over``, at
``on_env``): the workers are done with the lessons then, and one works the formulas out while
this process writes the site, on a core that would otherwise wait; the index's rewriting
takes them at the end (``learned``). Whatever no worker works out (every formula, without
workers) is worked out when the index asks for it, so only formulas the index holds: the
search plugin leaves out a few that a page's HTML shows, and holds a few others its own way.
"""

import html
import re

from pylatexenc.latex2text import LatexNodes2Text

TEX = re.compile(r"\\\((?P<inline>.*?)\\\)|\\\[(?P<display>.*?)\\\]", re.S)
MATRIX = r"\begin{bmatrix}"  # a matrix of numbers is left out of the index (its snippet would be digits)
WORKER_SECONDS = 10  # the longest wait for a worker's plain texts (a few hundred formulas take well under 1 s)

_plain = LatexNodes2Text(math_mode="text")
_known = {}  # a formula's TeX, as the index holds it -> its plain text
_noted = set()  # formulas of the pages built so far, whose plain text is not known yet
_coming = []  # (formulas, the result a worker will give: their plain texts, in order)


def readable(tex):
    """A formula's TeX (as the index holds it, HTML-escaped) as plain text, escaped again."""
    if tex not in _known:
        text = _plain.latex_to_text(html.unescape(tex))
        _known[tex] = html.escape(" ".join(text.split()), quote=False)
    return _known[tex]


def formula_of(match):
    return match["inline"] if match["inline"] is not None else match["display"]


def note(searched_html):
    """Note the formulas of a page's HTML as search will hold them (``searched_html``: without
    what search skips), their TeX unescaped and escaped again (``quote=False``), as the search
    plugin writes it."""
    for match in TEX.finditer(searched_html):
        tex = formula_of(match)
        if MATRIX not in tex:
            _noted.add(html.escape(html.unescape(tex), quote=False))


def plain_texts(formulas):
    """The plain text of each formula: what a worker runs for ``hand_over``."""
    return [readable(tex) for tex in formulas]


def hand_over(run_later):
    """The formulas noted so far, handed to a worker: ``run_later(function, args)`` runs
    ``function(*args)`` there and gives its result (``get``), or None when there is none."""
    formulas = sorted(_noted.difference(_known))
    _noted.clear()
    result = run_later(plain_texts, (formulas,)) if formulas else None
    if result is not None:
        _coming.append((formulas, result))


def learned():
    """The plain texts the workers worked out, known here. A worker that fails or takes too
    long is left: its formulas are worked out here, as they are met."""
    while _coming:
        formulas, result = _coming.pop()
        try:
            _known.update(zip(formulas, result.get(timeout=WORKER_SECONDS), strict=True))
        except Exception:  # noqa: BLE001 (each formula is worked out here instead)
            continue
    _noted.clear()


def with_plain_math(text):
    """Formulas as plain text; a matrix of numbers is left out."""

    def plain(match):
        tex = formula_of(match)
        return "" if MATRIX in tex else readable(tex)

    return TEX.sub(plain, text)
