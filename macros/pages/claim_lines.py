"""Each claim block knows where it is written: a Jinja extension (Jinja's documented
``filter_stream``) that gives ``{% call claim(condition) %}`` the template's name and the
block's line as its first two arguments, so ``claim("lessons/masks/lesson.md", 52,
condition)`` is what runs. A reviewer's listing of every claim (``python -m macros claims``)
and the perturbation test identify claims by that place.
"""

from jinja2.ext import Extension
from jinja2.lexer import Token

OPENING = ("block_begin", "name", "name", "lparen")  # {% call claim (


class ClaimLines(Extension):
    def filter_stream(self, stream):
        recent = []
        for token in stream:
            yield token
            recent = [*recent[-3:], token]
            if tuple(t.type for t in recent) == OPENING and (recent[1].value, recent[2].value) == ("call", "claim"):
                yield Token(token.lineno, "string", stream.name or "")
                yield Token(token.lineno, "comma", ",")
                yield Token(token.lineno, "integer", token.lineno)
                yield Token(token.lineno, "comma", ",")
