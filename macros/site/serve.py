"""``make serve``: ``mkdocs serve`` that stops when make stops.

The Makefile ``exec``s this, so the server is make's own child with no shell between
them: ``kill PID`` (SIGTERM) to make reaches the server, since GNU make passes SIGTERM on
to its children, and Ctrl-C (SIGINT to the whole process group) reaches both. If make
dies any other way (SIGKILL), the server asks Linux to send it SIGTERM when its parent
dies (PR_SET_PDEATHSIG, kept across exec). A SIGINT sent to make's process id alone is
not passed on: GNU make then waits for its children, as it expects the terminal to have
signalled them too.
"""

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def stop_with_parent():
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: make's SIGTERM still reaches the server
        return
    if os.getppid() == 1:  # the parent died before the request took effect
        sys.exit(1)


if __name__ == "__main__":
    stop_with_parent()
    os.execv(sys.executable, [sys.executable, "-m", "mkdocs", "serve", *sys.argv[1:]])
