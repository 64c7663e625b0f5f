"""A formula's TeX as tokens, read from its nodes (``tex.py``).

``tex.py`` parses, with the arguments the book's math gives its macros (``\\frac``,
``\\tfrac``, ``\\dfrac``, ``\\sqrt``, ``\\operatorname``, ``\\text``, ``\\left`` and
``\\right`` with their delimiter, ``^`` and ``_`` with their argument), so ``\\tfrac{1}{2}``
arrives as a fraction of two groups and ``W_Q^{(1)}`` as one name. Every macro the reader meets
is one of the families below or an UNKNOWN token: nothing is dropped unread. A formula that
does not parse is an UnreadableError.

A name keeps its sub- and superscripts as its identity (``W_{Q}^{(1)}``), ``^\\top`` as a
transpose; ``e^{…}`` is the exponential; ``\\underbrace{32}_{\\text{layers}}`` is its 32.
"""

import functools
import re

from macros.redo import tex
from macros.redo import tokens as t
from macros.redo.tokens import Token


class UnreadableError(ValueError):
    """A formula, or one side of it, that the grammar cannot read: the message says where."""


RELATIONS = {
    "approx": "≈",
    "neq": "≠",
    "ne": "≠",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "to": "→",
    "rightarrow": "→",
    "longrightarrow": "→",
    "leftarrow": "←",
    "mapsto": "↦",
    "sim": "∼",
    "equiv": "≡",
    "propto": "∝",
    "in": "∈",
    "implies": "⇒",
    "Rightarrow": "⇒",
}
OPERATORS = {"times": "×", "cdot": "·", "odot": "⊙", "div": "/"}
FRACTIONS = ("frac", "tfrac", "dfrac", "cfrac")
SPACES = (",", ";", ":", "!", " ", "enspace", "thinspace", "medspace", "thickspace", "displaystyle", "textstyle")
BREAKS = ("quad", "qquad", "\\")
DOTS = ("dots", "cdots", "ldots", "vdots", "ddots")
GREEK = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi "
    "rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega ell"
).split()
# Symbols a formula names: a side written with one of these is about a quantity, not numbers.
SYMBOLS = (*GREEK, "partial", "nabla", "sum", "prod", "max", "min", "arg", "lim", "top", "lceil", "rceil")
NAMED = ("text", "mathrm", "mathbf", "mathit", "mathcal", "boldsymbol", "operatorname")  # a name in letters
ACCENTS = ("bar", "hat", "tilde", "vec", "overline", "dot")  # a name under a mark
BRACES = ("underbrace", "overbrace")  # a value with a label under or over it: the value
SIZES = ("big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr")  # a delimiter, taller
MATRICES = ("bmatrix", "pmatrix", "smallmatrix", "vmatrix")
ALIGNED = ("aligned", "align", "align*", "gathered", "split")
DELIMITERS = {"(": (t.OPEN, "("), "[": (t.OPEN, "["), ")": (t.CLOSE, ")"), "]": (t.CLOSE, "]")}
# What each macro reads after its name (``tex.nodes``): the families above that take arguments.
ARGUMENTS = {
    **dict.fromkeys(FRACTIONS, "{{"),
    **dict.fromkeys((*NAMED, *ACCENTS, *BRACES, *SIZES, "left", "right", "hspace"), "{"),
    "sqrt": "[{",
}
CHARS = re.compile(
    r"(?P<space>\s+)|(?P<number>\d+(?:\.\d+)?)|(?P<letter>[A-Za-z]'*)|(?P<relation>[=<>≈])"
    r"|(?P<operator>[-+−*/·×⊙])|(?P<open>[(\[])|(?P<close>[)\]])|(?P<comma>,)|(?P<stop>[.;:])|(?P<other>.)",
    re.S,
)


@functools.lru_cache(maxsize=4096)
def tokens(formula):
    """The formula's tokens (a tuple), or UnreadableError when its TeX does not parse.
    Kept per formula: a book repeats its formulas."""
    try:
        nodes = tex.nodes(formula, ARGUMENTS)
    except tex.TexError as error:
        raise UnreadableError(f"its TeX does not parse ({error})") from None
    return tuple(_named(_read(nodes)))


