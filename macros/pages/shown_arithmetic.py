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
- a product of a row and a matrix ``[1, 2] \\begin{bmatrix}…\\end{bmatrix}``;
- a quotient ``[2.028, 4.113] \\,/\\, 6.141`` or ``\\frac{[2, -1]}{\\sqrt{ 2 }}``;
- a product of names the page showed before, ``A V`` or ``Q^{(1)} K^{(1)\\top}``: each name
  is read from its last display (``V = …``, ``A \\approx …``), a stack of matrices too;
- a total stated in prose after the numbers it adds, "[1.0, 0.1], which add up to 1.1"
  ("add up to one" included).
"""

import re
from dataclasses import dataclass

import numpy as np

NUMBER = r"-?\d+(?:\.\d+)?"
MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
NOTE = re.compile(r"rounded", re.I)
RELATION = re.compile(r"\s(?:=|\\approx)\s")
STATEMENT = re.compile(r"\\qquad|\\quad|,\s*\\;")  # between two equations of one display
NAME = re.compile(r"\\(?:bar|hat|tilde)\{[A-Za-z]\}|[A-Za-z](?![A-Za-z])")
# A total stated in prose: "which add up to $10.525$", "whose sum is $2.195$", "add up to one."
TOTAL = re.compile(r"\b(?:adds? up to|sums? to|(?:whose|their|its) sum is)\s+(?:\$([^$]+)\$|(one)\b(?!\s*:))")
NEAR = 240  # how far before a stated total the numbers it adds may end (one short paragraph)


@dataclass(frozen=True)
class Miss:
    """A calculation whose shown operands do not give its shown result, with no note."""

    written: str
    redone: str
    shown: str
    what: str = "the calculation"

    def __str__(self):
        return (
            f"{self.what} ${self.written}$ gives {self.redone} from the numbers as shown, but the page "
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
    root = re.fullmatch(rf"\\sqrt\{{\s*({NUMBER})\s*\}}", text)  # the scale's √d_k
    if root:
        return float(np.sqrt(float(root.group(1))))
    if not re.fullmatch(NUMBER, text):
        raise UnreadableError(text)
    return float(text)


def _bmatrix(body):
    """The entries of a bmatrix's body, as (values, their texts)."""
    rows = [[cell.strip() for cell in row.split("&")] for row in body.split(r"\\")]
    values = np.array([[_number(cell) for cell in row] for row in rows])
    return (values[0] if len(rows) == 1 else values), [cell for row in rows for cell in row]


BMATRIX = re.compile(r"\\begin\{bmatrix\}(.*?)\\end\{bmatrix\}", re.S)


def _array(text):
    """A printed number, vector ``[a, b]``, matrix ``\\begin{bmatrix}…\\end{bmatrix}`` or stack
    of matrices ``\\left[\\; \\begin{bmatrix}…\\end{bmatrix},\\; … \\;\\right]`` (``tensor()``), as
    (values, the text of its entries)."""
    text = text.strip().rstrip(".,").strip()
    if text.startswith(r"\left[") and text.endswith(r"\right]"):
        inner = text[len(r"\left[") : -len(r"\right]")]
        if re.sub(r"\\(?:begin|end)\{matrix\}|\\[;,]|\\\\|\{\}|,|\s", "", BMATRIX.sub("", inner)):
            raise UnreadableError(text)  # something else than matrices between the brackets
        stack = [_bmatrix(body) for body in BMATRIX.findall(inner)]
        return np.array([np.atleast_2d(values) for values, _ in stack]), [cell for _, cells in stack for cell in cells]
    if text.startswith(r"\begin{bmatrix}") and text.endswith(r"\end{bmatrix}"):
        return _bmatrix(text[len(r"\begin{bmatrix}") : -len(r"\end{bmatrix}")])
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


