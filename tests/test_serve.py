"""``make serve`` shows an author's edits: to a lesson's template, its fixture and the engine.

A real ``mkdocs serve`` runs on a free loopback port over a copy of the project; each edit
is followed by polling the page until the change appears (or a bounded wait runs out).
A mistake while serving shows on the page and the server keeps going.
"""

import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.sitebuild import edit, environment

pytestmark = pytest.mark.serve

LESSON = "lessons/two-heads-separate-projections"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, root):
        self.port = free_port()
        command = [sys.executable, "-m", "mkdocs", "serve", "--livereload", "-a", f"127.0.0.1:{self.port}"]
        self.process = subprocess.Popen(
            command, cwd=root, env=environment(strict=False), stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )

    def page(self, path):
        url = f"http://127.0.0.1:{self.port}/{path}/"
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")

    def wait_for(self, path, text, present=True, seconds=60):
        """Poll until ``text`` is (or is no longer) on the page; rebuilds take about a second."""
        deadline, last = time.monotonic() + seconds, ""
        while time.monotonic() < deadline:
            assert self.process.poll() is None, "the server stopped"
            try:
                last = self.page(path)
                if (text in last) == present:
                    return last
            except OSError:
                pass
            time.sleep(0.3)
        raise AssertionError(f"{text!r} {'never appeared' if present else 'never went away'} on {path}")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def server(project):
    running = Server(project)
    running.wait_for(LESSON, "Two heads with separate projections")
    yield running
    running.stop()


def test_edits_to_fixture_template_and_engine_show_on_reload(server, project):
    server.wait_for(LESSON, "0.503")
    edit(project / LESSON / "fixture.yaml", "- [1, 1, -1, 1]", "- [2, 1, -1, 3]")
    server.wait_for(LESSON, "0.503", present=False)

    edit(project / LESSON / "lesson.md", "## The input", "## The input rows")
    server.wait_for(LESSON, "The input rows")

    # An engine edit must show without restarting the server: scale by 1/d_k instead.
    edit(project / "macros/engine/steps.py", "return 1.0 / np.sqrt(d_k)", "return 1.0 / d_k")
    server.wait_for(LESSON, "0.500")


def test_a_mistake_shows_on_the_page_and_the_server_survives(server, project):
    fixture = project / LESSON / "fixture.yaml"
    edit(fixture, "- [1, 1, -1, 1]", "- [1, 1, -1]")
    server.wait_for(LESSON, "expected 4 numbers like row 0, got 3")
    edit(fixture, "- [1, 1, -1]", "- [1, 1, -1, 1]")
    server.wait_for(LESSON, "0.503")
