"""The one registry of the names a template sees: a name is defined once.

Names come in groups, each a function of one module that returns ``{name: value}``
(``facts.names``, ``recomputed.names``, ...). Merging dictionaries would let a later definition
win silently (a masked weight once showed as −∞ that way); here a second definition of a
name stops the build and says where both are written.
"""

import inspect
from pathlib import Path

from macros.errors import LessonError

CODE = Path(__file__).resolve().parents[2]  # the project folder: a place reads macros/...


class DuplicateNameError(LessonError):
    """A template name defined by two groups."""


def where(group, name):
    """``macros/vocabulary/facts.py:172`` for the line of ``group`` that defines ``name`` (its quoted key);
    a group given as text (a lesson's front matter) is named by that text."""
    if isinstance(group, str):
        return group
    try:
        lines, first = inspect.getsourcelines(group)
        path = Path(inspect.getsourcefile(group)).resolve()
    except (OSError, TypeError):
        return getattr(group, "__qualname__", str(group))
    quoted = (f'"{name}"', f"'{name}'")
    offset = next((i for i, line in enumerate(lines) if any(q in line for q in quoted)), 0)
    shown = path.relative_to(CODE).as_posix() if path.is_relative_to(CODE) else str(path)
    return f"{shown}:{first + offset}"


class Registry:
    """Names and the group that defined each; ``names`` is what a template sees."""

    def __init__(self):
        self.names = {}
        self._groups = {}

    def add(self, group, values):
        """Register ``values`` as defined by ``group`` (the function that returned them)."""
        for name, value in values.items():
            if name in self.names:
                first, second = where(self._groups[name], name), where(group, name)
                raise DuplicateNameError(f"the template name {name!r} is defined twice: at {first} and at {second}")
            self.names[name] = value
            self._groups[name] = group
        return self
