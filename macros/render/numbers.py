"""One number formatter for prose, tables and LaTeX.

The rule, applied to a group of values shown together (a row, a matrix, a vector): if
every value is a whole number they are written as integers (inputs, raw dot products,
the scale 1/sqrt(1) = 1); otherwise every value gets the lesson's number of decimals
(so e^0 in a row of exponentials is 1.0000, lined up with its neighbours), except an exact
zero, which is always 0: on every page 0 means exactly zero and 0.000 a number that rounds
to it (never −0.000).
"""

import math
import re

import numpy as np

MINUS = "\u2212"  # the typographic minus sign, for text; LaTeX gets "-" and typesets its own
WHOLE_TOLERANCE = 1e-12


def _whole(x):
    """One float: an integer up to float noise; never an infinity or NaN."""
    return math.isfinite(x) and abs(x - round(x)) <= WHOLE_TOLERANCE


def _zero(x):
    """Zero up to float noise: exactly zero in exact arithmetic (a masked weight, a score of two
    orthogonal rows), whatever rounding the computer's last digits picked up on the way."""
    return abs(x) <= WHOLE_TOLERANCE


def is_whole(values):
    """True when every value is an integer up to float noise (e.g. sqrt(2)**2 - 2). Plain Python
    over the floats: the groups a page formats are small, and numpy's per-call overhead is most
    of the cost of a small one (the same rule as abs(v - round(v)) <= 1e-12 in numpy)."""
    if isinstance(values, float | int) and not isinstance(values, bool):
        return _whole(float(values))
    return all(_whole(x) for x in np.asarray(values, dtype=float).ravel().tolist())


def as_shown(values, places):
    """The values a reader sees, as numbers: parsed back from the formatter's own text, so a
    sum "of the numbers as displayed" uses exactly the digits on the page (np.round can
    disagree with the formatter near a tie)."""
    values = np.asarray(values, dtype=float)
    texts = format_values(values, places, minus="-")
    return np.array([float(text) for text in texts]).reshape(values.shape)


def _digits(value, places):
    text = f"{value:.{places}f}"
    if float(text) == 0.0:  # never print -0.000
        text = text.lstrip("-")
    return text


def format_number(value, places, minus=MINUS, whole=None):
    """One value as text; ``whole`` forces or forbids integer form (None: decide from the value),
    except for zero (up to float noise), which is 0 whatever the form of its group."""
    value = float(value)
    if not math.isfinite(value):
        return "∞" if value > 0 else f"{minus}∞"
    whole = _whole(value) if whole is None else whole or _zero(value)
    text = _digits(value, 0 if whole else places)
    return text.replace("-", minus)


def format_values(values, places, minus=MINUS):
    """A group of values as texts, all in one form: all integers, or all with ``places`` decimals,
    except that zero (up to float noise) is always 0. So 0 on a page means exactly zero (a masked
    weight, a gradient that cannot flow), and 0.000 a number too small to show, never zero itself."""
    flat = np.asarray(values, dtype=float).ravel().tolist()
    whole = all(_whole(x) for x in flat)
    return [format_number(v, places, minus, whole) for v in flat]


def format_rows(matrix, places, minus=MINUS):
    """A matrix as rows of texts, one form for the whole matrix."""
    matrix = np.atleast_2d(np.asarray(matrix, dtype=float))
    texts = format_values(matrix, places, minus)
    width = matrix.shape[1]
    return [texts[i : i + width] for i in range(0, len(texts), width)]


def format_masked(values, visible, places, masked=None, minus=MINUS):
    """Texts shaped like ``values``, one form for the group; a hidden entry becomes ``masked``.

    Hidden entries count as 0 while the form is chosen: they are zero weights, so they
    never change whether a group is whole.
    """
    values, visible = np.asarray(values, dtype=float), np.asarray(visible, dtype=bool)
    texts = format_values(np.where(visible, values, 0.0), places, minus)
    shaped = np.array(texts, dtype=object).reshape(values.shape)
    return np.where(visible, shaped, masked).tolist()


def a_an(text):
    """The indefinite article before a word or a number read aloud: 'a 3 × 2', 'an 8 × 2',
    'an 11 × 4', 'a 1 × 2', 'an input'. Numbers: 8, 80..89, 11 and 18 start with a vowel sound."""
    first = str(text).lstrip("$ {").lower()
    if first[:1].isdigit():
        digits = re.match(r"[\d,]*", first).group().replace(",", "")
        lead = digits[: len(digits)] if len(digits) <= 2 else digits[: (len(digits) - 1) % 3 + 1]
        return "an" if lead.startswith("8") or lead in ("11", "18") else "a"
    return "an" if first[:1] in ("a", "e", "i", "o") else "a"


def given(value):
    """A number the author set rather than computed (a tolerance, a text length, a count of
    tiles), written as a reader writes it: whole numbers with thousands separators
    (``32,768``), others in their shortest exact form (``0.01``), minus as a minus sign."""
    value = float(value)
    text = f"{int(value):,}" if value.is_integer() else repr(value)
    return text.replace("-", MINUS)


SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
# The feed-forward activations (macros.engine.block.ACTIVATIONS) by the names readers know.
ACTIVATION_NAMES = {"relu": "ReLU", "gelu": "GELU", "gelu_tanh": "GELU (its tanh form)"}


def small_constant(value):
    """A small constant the author set, such as a layer norm's ε, in plain text: a power of ten
    as one (``10⁻⁵``), another in decimals, as long as it needs (``0.00002``)."""
    value = float(value)
    exponent = round(math.log10(value)) if value > 0 else None
    if exponent is not None and exponent < 0 and value == 10.0**exponent:
        return "10" + str(exponent).translate(SUPERSCRIPT)
    return f"{value:.12f}".rstrip("0").rstrip(".").replace("-", MINUS)


def byte_count(n):
    """A number of bytes in words: '1 byte', '4,096 bytes'."""
    return f"{given(n)} byte{'' if n == 1 else 's'}"
