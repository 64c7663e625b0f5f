"""A formula's TeX read into nodes: the small part of LaTeX the book's formulas are written in.

Characters (runs of them), groups in braces, macros with the arguments the caller gives
them (``\\frac{1}{2}``, ``\\sqrt[3]{x}``, ``\\left(``), ``^`` and ``_`` with theirs, ``&``,
environments (``\\begin{bmatrix}`` … ``\\end{bmatrix}``), inline math and comments. Every
node knows where it is written (``start``, ``end``) and its text as written (``verbatim``).

It reads as pylatexenc's general parser does with the same macros declared
(tests/test_tex.py compares the two on every formula of the book), in a fraction of the time:
every page's formulas are read on every build, for the arithmetic check. Malformed TeX (a
brace or an environment left open or closed twice, an argument missing) is a TexError naming
what is wrong and where. Known limits, none written in the book: a comment inside a script's
argument, a ``\\r\\n`` line break after a macro's name, a blank line before a macro's
argument, and ``x^&`` read otherwise than pylatexenc reads them.
"""

import re

CHARS, GROUP, MACRO, SPECIAL, ENVIRONMENT, MATH = "chars", "group", "macro", "special", "environment", "math"

SCRIPTS = ("^", "_")  # each reads one required argument, as a macro does
STOPS = re.compile(r"[\\{}%^_&$]")  # where a run of plain characters ends
STOPS_IN_BRACKETS = re.compile(r"[\\{}%^_&$\]]")  # and in an optional argument, its closing bracket
LETTERS = re.compile(r"[A-Za-z]+")
POST_SPACE = re.compile(r"[ \t]*(?:\n[ \t]*)?")  # after a macro's name in letters
SPACE = re.compile(r"\s*")
NAME = re.compile(r"\s*\{(?P<name>[^{}]*)\}")


class TexError(ValueError):
    """TeX that does not parse; the message says what and where (the character's position)."""


class Node:
    """One thing written: ``kind`` (CHARS, GROUP, MACRO, SPECIAL, ENVIRONMENT, MATH); ``name``
    (a macro's or an environment's name, a special's character, a run's characters);
    ``nodes`` (what a group, an environment or a math node holds); ``arguments`` (a macro's or
    a special's, each a node or None for an optional one not given)."""

    __slots__ = ("kind", "name", "start", "end", "source", "nodes", "arguments")

    def __init__(self, kind, name, start, end, source, nodes=(), arguments=()):
        self.kind, self.name, self.start, self.end, self.source = kind, name, start, end, source
        self.nodes, self.arguments = nodes, arguments

    @property
    def verbatim(self):
        """Its text as written in the formula."""
        return self.source[self.start : self.end]


def nodes(source, arguments):
    """The nodes of a formula, in order; a TexError for malformed TeX. ``arguments`` says what
    each macro reads after its name: "{" a required argument, "[" an optional one in brackets
    (``{"frac": "{{", "sqrt": "[{"}``); a macro not in it reads none (a symbol, a space)."""
    found, _ = _Reader(source, arguments).read(0, None)
    return found


