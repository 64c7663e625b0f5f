"""A shown calculation, redone from the numbers as shown: the check behind "shown arithmetic holds".

A reader who redoes a calculation a page writes out uses the numbers as printed. This module
reads the math of a rendered page, finds each written-out calculation followed by its result
(``expansion = result`` or ``≈ result``), redoes it from the printed operands, and compares
it with the printed result at the page's precision. Where they differ, a note must follow
the formula (the helpers of ``macros.render.arithmetic`` write one: "The weights shown are
rounded: …"); a difference with no note is a silent miss, and the build stops on it.

The calculations it reads (the forms the helpers write, and the ones written by hand):

- a sum of products ``2\\cdot 1+(-1)\\cdot 0``, alone or as the cells of a matrix of scores;
- weighted terms ``0.248(1) + 0.503(0)``;
- a weighted sum of vectors ``0.333\\,[2, 1] + 0.333\\,[0, 4]``;
- a sum of numbers or of vectors ``0.5 + 0.25``, ``[1, 0] + [0, -\\infty]``;
- a product of a row and a matrix ``[1, 2] \\begin{bmatrix}…\\end{bmatrix}``.
"""

import re
from dataclasses import dataclass

import numpy as np

NUMBER = r"-?\d+(?:\.\d+)?"
MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
NOTE = re.compile(r"rounded", re.I)
RELATION = re.compile(r"\s(?:=|\\approx)\s")


@dataclass(frozen=True)
class Miss:
    """A calculation whose shown operands do not give its shown result, with no note."""

    written: str
    redone: str
    shown: str

    def __str__(self):
        return (
            f"the calculation ${self.written}$ gives {self.redone} from the numbers as shown, but the page "
            f"shows {self.shown} with no note: write it with a helper that adds the rounding note"
        )


class UnreadableError(ValueError):
    """Text that is not a calculation of shown numbers (a formula, a symbol)."""


def _number(text):
    text = text.strip().replace("\u2212", "-")
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    if text in (r"-\infty", "-\\infty"):
        return -np.inf
    if not re.fullmatch(NUMBER, text):
        raise UnreadableError(text)
    return float(text)


def _array(text):
    """A printed number, vector ``[a, b]`` or matrix ``\\begin{bmatrix}…\\end{bmatrix}``, as
    (values, the text of its entries)."""
    text = text.strip().rstrip(".,").strip()
    if text.startswith(r"\begin{bmatrix}") and text.endswith(r"\end{bmatrix}"):
        body = text[len(r"\begin{bmatrix}") : -len(r"\end{bmatrix}")]
        rows = [[cell.strip() for cell in row.split("&")] for row in body.split(r"\\")]
        values = np.array([[_number(cell) for cell in row] for row in rows])
        return (values[0] if len(rows) == 1 else values), [cell for row in rows for cell in row]
    if text.startswith("[") and text.endswith("]"):
        cells = [cell.strip() for cell in text[1:-1].split(",")]
        return np.array([_number(cell) for cell in cells]), cells
    return np.array(_number(text)), [text]


