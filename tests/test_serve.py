"""``make serve`` shows an author's edits: to a lesson's template, its fixture and the engine.

The server ``make serve`` runs (``python -m macros.site.serve``, MkDocs' live server
rendering only what an edit touches) runs on a free loopback port over a copy of the project; each edit
is followed by polling the page until the change appears (or a bounded wait runs out).
A mistake while serving shows on the page and the server keeps going.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.sitebuild import PROJECT, edit, environment

pytestmark = pytest.mark.serve

LESSON = "lessons/two-heads-separate-projections"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, root):
        self.port = free_port()
        command = [sys.executable, "-m", "macros.site.serve", "--livereload", "-a", f"127.0.0.1:{self.port}"]
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
    server.wait_for(LESSON, "expected 4 numbers like the first row, got 3")
    edit(fixture, "- [1, 1, -1]", "- [1, 1, -1, 1]")
    server.wait_for(LESSON, "0.503")


def test_the_macros_plugin_keeps_a_stale_module(tmp_path, monkeypatch):
    """Why macros/site/hooks.py forgets the project's modules on every (re)load of the config.

    mkdocs-macros imports ``module_name`` with importlib.import_module, which hands back
    the module already in sys.modules: an edited module is not seen again in the same
    process (``mkdocs serve``) unless it is dropped first. If the plugin ever reloads by
    itself, the first assertion fails and the workaround can go.
    """
    import importlib
    import inspect

    from mkdocs_macros.plugin import MacrosPlugin

    assert "importlib.import_module(module_name)" in inspect.getsource(MacrosPlugin._load_modules)
    package = tmp_path / "stale_lessons_probe"
    package.mkdir()
    (package / "__init__.py").write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert importlib.import_module("stale_lessons_probe").VALUE == 1
    (package / "__init__.py").write_text("VALUE = 2  # edited while serving\n", encoding="utf-8")
    importlib.invalidate_caches()
    assert importlib.import_module("stale_lessons_probe").VALUE == 1  # the stale module
    monkeypatch.delitem(sys.modules, "stale_lessons_probe")  # what the hook does for macros.*
    assert importlib.import_module("stale_lessons_probe").VALUE == 2


@pytest.mark.parametrize(
    "stop",
    [
        lambda make: make.send_signal(signal.SIGTERM),  # `kill PID`: to make alone
        lambda make: os.killpg(make.pid, signal.SIGINT),  # Ctrl-C: to make's process group
        lambda make: make.kill(),  # make killed outright: the server goes with it
    ],
    ids=["SIGTERM to make", "SIGINT to the group", "SIGKILL to make"],
)
def test_stopping_make_serve_stops_the_server_and_frees_the_port(project, stop):
    shutil.copy2(PROJECT / "Makefile", project / "Makefile")
    port = free_port()
    # -o: the copy has no .venv of its own; the running interpreter serves instead.
    command = ["make", "-s", "-o", ".venv/.installed", "serve", f"PY={sys.executable}", f"SERVE_ADDR=127.0.0.1:{port}"]
    make = subprocess.Popen(
        command,
        cwd=project,
        env=environment(strict=False),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group, as a terminal gives it
        # and Ctrl-C's default action, which a suite started in the background has ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 120
        while not port_answers(port):
            assert make.poll() is None and time.monotonic() < deadline, "make serve never answered"
            time.sleep(0.3)
        stop(make)
        make.wait(timeout=30)
        deadline = time.monotonic() + 30
        while port_answers(port) and time.monotonic() < deadline:
            time.sleep(0.3)
        assert not port_answers(port), "the server outlived make"
    finally:
        if make.poll() is None:
            make.kill()


def port_answers(port):
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_a_fixture_edit_remakes_the_notebook(server, project):
    notebook = f"{LESSON}/two-heads-separate-projections.ipynb"

    def served():
        url = f"http://127.0.0.1:{server.port}/{notebook}"
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")

    assert "[1, 1, -1, 1]" in served()
    edit(project / LESSON / "fixture.yaml", "- [1, 1, -1, 1]", "- [2, 1, -1, 3]")
    server.wait_for(LESSON, "0.503", present=False)  # the page was rebuilt
    text = served()
    assert "[2, 1, -1, 3]" in text and "[1, 1, -1, 1]" not in text
