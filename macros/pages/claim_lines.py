"""Each claim block knows where it is written: a Jinja extension (Jinja's documented
``filter_stream``) that gives ``{% call claim(condition) %}`` the template's name and the
block's line as its first two arguments, so ``claim("lessons/masks/lesson.md", 52,
condition)`` is what runs. A reviewer's listing of every claim (``python -m macros claims``)
and the perturbation test identify claims by that place.
"""

from jinja2.ext import Extension
from jinja2.lexer import Token


def opens_claim(first, second, third):
    """Whether the three tokens before a "(" are ``{% call claim``."""
    return first is not None and first.type == "block_begin" and second.test("name:call") and third.test("name:claim")


class ClaimLines(Extension):
    def filter_stream(self, stream):
        first = second = third = None  # the three tokens before this one
        for token in stream:
            yield token
            if token.type == "lparen" and opens_claim(first, second, third):
                yield Token(token.lineno, "string", stream.name or "")
                yield Token(token.lineno, "comma", ",")
                yield Token(token.lineno, "integer", token.lineno)
                yield Token(token.lineno, "comma", ",")
            first, second, third = second, third, token