def _verbatim(nodes):
    """The TeX of nodes, without spaces: the identity a name's script gives it."""
    return "".join("".join(node.verbatim.split()) for node in nodes if node is not None)


def _argument(node, i=0):
    """The nodes of a macro's argument ``i`` (a group's contents, or one node)."""
    arg = node.arguments[i] if len(node.arguments) > i else None
    if arg is None:
        return []
    return list(arg.nodes) if arg.kind == tex.GROUP else [arg]


def _read(nodes):
    out = []
    for node in nodes:
        out += _node(node)
    return out


def _group(nodes):
    """The tokens of nested nodes (a group, an argument, a cell), names folded."""
    return tuple(_named(_read(nodes)))


def _node(node):
    """The tokens of one node, each knowing where in the formula it is written."""
    found = _tokens_of(node)
    if node is None:
        return found
    return [token if token.start >= 0 else token.at(node.start, node.end) for token in found]


def _tokens_of(node):
    if node is None:
        return []
    if node.kind == tex.CHARS:
        return _chars(node.name, node.start)
    if node.kind == tex.GROUP:
        return [Token(t.GROUP, parts=(_group(node.nodes),))]
    if node.kind == tex.SPECIAL:
        return _special(node)
    if node.kind == tex.ENVIRONMENT:
        return _environment(node)
    if node.kind == tex.MATH:
        return _read(node.nodes)
    return _macro(node)


CHAR_KINDS = {
    "number": t.NUMBER,
    "letter": t.NAME,
    "relation": t.RELATION,
    "operator": t.OPERATOR,
    "open": t.OPEN,
    "close": t.CLOSE,
    "comma": t.COMMA,
    "stop": t.BREAK,
    "other": t.UNKNOWN,
}


def _chars(text, offset):
    """Plain characters: numbers, single letters (each a name), operators, brackets."""
    out = []
    for match in CHARS.finditer(text):
        if match.lastgroup == "space":
            continue
        found = {"−": "-", "*": "×"}.get(match.group(), match.group())
        out.append(Token(CHAR_KINDS[match.lastgroup], found, start=offset + match.start(), end=offset + match.end()))
    return out


def _special(node):
    mark = node.name
    if mark in ("^", "_"):
        argument = _argument(node)
        return [Token(t.SCRIPT, mark + _verbatim(argument), (_group(argument),))]
    if mark == "&":  # a column of an aligned block (a matrix's cells are split before)
        return []
    return [Token(t.UNKNOWN, mark)]


def _macro(node):
    name = node.name
    if name in RELATIONS:
        return [Token(t.RELATION, RELATIONS[name])]
    if name in OPERATORS:
        return [Token(t.OPERATOR, OPERATORS[name])]
    if name in SPACES or name == "hspace":
        return []
    if name in BREAKS:
        return [Token(t.BREAK, "\\" + name)]
    if name in FRACTIONS:
        return [Token(t.FRACTION, parts=(_group(_argument(node, 0)), _group(_argument(node, 1))))]
    if name == "sqrt":
        if node.arguments[0] is not None:  # \sqrt[3]{…}
            return [Token(t.UNKNOWN, "\\sqrt[…]")]
        return [Token(t.ROOT, parts=(_group(_argument(node, 1)),))]
    if name in t.FUNCTIONS:
        return [Token(t.FUNCTION, name)]
    if name == "infty":
        return [Token(t.INFINITY, "∞")]
    if name in DOTS:
        return [Token(t.DOTS, "…")]
    if name in ("left", "right", *SIZES):
        delimiter = _verbatim(_argument(node))
        return [Token(*DELIMITERS[delimiter])] if delimiter in DELIMITERS else _delimiter(delimiter)
    if name in BRACES:
        return [Token(t.GROUP, name, (_group(_argument(node)),))]
    if name == "text" and _words(node):
        return [Token(t.BREAK, "words")]
    if name in NAMED or name in ACCENTS or name in SYMBOLS:
        return [Token(t.NAME, "".join(node.verbatim.split()))]
    return [Token(t.UNKNOWN, "\\" + name)]


