"""A formula's TeX as tokens, read with pylatexenc's parser (``LatexWalker``).

pylatexenc parses; which macros take arguments is declared here, for the macros the book's
math uses (``\\frac``, ``\\tfrac``, ``\\dfrac``, ``\\sqrt``, ``\\operatorname``, ``\\text``,
``\\left`` and ``\\right`` with their delimiter, ``^`` and ``_`` with their argument), so
``\\tfrac{1}{2}`` arrives as a fraction of two groups and ``W_Q^{(1)}`` as one name. Every macro the reader
meets is one of the families below or an UNKNOWN token: nothing is dropped unread. A formula
pylatexenc cannot parse is an UnreadableError.

A name keeps its sub- and superscripts as its identity (``W_{Q}^{(1)}``), ``^\\top`` as a
transpose; ``e^{…}`` is the exponential; ``\\underbrace{32}_{\\text{layers}}`` is its 32.
"""

import functools
import re

from pylatexenc import latexwalker, macrospec

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
CHARS = re.compile(
    r"(?P<space>\s+)|(?P<number>\d+(?:\.\d+)?)|(?P<letter>[A-Za-z]'*)|(?P<relation>[=<>≈])"
    r"|(?P<operator>[-+−*/·×⊙])|(?P<open>[(\[])|(?P<close>[)\]])|(?P<comma>,)|(?P<stop>[.;:])|(?P<other>.)",
    re.S,
)


@functools.cache
def context():
    """The macros the book's math uses that take arguments, and ``^``, ``_`` and ``&``; any other
    macro takes none (and is read as a symbol, a space or an unknown token below). Only these,
    not pylatexenc's default text-mode macros: reading is a fifth faster, and ``\\\\`` cannot
    swallow a row that starts with ``[`` as its optional argument."""
    db = macrospec.LatexContextDb()
    one = macrospec.MacroStandardArgsParser("{")
    db.add_context_category(
        "shown-arithmetic",
        macros=[
            *(macrospec.MacroSpec(name, "{{") for name in FRACTIONS),
            *(macrospec.MacroSpec(name, "{") for name in (*NAMED, *ACCENTS, *BRACES, *SIZES, "left", "right")),
            macrospec.MacroSpec("hspace", "{"),
            macrospec.MacroSpec("sqrt", "[{"),
        ],
        specials=[*(macrospec.SpecialsSpec(mark, args_parser=one) for mark in ("^", "_")), macrospec.SpecialsSpec("&")],
    )
    db.set_unknown_macro_spec(macrospec.MacroSpec(""))
    db.set_unknown_environment_spec(macrospec.EnvironmentSpec(""))
    return db


@functools.lru_cache(maxsize=4096)
def tokens(tex):
    """The formula's tokens (a tuple), or UnreadableError when pylatexenc cannot parse it.
    Kept per formula: a book repeats its formulas, and parsing is most of the reading's cost."""
    try:
        walker = latexwalker.LatexWalker(tex, latex_context=context(), tolerant_parsing=False)
        nodes, _, _ = walker.get_latex_nodes()
    except latexwalker.LatexWalkerError as error:
        raise UnreadableError(f"its TeX does not parse ({error.msg})") from None
    return tuple(_named(_read(nodes)))


def _verbatim(nodes):
    """The TeX of nodes, without spaces: the identity a name's script gives it."""
    return "".join("".join(node.latex_verbatim().split()) for node in nodes if node is not None)


def _argument(node, i=0):
    """The nodes of a macro's argument ``i`` (a group's contents, or one node)."""
    arg = node.nodeargd.argnlist[i] if node.nodeargd and len(node.nodeargd.argnlist) > i else None
    if arg is None:
        return []
    return list(arg.nodelist) if arg.isNodeType(latexwalker.LatexGroupNode) else [arg]


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
    end = node.pos + node.len
    return [token if token.start >= 0 else token.at(node.pos, end) for token in found]


def _tokens_of(node):
    if node is None or node.isNodeType(latexwalker.LatexCommentNode):
        return []
    if node.isNodeType(latexwalker.LatexCharsNode):
        return _chars(node.chars, node.pos)
    if node.isNodeType(latexwalker.LatexGroupNode):
        return [Token(t.GROUP, parts=(_group(node.nodelist),))]
    if node.isNodeType(latexwalker.LatexSpecialsNode):
        return _special(node)
    if node.isNodeType(latexwalker.LatexEnvironmentNode):
        return _environment(node)
    if node.isNodeType(latexwalker.LatexMathNode):
        return _read(node.nodelist)
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
    mark = node.specials_chars
    if mark in ("^", "_"):
        argument = _argument(node)
        return [Token(t.SCRIPT, mark + _verbatim(argument), (_group(argument),))]
    if mark == "&":  # a column of an aligned block (a matrix's cells are split before)
        return []
    return [Token(t.UNKNOWN, mark)]


def _macro(node):
    name = node.macroname
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
        if node.nodeargd.argnlist[0] is not None:  # \sqrt[3]{…}
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
        return [Token(t.NAME, "".join(node.latex_verbatim().split()))]
    return [Token(t.UNKNOWN, "\\" + name)]


def _words(node):
    """``\\text{ bytes}``, ``\\text{the rows of }``: words between or after the math, not a
    name (``\\text{src}``)."""
    inside = node.latex_verbatim()[len("\\text{") : -1]
    return inside != inside.strip() or " " in inside.strip()


def _delimiter(delimiter):
    """``\\left.`` writes no delimiter; any other (``\\{``, ``|``) is not one the grammar reads."""
    return [] if delimiter == "." else [Token(t.UNKNOWN, delimiter)]


def _environment(node):
    name = node.environmentname
    rows = _rows(node.nodelist)
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
        if node.isNodeType(latexwalker.LatexMacroNode) and node.macroname == "\\":
            rows.append([*row, cell])
            row, cell = [], []
        elif node.isNodeType(latexwalker.LatexSpecialsNode) and node.specials_chars == "&":
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
