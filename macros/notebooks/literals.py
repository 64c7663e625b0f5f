"""Numbers and arrays written as Python source a learner can read and run.

Every float is written with ``repr``, the shortest text that reads back as the same
float64, so an array embedded in a notebook holds exactly the value it was made from.
Whole numbers are written without a decimal point (``2``, not ``2.0``), as the lesson
page writes its inputs; ``dtype=float`` keeps the arithmetic in float64 all the same.
"""

import numpy as np


def number(value):
    """One float as source: ``2``, ``-0.5``, ``0.24519181293761462``."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def row(values):
    return "[" + ", ".join(number(x) for x in values) + "]"


def array(values):
    """``np.array([...], dtype=float)``: a vector on one line, a matrix one row per line, a stack
    of matrices one matrix per line."""
    values = np.asarray(values, dtype=float)
    if values.ndim == 0:  # one number (a loss): written as itself
        return number(values)
    if values.ndim == 1:
        return f"np.array({row(values)}, dtype=float)"
    if values.ndim == 3:  # a stack of matrices (linear attention's states): one matrix per line
        rows = "".join(f"    [{', '.join(row(r) for r in M)}],\n" for M in values)
        return f"np.array([\n{rows}], dtype=float)"
    rows = "".join(f"    {row(r)},\n" for r in values)
    return f"np.array([\n{rows}], dtype=float)"


def assign(name, values, comment=""):
    """``name = np.array(...)  # comment``; the comment goes on the first line."""
    text = array(values)
    if comment:
        first, sep, rest = text.partition("\n")
        text = f"{first}  # {comment}{sep}{rest}"
    return f"{name} = {text}"


def labels(values):
    return "[" + ", ".join(repr(str(x)) for x in values) + "]"
