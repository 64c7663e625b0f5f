"""What an author reads when a template (or ``trace --path``) names a value that is not there.

``h.weigths`` should say "head has no value 'weigths'; did you mean 'weights'?", in the
words of the lesson, never with the class names of the code behind it.
"""

import dataclasses
import re

import numpy as np

from macros.engine.trace import HeadTrace, Trace
from macros.errors import LessonError
from macros.sources.fixture import closest_field
from macros.sources.forms import Fixture
from macros.sources.found import describe, shortened

KINDS = ((HeadTrace, "head"), (Trace, "trace"), (Fixture, "fixture"))


def kind_of(obj):
    """The reader's word for a lesson object, or None for anything else. A lesson carries its
    own word (``Lesson._reader_word``): this module sits below the one that defines it."""
    own = getattr(type(obj), "_reader_word", None)
    if own is not None:
        return own
    return next((word for cls, word in KINDS if isinstance(obj, cls)), None)


def value_names(obj):
    """The names a template can read on ``obj``: its fields and its computed properties."""
    fields = dataclasses.fields(obj) if dataclasses.is_dataclass(obj) else ()
    names = {field.name for field in fields if not field.name.startswith("_")}
    names |= {
        name for name in dir(type(obj)) if not name.startswith("_") and isinstance(getattr(type(obj), name), property)
    }
    names |= {
        name for name in dir(type(obj)) if not name.startswith("_") and not callable(getattr(type(obj), name, None))
    }
    return names


def message(obj, name):
    """ "head has no value 'weigths'; did you mean 'weights'?", the same for a plain mapping
    (the fixture's params), or None for other objects."""
    word = kind_of(obj)
    if word is None:
        return mapping_message(obj, name) if isinstance(obj, dict) else None
    close = closest_field(str(name), sorted(value_names(obj)))
    hint = f"; did you mean '{close}'?" if close else ""
    return f"{word} has no value '{name}'{hint}"


LISTED = 20  # a mapping with more keys than this is counted, not listed (a head's JSON has 15)


def mapping_message(mapping, name):
    """ "no value 'asked_temperature' (the values are asked_temprature, temperatures); did you
    mean 'asked_temprature'?": Jinja's own words name the dict class, not what is in it."""
    keys = sorted(shortened(key) for key in mapping if isinstance(key, str))
    close = closest_field(str(name), keys)
    hint = f"; did you mean '{close}'?" if close else ""
    return f"no value {describe(name)} ({listing(keys)}){hint}"


def listing(keys):
    if not keys:
        return "there are none"
    if len(keys) > LISTED:
        return f"{len(keys)} values, such as {', '.join(keys[:LISTED])}"
    return f"the values are {', '.join(keys)}"


UNDEFINED_NAME = re.compile(r"'(\w+)' is undefined")


def suggestion(jinja_message, names):
    """ "; did you mean 'temperature_softmax'?" after Jinja's "'temprature_softmax' is undefined":
    the closest of ``names`` (``found.closest_name``); none for a name shorter than three
    letters (``X`` is as near to ``h`` as to anything)."""
    found = UNDEFINED_NAME.fullmatch(jinja_message)
    if found is None or len(found.group(1)) < 3:
        return ""
    close = closest_field(found.group(1), names)
    return f"; did you mean '{close}'?" if close else ""


class PathError(LessonError):
    """A dotted path (``trace --path``, ``bound(...)``) that names no value."""


def select(data, path, objects=None):
    """The value at a dotted path such as 'heads.1.weights.0', in nested dicts, lists and arrays.

    ``objects`` is the same place in the lesson's own objects (a Trace beside its JSON form),
    so a misspelt name is answered in the lesson's words: "head has no value 'weigths'".
    """
    for part in str(path).split("."):
        if isinstance(data, list | tuple | np.ndarray):
            if not part.isdigit() or int(part) >= len(data):
                raise PathError(f"{path}: expected a position from 0 to {len(data) - 1}, got {part!r}")
            data, objects = data[int(part)], objects[int(part)] if objects is not None else None
        elif isinstance(data, dict) and part in data:
            data, objects = data[part], getattr(objects, part, None)
        elif not isinstance(data, dict) and part in value_names(data):
            data, objects = getattr(data, part), None
        else:
            friendly = message(objects if objects is not None else data, part)
            raise PathError(f"{path}: " + (friendly or f"no value {part!r}: the path ends at {describe(data)}"))
    return data
