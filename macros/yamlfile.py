"""Reading the project's YAML (fixtures, front matter, the track) with located errors.

One reader for all three, so every YAML mistake reads the same way: the file, the line
and column, what YAML expected. Keys written twice are refused rather than silently
keeping the last one.
"""

from pathlib import Path

import yaml

from macros.errors import FixtureError


class _StrictLoader(yaml.SafeLoader):
    """A YAML loader that refuses a key written twice instead of keeping the last one."""


def _no_duplicate_keys(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            problem = f"the field {key!r} written twice"
            raise yaml.constructor.ConstructorError(None, None, problem, key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicate_keys)


def read_text(file):
    """A UTF-8 text file, or a FixtureError saying why it could not be read."""
    try:
        return Path(file).read_text(encoding="utf-8")
    except OSError as error:
        raise FixtureError(file, "", "a readable file", error.strerror or str(error)) from None
    except UnicodeDecodeError as error:
        raise FixtureError(
            file, f"byte {error.start}", "text in UTF-8", f"byte {error.object[error.start]:#04x}"
        ) from None


def parse(text, file, first_line=1):
    """YAML text from ``file`` (starting at ``first_line`` of it) as Python data."""
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + first_line}, column {mark.column + 1}" if mark else ""
        problem = getattr(error, "problem", None) or str(error)
        raise FixtureError(file, where, "well-formed YAML", problem) from None


def read(file):
    return parse(read_text(file), file)