def _words(node):
    """``\\text{ bytes}``, ``\\text{the rows of }``: words between or after the math, not a
    name (``\\text{src}``)."""
    inside = node.verbatim[len("\\text{") : -1]
    return inside != inside.strip() or " " in inside.strip()


def _delimiter(delimiter):
    """``\\left.`` writes no delimiter; any other (``\\{``, ``|``) is not one the grammar reads."""
    return [] if delimiter == "." else [Token(t.UNKNOWN, delimiter)]


def _environment(node):
    name = node.name
    rows = _rows(node.nodes)
    if name in MATRICES:
        return [Token(t.MATRIX, name, tuple(rows))]
    if name == "matrix" and all(len(row) == 1 for row in rows):
        return _stacked(rows)  # matrices one under another (tensor(…, stacked=True)): a list
    if name == "matrix":
        return [Token(t.MATRIX, name, tuple(rows))]
    if name in ALIGNED:
        out = []
        for row in rows:
            out += [token for cell in row for token in cell] + [Token(t.BREAK, "\\\\")]
        return out
    return [Token(t.UNKNOWN, f"\\begin{{{name}}}")]


def _rows(nodes):
    """A matrix body as rows of cells, each cell its tokens; an empty last row is dropped."""
    rows, row, cell = [], [], []
    for node in nodes:
        if node.kind == tex.MACRO and node.name == "\\":
            rows.append([*row, cell])
            row, cell = [], []
        elif node.kind == tex.SPECIAL and node.name == "&":
            row.append(cell)
            cell = []
        else:
            cell.append(node)
    rows.append([*row, cell])
    rows = [[_group(cell) for cell in row] for row in rows]
    if len(rows) > 1 and rows[-1] == [()]:
        rows.pop()
    return [tuple(row) for row in rows]


def _stacked(rows):
    """The rows of a one-column ``matrix`` as items of a list: ``M1, \\\\ {} \\\\ M2`` is M1, M2."""
    items = [[token for token in row[0] if token.kind != t.COMMA and token.parts != ((),)] for row in rows]
    items = [item for item in items if item]
    out = []
    for item in items:
        out += ([Token(t.COMMA, ",")] if out else []) + item
    return out


def _named(found):
    """The tokens with each name's scripts folded into its identity (``W`` ``_Q`` ``^{(1)}`` is
    the name ``W_{Q}^{(1)}``), ``e^{…}`` as an exponential, and a brace's label dropped."""
    out = []
    for token in found:
        last = out[-1] if out else None
        if token.kind != t.SCRIPT or last is None:
            out.append(token)
        elif last.kind == t.GROUP and last.text in BRACES and token.text.startswith(("_", "^")):
            continue  # \underbrace{32}_{\text{layers}}: the label
        elif last.kind == t.NAME and last.text == "e" and token.text.startswith("^"):
            out[-1] = Token(t.EXPONENTIAL, parts=token.parts, start=last.start, end=token.end)
        elif last.kind == t.NAME:
            out[-1] = _scripted(last, token).at(last.start, token.end)
        else:
            out.append(token)
    return out


def _scripted(name, script):
    """A name with one more script: ``_`` and ``^`` kept apart in its identity, ``\\top`` a transpose."""
    mark, argument = script.text[0], script.text[1:]
    if argument.startswith("{") and argument.endswith("}"):
        argument = argument[1:-1]
    transposed = name.transposed
    if mark == "^" and "\\top" in argument:
        transposed, argument = True, argument.replace("\\top", "")
    base, sub, sup = _identity(name.text)
    sub, sup = (sub + argument, sup) if mark == "_" else (sub, sup + argument)
    return Token(t.NAME, f"{base}_{{{sub}}}^{{{sup}}}" if sub or sup else base, transposed=transposed)


IDENTITY = re.compile(r"(?P<base>.*?)_\{(?P<sub>.*)\}\^\{(?P<sup>.*)\}$", re.S)


def _identity(text):
    found = IDENTITY.match(text)
    return (found["base"], found["sub"], found["sup"]) if found else (text, "", "")
