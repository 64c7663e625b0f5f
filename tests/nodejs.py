"""The browser's JavaScript run under Node.js, in one node process for the whole test session.

``run_node(script, payload)`` calls the ``run`` function that ``tests/js/<script>`` exports
with ``payload`` (JSON) and gives back its result (JSON). The calls go to one long-lived
``node tests/js/serve.mjs`` started on first use (each pytest-xdist worker has its own),
so a test pays microseconds per call rather than a node start-up (about 0.15 s) each.

Node is required: without it the twin's tests fail, they do not skip. A script that throws
fails the calling test with node's stack; a node that dies or answers nothing within
``TIMEOUT`` seconds fails it with node's stderr, and the next call starts a fresh node.
"""

import atexit
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "js" / "serve.mjs"
TIMEOUT = 120


def node():
    """The node executable; its absence fails the suite, since the twin would go untested."""
    path = shutil.which("node")
    if path is None:
        pytest.fail("node is not on PATH: the browser twin's tests need Node.js (20 or later) to run")
    return path


class NodeError(AssertionError):
    """A script threw, or node stopped answering; the message holds node's own words."""


class _Server:
    def __init__(self):
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [node(), str(SERVER)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
        )
        self.pending = b""

    def call(self, script, payload):
        request = json.dumps({"script": script, "input": payload}, allow_nan=False).encode() + b"\n"
        try:
            self.process.stdin.write(request)
            self.process.stdin.flush()
        except BrokenPipeError:
            self.fail(script, "node stopped before the request was sent")
        reply = json.loads(self.read_line(script))
        if "error" in reply:
            raise NodeError(f"node {script} failed:\n{reply['error']}")
        return reply.get("result")  # undefined in JavaScript: None

    def read_line(self, script):
        deadline = time.monotonic() + TIMEOUT
        out = self.process.stdout.fileno()
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([out], [], [], left)[0]:
                self.fail(script, f"node gave no answer within {TIMEOUT} s")
            chunk = os.read(out, 1 << 20)
            if not chunk:
                self.fail(script, f"node exited with code {self.process.wait()}")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line

    def fail(self, script, what):
        self.close()
        self.stderr.seek(0)
        raise NodeError(f"node {script} failed: {what}\n{self.stderr.read().decode(errors='replace')}")

    def alive(self):
        return self.process.poll() is None

    def close(self):
        if self.alive():
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


_server = None


def run_node(script, payload):
    """JSON in, JSON out: ``run(payload)`` of tests/js/<script>, in the session's node process."""
    global _server
    if _server is None or not _server.alive():
        _server = _Server()
    return _server.call(script, payload)


@atexit.register
def _stop():
    if _server is not None:
        _server.close()