def _split_top(text, separators):
    """``text`` split at the separators that are not inside brackets or braces."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        char = text[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif depth == 0 and char in separators and i > 0 and text[i - 1] not in "(&{":
            parts.append(text[start:i])
            start = i
        i += 1
    parts.append(text[start:])
    return [part for part in (p.strip() for p in parts) if part]


def _term(text):
    """One term of a sum: a product ``a\\cdot b``, a weighted value ``w(v)`` or ``w\\,[v]``, a
    row times a matrix, or a number or vector."""
    sign = 1.0
    if text.startswith("+"):
        text = text[1:].strip()
    elif text.startswith("-") and not re.match(NUMBER, text):
        sign, text = -1.0, text[1:].strip()
    if r"\cdot" in text:
        left, right = text.split(r"\cdot", 1)
        return sign * _number(left) * _number(right)
    weighted = re.fullmatch(rf"({NUMBER})\s*\((.+)\)", text)
    if weighted:
        return sign * float(weighted.group(1)) * _number(weighted.group(2))
    scaled = re.fullmatch(rf"({NUMBER})\s*\\,\s*(\[.*\]|\\begin\{{bmatrix\}}.*\\end\{{bmatrix\}})", text, re.S)
    if scaled:
        return sign * float(scaled.group(1)) * _array(scaled.group(2))[0]
    product = re.fullmatch(r"(\[[^\]]*\])\s*(\\begin\{bmatrix\}.*\\end\{bmatrix\})", text, re.S)
    if product:
        return sign * (_array(product.group(1))[0] @ _array(product.group(2))[0])
    return sign * _array(text)[0]


def redo(text):
    """The value of a written-out calculation, or UnreadableError when ``text`` is not one (a lone
    number is not a calculation either)."""
    terms = _split_top(text, "+-")
    if len(terms) < 2 and not re.search(r"\\cdot|\\,|\]\s*\\begin", text):
        raise UnreadableError(text)
    with np.errstate(invalid="ignore"):
        return sum(_term(term) for term in terms)


def _cells(text):
    """A matrix whose cells are calculations (the score expansions), redone cell by cell."""
    values, cells = [], None
    body = text[len(r"\begin{bmatrix}") : -len(r"\end{bmatrix}")]
    for row in body.split(r"\\"):
        cells = [cell.strip() for cell in row.split("&")]
        values.append([redo(cell) for cell in cells])
    return np.array(values)


def calculations(tex):
    """(written calculation, its value redone, the shown result) for each one in a formula."""
    found = []
    parts = RELATION.split(" ".join(tex.split()))
    for written, result in zip(parts, parts[1:], strict=False):
        written, result = _operand(written), _operand(result)
        try:
            value = _cells(written) if written.startswith(r"\begin{bmatrix}") else redo(written)
            shown = _array(result)
        except (UnreadableError, ValueError, IndexError):
            continue
        if np.shape(value) == np.shape(shown[0]):  # a result of another shape is not this one's
            found.append((written, value, shown))
    return found


def _operand(text):
    """The calculation or the result at the end of one side of a relation (``z_1 = …``: after
    the last name; ``…, \\qquad`` cut)."""
    text = re.split(r"\\qquad|\\quad|,\s*\\", text)[-1] if "\\q" in text else text
    return text.strip().rstrip(".,").strip()


def agrees(value, shown, places):
    """The redone value reads as the shown one at the page's precision, entry by entry (a whole
    number printed without decimals is exact, so 0.999 does not read as 1)."""
    values, _ = shown
    for got, want in zip(np.ravel(np.asarray(value, dtype=float)), np.ravel(values), strict=True):
        if np.isinf(want) or np.isinf(got):
            if got != want:
                return False
            continue
        if abs(round(float(got), places) - float(want)) > 0.5 * 10.0**-places + 1e-9:
            return False
    return True


def _shown_text(value, shown, places):
    values, _ = shown
    formatted = [("-\u221e" if np.isinf(v) else f"{v:.{places}f}") for v in np.ravel(np.asarray(value, dtype=float))]
    return formatted[0] if np.ndim(values) == 0 else "[" + ", ".join(formatted) + "]"


def misses(markdown, places):
    """Every calculation on the page whose shown operands give another result at ``places``
    decimals (the lesson's), with no note after its formula (in the rest of its paragraph,
    or the paragraph that follows)."""
    found = []
    for match in MATH.finditer(markdown):
        tex = match.group(1) or match.group(2)
        after = markdown[match.end() : match.end() + 600].split("\n\n")
        nearby = " ".join(after[:2]) if after and not after[0].strip() else after[0]
        for written, value, shown in calculations(tex):
            if not agrees(value, shown, places) and not NOTE.search(nearby):
                found.append(Miss(written, _shown_text(value, shown, places), ", ".join(shown[1])))
    return found