class _Reader:
    def __init__(self, source, arguments):
        self.source, self.arguments = source, arguments

    def read(self, i, closing):
        """The nodes from ``i`` up to ``closing`` ("}", "]", "$", "\\)", "\\]", an environment's
        name, or None for the end of the formula), and where reading stopped (after it)."""
        source, found = self.source, []
        while True:
            if i >= len(source):
                if closing is not None:
                    raise TexError(f"the end of the formula comes before {_closing_words(closing)}")
                return found, i
            c = source[i]
            if c == "{":
                inside, end = self.read(i + 1, "}")
                found.append(Node(GROUP, "{", i, end, source, inside))
                i = end
            elif c == "}":
                if closing != "}":
                    raise TexError(f"a closing brace with none open, at character {i + 1}")
                return found, i + 1
            elif c == "]" and closing == "]":
                return found, i + 1
            elif c == "$":
                if closing == "$":
                    return found, i + 1
                inside, end = self.read(i + 1, "$")
                found.append(Node(MATH, "$", i, end, source, inside))
                i = end
            elif c == "%":  # a comment, to the end of its line, and the space after it
                end = source.find("\n", i)
                i = len(source) if end < 0 else self.space_after(end)
            elif c in SCRIPTS:
                argument, end = self.argument(i + 1, c)
                found.append(Node(SPECIAL, c, i, end, source, arguments=(argument,)))
                i = end
            elif c == "&":
                found.append(Node(SPECIAL, c, i, i + 1, source))
                i += 1
            elif c == "\\":
                node, i = self.macro(i, closing)
                if node is None:  # the closing one: \end{…}, \) or \]
                    return found, i
                found.append(node)
            else:
                stop = (STOPS_IN_BRACKETS if closing == "]" else STOPS).search(source, i + 1)
                end = stop.start() if stop else len(source)
                found.append(Node(CHARS, source[i:end], i, end, source))
                i = end

    def macro(self, i, closing):
        """The macro written at ``i`` with its arguments, and where it ends; (None, after it)
        for the closing one that ``closing`` waits for."""
        source = self.source
        name, end, in_letters = self.name_at(i, f"a backslash ends the formula, at character {i + 1}")
        if name in (")", "]"):
            if closing != "\\" + name:
                raise TexError(f"\\{name} closes no math open, at character {i + 1}")
            return None, end
        if name in ("(", "["):
            inside, after = self.read(end, "\\" + {"(": ")", "[": "]"}[name])
            return Node(MATH, "\\" + name, i, after, source, inside), after
        if name in ("begin", "end"):
            return self.environment(i, end, name, closing)
        if in_letters:
            end = self.space_after(end)
        arguments = []
        for kind in self.arguments.get(name, ""):
            argument, end = self.optional(end) if kind == "[" else self.argument(end, f"\\{name}")
            arguments.append(argument)
        return Node(MACRO, name, i, end, source, arguments=tuple(arguments)), end

    def name_at(self, i, at_the_end):
        """The name of the macro whose backslash is at ``i`` (its letters, or the one character
        after it), where the name ends, and whether it is in letters; a TexError saying
        ``at_the_end`` when the backslash ends the formula."""
        letters = LETTERS.match(self.source, i + 1)
        if letters:
            return letters.group(), letters.end(), True
        if i + 1 >= len(self.source):
            raise TexError(at_the_end)
        return self.source[i + 1], i + 2, False

    def space_after(self, i):
        """Where the space after a macro's name in letters (or a comment) ends: spaces, and one
        line break with the next line's indent, but none before an empty line (a paragraph)."""
        end = POST_SPACE.match(self.source, i).end()
        return i if self.source.startswith("\n", end) else end

    def environment(self, i, end, word, closing):
        source = self.source
        named = NAME.match(source, end)
        if named is None:
            raise TexError(f"\\{word} without its environment's name in braces, at character {i + 1}")
        name = named["name"].strip()
        if word == "end":
            if closing != ("end", name):
                raise TexError(f"\\end{{{name}}} closes no environment open, at character {i + 1}")
            return None, named.end()
        inside, after = self.read(named.end(), ("end", name))
        return Node(ENVIRONMENT, name, i, after, source, inside), after

    def argument(self, i, of):
        """A required argument read from ``i``: a group, a macro (its name alone) or one
        character; and where it ends."""
        source = self.source
        i = SPACE.match(source, i).end()
        if i >= len(source):
            raise TexError(f"the formula ends before the argument of {of}")
        c = source[i]
        if c == "{":
            inside, end = self.read(i + 1, "}")
            return Node(GROUP, "{", i, end, source, inside), end
        if c == "\\":  # a macro, its name alone
            name, end, in_letters = self.name_at(i, f"the formula ends before the argument of {of}")
            end = self.space_after(end) if in_letters else end
            return Node(MACRO, name, i, end, source), end
        if c in "}%":
            raise TexError(f"the argument of {of} is missing, at character {i + 1}")
        return Node(CHARS, c, i, i + 1, source), i + 1

    def optional(self, i):
        """An optional argument in brackets (a group), or None, and where it ends."""
        source = self.source
        start = SPACE.match(source, i).end()
        if not source.startswith("[", start):
            return None, i
        inside, end = self.read(start + 1, "]")
        return Node(GROUP, "[", start, end, source, inside), end


def _closing_words(closing):
    if isinstance(closing, tuple):
        return f"\\end{{{closing[1]}}}"
    return {"}": "the closing brace", "]": "the closing bracket"}.get(closing, closing)