def _braced(text, start):
    """The text inside the braces opening at ``start``, and the index after the closing one."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1 : i], i + 1
    raise UnreadableError(text)


def _quotient(text, names):
    """``\\frac{a}{b}`` or ``a \\,/\\, b`` (the weights as exponentials over their sum, the
    scores over √d_k), or None when ``text`` is not one."""
    if text.startswith(r"\frac{"):
        top, end = _braced(text, len(r"\frac"))
        if text[end : end + 1] != "{":
            raise UnreadableError(text)
        bottom, end = _braced(text, end)
        if text[end:].strip():
            raise UnreadableError(text)
        return np.divide(_value(top, names), _value(bottom, names))
    parts = _split_top(text.replace(r"\,", " "), "/")
    if len(parts) != 2:
        return None
    return np.divide(_value(parts[0], names), _value(parts[1].lstrip("/"), names))


def _value(text, names):
    """A number, an array, or a calculation of them."""
    try:
        return redo(text, names)
    except UnreadableError:
        return _array(text)[0]


def _term(text, names=None):
    """One term of a sum: a product ``a\\cdot b``, a weighted value ``w(v)`` or ``w\\,[v]``, a
    row times a matrix, a quotient, a product of shown names, or a number or vector."""
    sign = 1.0
    if text.startswith("+"):
        text = text[1:].strip()
    elif text.startswith("-") and not re.match(NUMBER, text):
        sign, text = -1.0, text[1:].strip()
    quotient = _quotient(text, names)
    if quotient is not None:
        return sign * quotient
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
    factors = _factors(text)
    if names is not None and factors and len(factors) > 1:
        return sign * _named_product(factors, names)
    return sign * _array(text)[0]


def redo(text, names=None):
    """The value of a written-out calculation, or UnreadableError when ``text`` is not one (a lone
    number is not a calculation either). ``names``: the values the page showed by name, for a
    product of names (``A V``)."""
    terms = _split_top(text, "+-")
    factors = _factors(text) if len(terms) == 1 else None
    operators = re.search(r"\\cdot|\\,|\]\s*\\begin|\\frac|/", text) or (factors and len(factors) > 1)
    if len(terms) < 2 and not operators:
        raise UnreadableError(text)
    with np.errstate(invalid="ignore", divide="ignore"):
        return sum(_term(term, names) for term in terms)


# ---------------------------------------------------------------- names the page showed


def _scripts(text, i):
    """The sub- and superscripts written from ``i`` (``_{\\text{src}}``, ``^{(1)\\top}``, ``^\\top``),
    as (subscript, superscript, index after them)."""
    found = {"_": "", "^": ""}
    while i < len(text) and text[i] in "_^":
        mark, i = text[i], i + 1
        if text[i : i + 1] == "{":
            script, i = _braced(text, i)
        else:
            command = re.match(r"\\[A-Za-z]+|\w", text[i:])
            if not command:
                raise UnreadableError(text)
            script, i = command.group(), i + command.end()
        found[mark] += script
    return found["_"], found["^"], i


def _factors(text):
    """The names multiplied in ``text`` (``A V``, ``XW_Q``, ``Q^{(1)} K^{(1)\\top}``), each as
    (its name without a transpose, transposed), or None when ``text`` is anything else."""
    text, i, factors = text.replace(r"\,", " ").strip(), 0, []
    try:
        while i < len(text):
            if text[i].isspace():
                i += 1
                continue
            name = NAME.match(text, i)
            if not name:
                return None
            sub, sup, i = _scripts(text, name.end())
            transposed = r"\top" in sup
            sup = sup.replace(r"\top", "").strip()
            factors.append((f"{name.group()}_{{{sub}}}^{{{sup}}}", transposed))
    except UnreadableError:
        return None
    return factors or None


def _named_product(factors, names):
    """The product of the values shown for ``factors`` (matrices or stacks of them, head by head)."""
    value = None
    for name, transposed in factors:
        if name not in names:
            raise UnreadableError(name)
        operand = names[name]
        if not np.all(np.isfinite(operand)):  # a masked score is not multiplied
            raise UnreadableError(name)
        operand = np.swapaxes(operand, -1, -2) if transposed and np.ndim(operand) > 1 else operand
        value = operand if value is None else np.matmul(value, operand)
    return value


def _record(parts, names):
    """Remember what each name a statement defines shows (``Q = K = …``), from its first shown
    value; a name defined with no value shown (``A = \\operatorname{softmax}(S)``) is forgotten."""
    shown = None
    for part in parts:
        try:
            shown = _array(_operand(part))[0]
            break
        except (UnreadableError, ValueError, IndexError):
            continue
    for part in parts:
        factors = _factors(_operand(part))
        if factors and len(factors) == 1 and not factors[0][1]:
            if shown is None:
                names.pop(factors[0][0], None)
            else:
                names[factors[0][0]] = shown


# ---------------------------------------------------------------- the page's calculations


def _cells(text):
    """A matrix whose cells are calculations (the score expansions), redone cell by cell."""
    values, cells = [], None
    body = text[len(r"\begin{bmatrix}") : -len(r"\end{bmatrix}")]
    for row in body.split(r"\\"):
        cells = [cell.strip() for cell in row.split("&")]
        values.append([redo(cell) for cell in cells])
    return np.array(values)


def _statements(tex):
    """The equations of one formula, split where a display lists several (``\\qquad``), never
    inside a bracket (a stack of matrices is one value)."""
    flat = " ".join(tex.split())
    cuts = [m for m in STATEMENT.finditer(flat) if _depth(flat[: m.start()]) == 0]
    starts, ends = [0, *(m.end() for m in cuts)], [*(m.start() for m in cuts), len(flat)]
    return [flat[start:end] for start, end in zip(starts, ends, strict=True)]


def _depth(text):
    return sum(text.count(c) for c in "[{") - sum(text.count(c) for c in "]}")


def calculations(tex, names=None):
    """(written calculation, its value redone, the shown result) for each one in a formula.
    ``names`` holds what the page showed by name so far; the formula's own definitions are
    added to it."""
    names = {} if names is None else names
    found = []
    for statement in _statements(tex):
        parts = RELATION.split(statement)
        for written, result in zip(parts, parts[1:], strict=False):
            written, result = _operand(written), _operand(result)
            try:
                value = _cells(written) if written.startswith(r"\begin{bmatrix}") else redo(written, names)
                shown = _array(result)
            except (UnreadableError, ValueError, IndexError):
                continue
            if np.shape(value) == np.shape(shown[0]):  # a result of another shape is not this one's
                found.append((written, value, shown))
        _record(parts, names)
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
    """(the redone result, the shown one) as the message quotes them: a number or a row in
    full; of a matrix or a stack, only the entries that differ, each named by where it is."""
    values, texts = shown
    redone = np.broadcast_to(np.asarray(value, dtype=float), np.shape(values))
    formatted = [(("-" if v < 0 else "") + "\u221e" if np.isinf(v) else f"{v:.{places}f}") for v in np.ravel(redone)]
    if np.ndim(values) == 0:
        return formatted[0], texts[0]
    if np.ndim(values) == 1:
        return "[" + ", ".join(formatted) + "]", ", ".join(texts)
    cells = list(np.ndindex(np.shape(values)))
    wrong = [i for i, at in enumerate(cells) if not agrees(redone[at], (values[at], None), places)]
    return tuple(" and ".join(f"{said[i]} {_where(cells[i])}" for i in wrong) for said in (formatted, texts))


def _where(index):
    """'in row 4, column 2', or 'in matrix 2, row 3, column 1' for a stack: counted from 1."""
    words = ("matrix", "row", "column")[-len(index) :]
    return "in " + ", ".join(f"{word} {i + 1}" for word, i in zip(words, index, strict=True))


def _note_after(markdown, end):
    """A rounding note in the rest of the paragraph after ``end``, or in the next one when the
    formula ends its own (a display)."""
    after = markdown[end : end + 600].split("\n\n")
    nearby = " ".join(after[:2]) if after and not after[0].strip() else after[0]
    return bool(NOTE.search(nearby))


def _added(tex):
    """The numbers a formula ends with, as a stated total adds them: a row's entries, or each
    row of a matrix (a stack: each row of each matrix); None for a single number or a formula."""
    last = RELATION.split(_statements(tex)[-1])[-1]
    try:
        values = _array(_operand(last))[0]
    except (UnreadableError, ValueError, IndexError):
        return None
    return values.sum(axis=-1) if values.ndim else None


def _adjacent(gap):
    """The text between some numbers and a total keeps them together: the same paragraph, or
    the paragraph right after a display, and no more than a short sentence apart."""
    paragraphs = re.split(r"\n[ \t]*\n", gap)
    return len(gap) <= NEAR and not any(p.strip() for p in paragraphs[:-1])


def totals(markdown):
    """(where the total ends, the numbers added as written, their sum redone, the shown total)
    for each total stated in prose right after the numbers it adds ("which add up to $X$")."""
    found, maths = [], list(MATH.finditer(markdown))
    for total in TOTAL.finditer(markdown):
        before = [m for m in maths if m.end() <= total.start()]
        if not before or not _adjacent(markdown[before[-1].end() : total.start()]):
            continue
        tex = before[-1].group(1) or before[-1].group(2)
        value = _added(tex)
        try:
            shown = _array(total.group(1) or "1")
        except (UnreadableError, ValueError):
            continue
        if value is not None and shown[0].ndim == 0:
            shown = (np.broadcast_to(shown[0], np.shape(value)), [total.group(1) or "one"] * np.size(value))
            found.append((total.end(), _operand(RELATION.split(_statements(tex)[-1])[-1]), value, shown))
    return found


def misses(markdown, places):
    """Every calculation on the page whose shown operands give another result at ``places``
    decimals (the lesson's), with no note after its formula (in the rest of its paragraph,
    or the paragraph that follows): written-out calculations, products of names shown before,
    and totals stated in prose."""
    found, names = [], {}
    for match in MATH.finditer(markdown):
        tex = match.group(1) or match.group(2)
        for written, value, shown in calculations(tex, names):
            if not agrees(value, shown, places) and not _note_after(markdown, match.end()):
                found.append(Miss(written, *_shown_text(value, shown, places)))
    for end, written, value, shown in totals(markdown):
        if not agrees(value, shown, places) and not _note_after(markdown, end):
            found.append(Miss(written, *_shown_text(value, shown, places), "the total of"))
    return found
