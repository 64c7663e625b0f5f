"""One side of an equation, read from its tokens and redone from the numbers as written.

    side     := sum
    sum      := product (("+" | "-") product)*
    product  := signed (("×" | "·" | "⊙" | "/") signed | factor)*     juxtaposition multiplies
    signed   := ("-" | "+") signed | power
    power    := factor ("^" {exponent} | "^" {\\top})*
    factor   := number | ∞ | name | "(" sum ")" | "[" sum ("," sum)* "]" | matrix
              | fraction | root | function power | e^{sum} | {sum}

A product of two arrays is the matrix product (``[1, 2] M``, ``A V``, a stack of matrices head
by head), of a number and anything the number times it; ``⊙`` is entry by entry and ``/``
divides entry by entry. A row of numbers is a vector, a row of arrays of one shape a stack
(``tensor()``'s matrices side by side); a matrix whose cells are arrays is a block matrix.

A side is one of:

- a *value*: numbers as written, with no operation (``-0.177``, ``[1, 2]``, a matrix);
- a *calculation*: numbers (and names the page showed) with at least one operation;
- *symbolic*: it names a quantity the page has not shown as numbers (``QK^\\top``, ``d_k``),
  or names one whose numbers do not fit here (a row where the page showed a matrix under
  that name: the name stands for something else in this formula);
- *unreadable*: none of these, with the reason (UnreadableError).
"""

from dataclasses import dataclass

import numpy as np

from macros.redo import tokens as t
from macros.redo.latex import UnreadableError

VALUE, CALCULATION, SYMBOLIC = "value", "calculation", "symbolic"


@dataclass(frozen=True)
class Side:
    kind: str
    value: object = None  # a numpy array (a 0-d one for a number)
    texts: tuple = ()  # a value's numbers as written, in reading order
    named: bool = False  # a calculation that uses values the page showed by name


def free_name(found, names):
    """The first name in ``found`` that is no value the page showed (nor ``e^…``), or None."""
    for token in found:
        if token.kind == t.NAME and token.text not in names:
            return token.text
        for part in t.nested(token):
            inner = free_name(part, names)
            if inner is not None:
                return inner
    return None


def read(found, names=None):
    """The Side ``found`` (a side's tokens) is; UnreadableError when it is none."""
    names = names or {}
    if free_name(found, names) is not None:
        return Side(SYMBOLIC)
    parser = Parser(found, names)
    try:
        with np.errstate(all="ignore"):
            value = parser.side()
    except UnreadableError:
        if parser.named:  # ``x + \text{attention}``: a row here, where the page showed a matrix by that name
            return Side(SYMBOLIC)
        raise
    if np.any(np.isnan(value)):
        raise UnreadableError("it has no value (∞ − ∞, or 0 · ∞)")
    if parser.operated:
        return Side(CALCULATION, value, named=parser.named)
    if not parser.texts:  # a name alone (``V``, ``K^\\top``): what it stands for, not a value shown here
        return Side(SYMBOLIC)
    return Side(VALUE, value, tuple(parser.texts))


