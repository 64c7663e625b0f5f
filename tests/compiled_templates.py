"""Compiled templates shared by the Books the fast tests make, through Jinja's documented
``BytecodeCache`` (``load_bytecode`` and ``dump_bytecode``).

The fast tests make a new Book, so a new Jinja environment, for almost every case, and each
compiled the shared partials again: compiling was about a third of ``make test-fast``'s time
in one process (6.4 of 21 s under cProfile; 84 compiles, 64 once the partials were shared).
Here a compiled template is found again by what its code depends on:

- the template's name and file (Jinja's bucket key), so a lesson in a copied project is
  compiled for its own file and its errors name that file;
- its source: Jinja checks the source's checksum itself and rejects code compiled from
  other text, so an edited template is compiled again;
- the environment's options, extensions, filters and tests (``environment.options``): the
  same source compiles differently with ``trim_blocks``, say.

The build does not use it: a build makes one environment and compiles each template once,
and between ``make serve`` rebuilds it saved 8% of a fixture edit's server CPU at 100
lessons (0.57 s against 0.62), under the 10% a cache must save to be kept. Jinja's and
Python's versions cannot change within a process. Nothing is written to disk.
"""

from collections import OrderedDict

import jinja2

from macros.pages import environment

KEPT = 40  # compiled templates kept, the least recently used dropped first (each 50–150 KB)


class InMemory(jinja2.BytecodeCache):
    """Up to ``kept`` compiled templates, by the environment's options and Jinja's bucket key."""

    def __init__(self, kept=KEPT):
        self.kept = kept
        self._code = OrderedDict()  # (options, bucket key) -> Jinja's bytecode

    def _key(self, bucket):
        return "\0".join(environment.options(bucket.environment)), bucket.key

    def load_bytecode(self, bucket):
        key = self._key(bucket)
        code = self._code.get(key)
        if code is not None:
            self._code.move_to_end(key)
            bucket.bytecode_from_string(code)  # rejected by Jinja if the source changed

    def dump_bytecode(self, bucket):
        key = self._key(bucket)
        self._code[key] = bucket.bytecode_to_string()
        self._code.move_to_end(key)
        while len(self._code) > self.kept:
            self._code.popitem(last=False)

    def __len__(self):
        return len(self._code)

    def clear(self):
        self._code.clear()


SHARED = InMemory()  # every Book the tests make through tests/computed.py


def shared(book):
    """The book, its environment given the shared compiled templates (before it loads any)."""
    book.environment.bytecode_cache = SHARED
    return book
