"""``params:``: named numbers a lesson needs beyond attention's inputs.

A table's sizes, a sample's seed, a temperature: a mapping of names to numbers or to
non-empty lists of numbers, nothing else. Whole numbers stay whole (a seed must be an
integer for numpy's ``default_rng``); lists become tuples so that a fixture stays frozen.
"""

import re

from macros.sources.found import describe

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _number(check, value, path):
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return check.number(value, path)


def check_params(check, data):
    """The fixture's params as a dict of name -> number or tuple of numbers ({} when absent)."""
    if "params" not in data:
        return {}
    params = data["params"]
    if not isinstance(params, dict) or not params:
        check.fail("params", "a mapping of names to numbers or lists of numbers", describe(params))
    checked = {}
    for name, value in params.items():
        path = f"params.{name}"
        if not isinstance(name, str) or not NAME.match(name):
            check.fail(path, "a name of letters, digits and _ (not starting with a digit)", describe(name))
        if isinstance(value, list):
            if not value:
                check.fail(path, "a number or a non-empty list of numbers", "an empty list")
            checked[name] = tuple(_number(check, x, f"{path}[{i}]") for i, x in enumerate(value))
        else:
            checked[name] = _number(check, value, path)
    return checked


def plain(params):
    """The JSON form: lists for tuples."""
    return {name: list(value) if isinstance(value, tuple) else value for name, value in params.items()}
