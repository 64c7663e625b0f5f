"""How a value found in an author's file is worded in an error message.

Its own module, free of numpy, because reading the track and the lessons' front matter
(every build, and every ``make serve`` start) words its mistakes the same way as the
fixture checks do, and must not load the engine to do it.
"""

import difflib
import math

LONGEST = 40  # characters of a found value an error message quotes


def describe(value):
    """A short, YAML-flavoured description of a value for an error message."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return shortened(repr(value))
    if isinstance(value, list):
        return f"a list of {len(value)}" if value else "an empty list"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, float) and math.isnan(value):
        return ".nan"
    if isinstance(value, float) and math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    if isinstance(value, int) and len(repr(value)) > LONGEST:
        return f"a whole number of {len(str(abs(value)))} digits"
    return shortened(repr(value))


def shortened(text):
    """Text cut to LONGEST characters, so a pasted paragraph or a huge number does not bury
    the one line that says where the mistake is."""
    return text if len(text) <= LONGEST else text[: LONGEST - 1] + "…"


LIKENESS = 0.6  # difflib's ratio of matching letters below which no name is suggested


def closest_name(typed, names):
    """The name a typo most likely meant, case ignored, or None: difflib's closest match
    (twice the letters in common over the letters in both), when at least ``LIKENESS``."""
    lowered = {str(name).lower(): str(name) for name in names if str(name) != str(typed)}
    found = difflib.get_close_matches(str(typed).lower(), lowered, n=1, cutoff=LIKENESS)
    return lowered[found[0]] if found else None
