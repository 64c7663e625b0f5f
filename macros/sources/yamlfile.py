"""Reading what authors write in YAML (fixtures, front matter, the track) with located errors.

One reader for all three, so every YAML mistake reads the same way: the file, the line
and column, what YAML expected. Keys written twice are refused rather than silently
keeping the last one. ``field_lines`` maps each field path (``heads[0].W_K[1]``) to the
line it is written on, so a checker's message can say where to look.
"""

from pathlib import Path

import yaml

from macros.errors import SourceError
from macros.sources import reads


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


def _whole_number(loader, node):
    """A YAML int, where Python's limit on converting long digit strings (4300 digits) would
    otherwise stop the build with a bare ValueError instead of a located message."""
    try:
        return yaml.SafeLoader.construct_yaml_int(loader, node)
    except ValueError:
        digits = sum(c.isdigit() for c in node.value)
        problem = f"a whole number of {digits} digits, more than Python reads"
        raise yaml.constructor.ConstructorError(None, None, problem, node.start_mark) from None


_StrictLoader.add_constructor("tag:yaml.org,2002:int", _whole_number)


class _FastStrictLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """The same loader over libyaml's parser where PyYAML has it: about eight times faster on a
    fixture, which a build reads more than once (the lesson, then its practice check). Its
    error messages are worded otherwise, so ``parse`` words every mistake with _StrictLoader."""


_FastStrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicate_keys)
_FastStrictLoader.add_constructor("tag:yaml.org,2002:int", _whole_number)


def read_text(file, error=SourceError):
    """A UTF-8 text file, or an ``error`` (a SourceError) saying why it could not be read."""
    try:
        return reads.read_bytes(file).decode("utf-8")
    except OSError as problem:
        raise error(file, "", "a readable file", problem.strerror or str(problem)) from None
    except UnicodeDecodeError as problem:
        raise error(
            file, f"byte {problem.start}", "text in UTF-8", f"byte {problem.object[problem.start]:#04x}"
        ) from None


def parse(text, file, first_line=1, error=SourceError):
    """YAML text from ``file`` (starting at ``first_line`` of it) as Python data."""
    try:
        return yaml.load(text, Loader=_FastStrictLoader)
    except yaml.YAMLError:
        pass  # read again below, so the message is the same whichever parser PyYAML has
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.YAMLError as problem:
        mark = getattr(problem, "problem_mark", None)
        found = getattr(problem, "problem", None) or str(problem)
        if mark is None:
            raise error(file, "", "well-formed YAML", found) from None
        # file:LINE: as every located message starts; the column says where on the line.
        raise error(file, f"column {mark.column + 1}", "well-formed YAML", found, line=mark.line + first_line) from None


def read(file, error=SourceError):
    return parse(read_text(file, error), file, error=error)


def compose(text):
    """The YAML text's node tree (each node with its line and column), by libyaml's parser
    where PyYAML has it; a YAMLError if neither parser can read it."""
    try:
        return yaml.compose(text, Loader=_FastStrictLoader)
    except yaml.YAMLError:
        return yaml.compose(text, Loader=yaml.SafeLoader)


def field_lines(file):
    """{field path: 1-based line} for a YAML file that parses; {} for one that does not.

    Paths are written as checkers write them: ``X``, ``X[2]``, ``heads[0].W_K[1][0]``.
    A field given by an alias (``W_K: *pair``) has the alias's line; its entries have the
    lines of the anchored original.
    """
    try:
        root = compose(Path(file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    lines = {}

    def walk(node, path, depth):
        if depth > 20:
            return
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                key = f"{path}.{key_node.value}" if path else str(key_node.value)
                lines[key] = key_node.start_mark.line + 1
                walk(value_node, key, depth + 1)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                lines.setdefault(f"{path}[{i}]", item.start_mark.line + 1)
                walk(item, f"{path}[{i}]", depth + 1)

    if root is not None:
        walk(root, "", 0)
    return lines


def line_of(lines, path):
    """The line of ``path``, else of its nearest written parent (a missing field's mapping)."""
    while path:
        if path in lines:
            return lines[path]
        cut = max(path.rfind("."), path.rfind("["))
        if cut <= 0:
            return None
        path = path[:cut]
    return None
