"""The token: one thing a reader reads in a formula, whichever way it is written (TeX or plain
text). Both readers (``latex.py``, ``plain.py``) give the grammar the same kinds, so one
grammar redoes ``2 \\times 3`` and ``2 × 3`` alike."""

NUMBER = "number"  # text: the digits as written ("0.010", "67,108,864")
INFINITY = "infinity"  # ∞ (a masked score's −∞ is a minus and this)
OPERATOR = "operator"  # text: "+", "-", "×", "·", "⊙" (entry by entry) or "/"
OPEN, CLOSE = "open", "close"  # text: "(" or "[" and their closing partners
COMMA = "comma"  # between the entries of a row, or between two statements
RELATION = "relation"  # text: "=", "≈", or another relation ("<", "→") that joins no calculation
BREAK = "break"  # between two statements: \quad, a row of an aligned block, words
FRACTION = "fraction"  # parts: (numerator, denominator)
ROOT = "root"  # parts: (radicand,)
FUNCTION = "function"  # text: "sin", "cos", "tanh", "exp", "log", "ln"; its argument follows
EXPONENTIAL = "exponential"  # e^{...}; parts: (power,)
SCRIPT = "script"  # text: "^" or "_" after a number or a bracket; parts: (its argument,)
NAME = "name"  # a symbol: text its identity with scripts ("W_{Q}^{(1)}"); transposed for ^\top
MATRIX = "matrix"  # parts: rows, each a tuple of cells, each a tuple of tokens
GROUP = "group"  # braces: parts: (tokens,)
DOTS = "dots"  # … : terms left out, which no grammar can redo
UNKNOWN = "unknown"  # text: what was written (a macro this reader does not know)

COMPARED = ("=", "≈")  # the relations whose two sides must agree
FUNCTIONS = ("sin", "cos", "tan", "tanh", "exp", "log", "ln")


class Token:
    """One thing read, and where it is written in the formula's text (``start``, ``end``; -1
    before it is placed). Two tokens are equal when they read the same, wherever written.

    A small class with slots rather than a frozen dataclass, which takes four times as long to
    make one: a build makes a token for every number and sign of every page's formulas and of
    every practice set's worked solutions. By convention nothing changes a token once made:
    ``at`` gives a placed copy."""

    __slots__ = ("kind", "text", "parts", "transposed", "start", "end")

    def __init__(self, kind, text="", parts=(), transposed=False, start=-1, end=-1):
        self.kind = kind
        self.text = text
        self.parts = parts
        self.transposed = transposed
        self.start = start
        self.end = end

    def at(self, start, end):
        """The same token, written from ``start`` to ``end``."""
        return Token(self.kind, self.text, self.parts, self.transposed, start, end)

    def _read(self):
        return self.kind, self.text, self.parts, self.transposed

    def __eq__(self, other):
        if not isinstance(other, Token):
            return NotImplemented
        return self._read() == other._read()

    def __hash__(self):
        return hash(self._read())

    def __repr__(self):
        return f"Token({self.kind!r}, {self.text!r}, {self.parts!r}, {self.transposed!r}, {self.start}, {self.end})"

    def __str__(self):
        return self.text or self.kind


def starts_factor(token):
    """Whether ``token`` can begin a factor written right after another (``0.333\\,[2, 1]``,
    ``1(0.999)``, ``A V``, ``2 \\cos 5``): juxtaposition is a product."""
    if token.kind == OPEN:
        return True
    return token.kind in (INFINITY, FRACTION, ROOT, FUNCTION, EXPONENTIAL, NAME, MATRIX, GROUP)


def has_number(tokens):
    """Whether a number is written anywhere in ``tokens`` (inside fractions, groups and cells too)."""
    return any(token.kind == NUMBER or any(has_number(part) for part in nested(token)) for token in tokens)


def nested(token):
    """The token lists inside a token: a fraction's two, a matrix's cells, a group's one."""
    if token.kind == MATRIX:
        return [cell for row in token.parts for cell in row]
    if token.kind == SCRIPT and is_transpose(token):
        return []
    return list(token.parts)


def is_transpose(token):
    """``^\\top`` after a matrix: its transpose, not a power."""
    return token.kind == SCRIPT and token.text in ("^\\top", "^{\\top}")


def written(tokens):
    """The tokens as a short text for a message (``2 × 3 = 6``)."""
    out = []
    for token in tokens:
        if token.kind == FRACTION:
            out.append(f"({written(token.parts[0])})/({written(token.parts[1])})")
        elif token.kind in (ROOT, GROUP, EXPONENTIAL):
            out.append({ROOT: "√", GROUP: "", EXPONENTIAL: "e^"}[token.kind] + f"({written(token.parts[0])})")
        elif token.kind == MATRIX:
            out.append("[" + "; ".join(", ".join(written(cell) for cell in row) for row in token.parts) + "]")
        elif token.kind == SCRIPT:
            out.append(token.text + f"{{{written(token.parts[0])}}}")
        else:
            out.append(str(token) + ("ᵀ" if token.transposed else ""))
    return " ".join(out)
