"""``python -m macros ARGS`` run in this process, through the command line's own ``main``.

What a shell would see (the exit code, stdout and stderr), without the half second a new
interpreter takes to start and import numpy. ``main`` is all that ``python -m macros``
runs (macros/__main__.py); tests/test_fixture.py runs the real process once, so that the
entry point itself stays tested.
"""

import contextlib
import io
from dataclasses import dataclass

from macros.__main__ import main


@dataclass(frozen=True)
class Result:
    returncode: int
    stdout: str
    stderr: str


def run(*args):
    """The command line ``python -m macros ARGS`` run in process: its Result."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(arg) for arg in args])
        except SystemExit as exit:  # argparse refusing the arguments
            code = exit.code
    return Result(code, out.getvalue(), err.getvalue())
