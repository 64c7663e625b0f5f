"""The fixture's ``params:``: named numbers a lesson needs beyond attention's own inputs.

A model configuration for a memory table, the sizes of a cost table, a sample's seed:
a mapping of names to numbers or to non-empty lists of numbers, nothing else. What the
names mean is the lesson's business; this module only checks the form.
"""

import math
import re

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _is_number(value):
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _plain(value):
    """Whole numbers stay int (a count of layers is not 32.0); others are float."""
    return int(value) if isinstance(value, int) else float(value)


def check_params(check, value, path="params"):
    """``{name: number or [numbers]}``, or a located error from ``check`` (a fixture Checker)."""
    if not isinstance(value, dict) or not value:
        check.fail(path, "a mapping of names to numbers or lists of numbers", _describe(value))
    params = {}
    for name, entry in value.items():
        where = f"{path}.{name}"
        if not isinstance(name, str) or not NAME.match(name):
            check.fail(where, "a name made of letters, digits and _ (not starting with a digit)", repr(name))
        if isinstance(entry, list):
            if not entry:
                check.fail(where, "a number or a non-empty list of numbers", "an empty list")
            for i, item in enumerate(entry):
                if not _is_number(item):
                    check.fail(f"{where}[{i}]", "a finite number", _describe(item))
            params[name] = tuple(_plain(item) for item in entry)
        elif _is_number(entry):
            params[name] = _plain(entry)
        else:
            check.fail(where, "a number or a list of numbers", _describe(entry))
    return params


def _describe(value):
    from macros.sources.fixture import describe  # the one wording of found values

    return describe(value)
