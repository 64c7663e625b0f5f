"""A lesson's front matter: the YAML between the leading '---' lines of its lesson.md.

The track, the facts line and the page all read these fields, so they are checked once,
here: a typo in a field name is an error, never a silent default.
"""

import re

from macros.errors import SourceError
from macros.sources import yamlfile
from macros.sources.found import describe

FIELDS = {"title", "decimals", "kind", "minutes", "requires", "optional", "summary", "search", "formulas"}
# A formula of a chapter's summary is symbols, not results: a number with decimals in it is one
# typed, which the lesson's numbers would not check.
TYPED_DECIMAL = re.compile(r"\d\.\d")
KINDS = ("worked example", "derivation")


def bounds(text):
    """(start of the closing '---' line, end of the block) of the front matter, or None.

    The block is the YAML between a first line '---' and the next line that starts with
    '---': the book's own definition, for lessons and for the other pages alike.
    """
    if not text.startswith("---"):
        return None
    closing = text.find("\n---", 3)
    if closing < 0:
        return None
    end = text.find("\n", closing + 4)
    return closing, len(text) if end < 0 else end + 1


def split(text):
    """(front matter text, the rest) of a template, or (None, text) without a front matter block."""
    found = bounds(text)
    if found is None:
        return None, text
    closing, end = found
    return text[3:closing], text[end:]


def blanked(text):
    """The template with its front matter replaced by as many empty lines: line numbers hold."""
    found = bounds(text)
    return text if found is None else "\n" * text[: found[1]].count("\n") + text[found[1] :]


def read(template):
    """The front matter of ``template``, every field checked."""
    text = yamlfile.read_text(template)
    if not text.startswith("---"):
        raise SourceError(template, "front matter", "a block between '---' lines at the top", "none")
    if bounds(text) is None:
        raise SourceError(template, "front matter", "a closing '---' line", "none")
    front, _ = split(text)
    meta = yamlfile.parse(front, template, first_line=1) or {}
    if not isinstance(meta, dict):
        raise SourceError(template, "front matter", "a mapping of fields", describe(meta))
    check(template, meta)
    return meta


def check(template, meta):
    def fail(field, expected):
        raise SourceError(template, f"front matter: {field}", expected, describe(meta.get(field)))

    for key in meta:
        if key not in FIELDS:
            expected = "one of " + ", ".join(sorted(FIELDS))
            raise SourceError(template, f"front matter: {key}", expected, "an unknown field")
    if not isinstance(meta.get("title"), str):
        fail("title", "the lesson's title")
    if not _whole(meta.get("decimals", 3), 0, 8):
        fail("decimals", "a whole number from 0 to 8")
    if meta.get("kind") not in KINDS:
        fail("kind", " or ".join(KINDS))
    if not _whole(meta.get("minutes"), 1, 600):
        fail("minutes", "a whole number of minutes")
    if not isinstance(meta.get("summary"), str):
        fail("summary", "one sentence")
    if not isinstance(meta.get("optional", False), bool):
        fail("optional", "true or false")
    requires = meta.get("requires", [])
    if not isinstance(requires, list) or not all(isinstance(slug, str) for slug in requires):
        fail("requires", "a list of lesson folder names")
    formulas = meta.get("formulas", ["x"])
    if not isinstance(formulas, list) or not formulas:
        fail("formulas", "a list of the lesson's key formulas in TeX, for its chapter's summary")
    for i, tex in enumerate(formulas):
        if not isinstance(tex, str) or not tex.strip() or TYPED_DECIMAL.search(tex):
            raise SourceError(
                template,
                f"front matter: formulas[{i}]",
                "a formula in TeX symbols, no number with decimals",
                describe(tex),
            )
    search = meta.get("search", {"boost": 1})
    boost = search.get("boost") if isinstance(search, dict) and set(search) == {"boost"} else None
    if not isinstance(boost, int | float) or isinstance(boost, bool) or not 0 < boost <= 10:
        fail("search", "boost: a number above 0 and at most 10 (how far the search ranks this lesson up)")


def _whole(value, low, high):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
