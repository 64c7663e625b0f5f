"""A disk cache of compiled lesson templates, keyed by their source text.

Compiling a lesson's Jinja (parse, generate Python, compile bytecode) costs more than
everything else the computed pipeline adds, and mkdocs-macros compiles every page with
``from_string`` on every build, which Jinja's own bytecode cache never sees. Keying the
compiled code on the exact source (and on what shapes compilation: Jinja's and Python's
versions, the delimiters, extensions and optimizer) makes a rebuild of an unchanged page
skip compilation; any edit to a page changes its key. The cache is a speed-up only:
deleting ``.cache/`` changes nothing but time.
"""

import hashlib
import marshal
import os
import sys
import tempfile
from pathlib import Path

import jinja2


def compile_key(environment, source):
    settings = (
        jinja2.__version__,
        sys.version,
        environment.block_start_string,
        environment.block_end_string,
        environment.variable_start_string,
        environment.variable_end_string,
        environment.comment_start_string,
        environment.comment_end_string,
        environment.line_statement_prefix,
        environment.line_comment_prefix,
        environment.trim_blocks,
        environment.lstrip_blocks,
        environment.newline_sequence,
        environment.keep_trailing_newline,
        environment.optimized,
        environment.is_async,
        repr(environment.autoescape),
        repr(environment.finalize),
        tuple(sorted(environment.extensions)),
    )
    return hashlib.sha256(repr(settings).encode() + b"\0" + source.encode("utf-8")).hexdigest()


def _write_atomically(path, data):
    """Concurrent builds (tests run several) never read a half-written file."""
    handle, temporary = tempfile.mkstemp(dir=path.parent)
    with os.fdopen(handle, "wb") as stream:
        stream.write(data)
    os.replace(temporary, path)


def install(environment, folder):
    """Make ``environment.compile`` consult ``folder`` for plain template sources."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    compile_source = environment.compile

    def compile(source, name=None, filename=None, raw=False, defer_init=False):
        if raw or name or filename or defer_init or not isinstance(source, str):
            return compile_source(source, name, filename, raw, defer_init)
        path = folder / f"{compile_key(environment, source)}.code"
        try:
            return marshal.loads(path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            code = compile_source(source)
            _write_atomically(path, marshal.dumps(code))
            return code

    environment.compile = compile
    environment.compile_cached = True