class Parser:
    """Recursive descent over one side's tokens; ``operated`` says whether any operation was
    met, ``texts`` keeps the numbers as written (for a value's message)."""

    def __init__(self, found, names):
        self.tokens, self.i, self.names = list(found), 0, names
        self.operated, self.named, self.texts = False, False, []

    # -------------------------------------------------------------- helpers

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self):
        token = self.peek()
        self.i += 1
        return token

    def at(self, kind, *texts):
        token = self.peek()
        return token is not None and token.kind == kind and (not texts or token.text in texts)

    def expect(self, kind, text):
        if not self.at(kind, text):
            raise UnreadableError(f"expected '{text}', got {self._here()}")
        self.take()

    def _here(self):
        token = self.peek()
        return f"'{t.written([token])}'" if token is not None else "the end"

    def inner(self, found):
        """The value of a nested token list (a group, a fraction's part, a cell)."""
        parser = Parser(found, self.names)
        try:
            return parser.side()
        finally:  # a name met before a failure still counts (``read`` judges the failure by it)
            self.operated |= parser.operated
            self.named |= parser.named
            self.texts += parser.texts

    # -------------------------------------------------------------- the grammar

    def side(self):
        if not self.tokens:
            raise UnreadableError("an empty side")
        value = self.sum()
        if self.peek() is not None:
            raise UnreadableError(f"{self._here()} where an operator or the end was expected")
        return value

    def sum(self):
        value = self.product()
        while self.at(t.OPERATOR, "+", "-"):
            sign = self.take().text
            right = self.product()
            value = value + right if sign == "+" else value - right
            self.operated = True
        return value

    def product(self):
        value = self.signed()
        while True:
            token = self.peek()
            if token is not None and token.kind == t.OPERATOR and token.text in ("×", "·", "⊙", "/"):
                self.take()
                value = combine(token.text, value, self.signed())
            elif token is not None and t.starts_factor(token):
                value = combine("·", value, self.power())
            else:
                return value
            self.operated = True

    def signed(self):
        if self.at(t.OPERATOR, "+", "-"):
            sign = self.take().text
            literal = self.peek() is not None and self.peek().kind in (t.NUMBER, t.INFINITY)
            value = self.signed()
            if literal and sign == "-" and self.texts:
                self.texts[-1] = "-" + self.texts[-1]
            self.operated |= not literal
            return -value if sign == "-" else value
        return self.power()

    def power(self):
        value = self.factor()
        while self.at(t.SCRIPT):
            script = self.take()
            if t.is_transpose(script):
                value = transposed(value)
            elif script.text.startswith("^"):
                value = np.power(value, self.inner(script.parts[0]))
            else:
                raise UnreadableError(f"a subscript '{script.text}' on a number")
            self.operated = True
        return value

    def factor(self):
        token = self.take()
        if token is None:
            raise UnreadableError("a side that ends where a number was expected")
        kind = token.kind
        if kind == t.NUMBER:
            self.texts.append(token.text)
            return np.array(float(token.text.replace(",", "")))
        if kind == t.INFINITY:
            self.texts.append("\\infty")
            return np.array(np.inf)
        if kind == t.OPEN:
            return self.bracket(token.text)
        if kind == t.GROUP:
            return self.inner(token.parts[0])
        if kind == t.FRACTION:
            self.operated = True
            return np.divide(self.inner(token.parts[0]), self.inner(token.parts[1]))
        if kind == t.ROOT:
            self.operated = True
            return np.sqrt(self.inner(token.parts[0]))
        if kind == t.EXPONENTIAL:
            self.operated = True
            return np.exp(self.inner(token.parts[0]))
        if kind == t.FUNCTION:
            self.operated = True
            return FUNCTIONS[token.text](self.power())
        if kind == t.MATRIX:
            return self.matrix(token.parts)
        if kind == t.NAME:
            self.named = True
            value = self.names[token.text]
            return transposed(value) if token.transposed else value
        raise UnreadableError(f"'{t.written([token])}', which this grammar does not read")

    def bracket(self, opening):
        """``( sum )``, or a row ``[a, b]`` or ``(a, b)`` (a stack when its entries are arrays)."""
        closing = {"(": ")", "[": "]"}[opening]
        items = [self.sum()]
        while self.at(t.COMMA):
            self.take()
            items.append(self.sum())
        self.expect(t.CLOSE, closing)
        if opening == "(" and len(items) == 1:
            return items[0]
        if len({np.shape(item) for item in items}) != 1:
            raise UnreadableError("a row whose entries differ in shape")
        return np.array(items, dtype=float)

    def matrix(self, rows):
        """A bmatrix: its cells read one by one; a one-row matrix is a row (as ``[a, b]`` is). A
        matrix whose cells are matrices is a block matrix."""
        cells = [[self.inner(cell) for cell in row] for row in rows]
        if len({len(row) for row in cells}) != 1:
            raise UnreadableError("a matrix whose rows differ in length")
        if all(np.ndim(cell) == 0 for row in cells for cell in row):
            values = np.array(cells, dtype=float)
        else:  # a block matrix, [W_Q^{(1)} W_Q^{(2)}]: putting the blocks together is the calculation
            values = np.block([[np.atleast_2d(cell) for cell in row] for row in cells])
            self.operated = True
        return values[0] if len(rows) == 1 and values.ndim == 2 and np.ndim(cells[0][0]) == 0 else values


FUNCTIONS = {
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "tanh": np.tanh,
    "exp": np.exp,
    "log": np.log,
    "ln": np.log,
    "sqrt": np.sqrt,  # √ in plain text (TeX's \\sqrt{…} is a root)
}


def transposed(value):
    """A matrix (or each of a stack) transposed; a row stays a row."""
    return np.swapaxes(value, -1, -2) if np.ndim(value) >= 2 else value


def combine(operator, left, right):
    """Two factors multiplied (``×``, ``·``, written side by side), entry by entry (``⊙``) or divided."""
    if operator == "/":
        return np.divide(left, right)
    if operator == "⊙" or np.ndim(left) == 0 or np.ndim(right) == 0:
        if operator == "⊙" and np.shape(left) != np.shape(right):
            raise UnreadableError("⊙ between arrays of different shapes")
        return np.multiply(left, right)
    try:
        return np.matmul(left, right)
    except ValueError:
        raise UnreadableError(f"a product of {shape_words(left)} and {shape_words(right)}") from None


def shape_words(value):
    """A shape as a message says it: "a number", "a row of 3", "a 3 × 4 matrix", "a stack of 2
    matrices of 3 × 2"."""
    shape = np.shape(value)
    if len(shape) == 0:
        return "a number"
    if len(shape) == 1:
        return f"a row of {shape[0]}"
    if len(shape) == 2:
        return f"a {shape[0]} × {shape[1]} matrix"
    return f"a stack of {shape[0]} matrices of {' × '.join(str(n) for n in shape[1:])}"
