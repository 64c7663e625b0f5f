"""``make serve`` shows an author's edits: to a lesson's template, its fixture, the engine and
mkdocs.yml.

The server ``make serve`` runs (``python -m macros.site.serve``: ``mkdocs serve --dirty``,
started again when the code changes) runs on a free loopback port over a copy of the
project. After each edit the test waits for MkDocs to say it reloaded the browsers, then
reads the served folder: a dirty rebuild builds only the pages whose output changes, and
what it serves is then the same, byte for byte, as a clean build of the edited project.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

from tests.sitebuild import PROJECT, build, differing, edit, environment, first_difference

pytestmark = pytest.mark.serve

LESSON = "lessons/two-heads-separate-projections"
ENGINE = "macros/engine/steps.py"
NAME, RENAMED = "Attention by Hand", "Attention, by Hand"  # mkdocs.yml's site_name, and an edit of it
RELOADED = "Reloading browsers"
STARTED = "Serving on"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m macros.site.serve`` over a project; MkDocs' temporary site folder is made
    under ``temporary`` (TMPDIR), so the test can read what is served."""

    def __init__(self, root, temporary):
        self.port, self.temporary = free_port(), Path(temporary)
        self.temporary.mkdir(exist_ok=True)
        command = [sys.executable, "-m", "macros.site.serve", "-a", f"127.0.0.1:{self.port}"]
        env = {**environment(strict=False, fixed_date=True), "TMPDIR": str(self.temporary)}
        self.process = subprocess.Popen(
            command, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def count(self, text):
        return sum(text in line for line in list(self.lines))

    def wait_until(self, text, times, seconds=90):
        deadline = time.monotonic() + seconds
        while self.count(text) < times:
            assert self.process.poll() is None, "the server stopped:\n" + "".join(self.lines)
            assert time.monotonic() < deadline, f"never saw {text!r} {times} times:\n" + "".join(self.lines)
            time.sleep(0.1)

    def rebuilt_after(self, change):
        """Make an edit and wait until MkDocs has rebuilt and reloaded the browsers."""
        before = self.count(RELOADED)
        change()
        self.wait_until(RELOADED, before + 1)

    @property
    def folder(self):
        (found,) = self.temporary.glob("mkdocs_*")
        return found

    def page(self, path):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path}", timeout=5) as response:
            return response.read().decode("utf-8")

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def server(project, tmp_path):
    running = Server(project, tmp_path / "temporary")
    running.wait_until(STARTED, 1)
    yield running
    running.stop()


def times(folder):
    return {path.relative_to(folder).as_posix(): path.stat().st_mtime_ns for path in folder.rglob("*.html")}


def clean_build_as_served(project, server, place):
    """The edited project built from nothing, with the served address as its site_url.

    It is built in a copy outside the project: a build inside it writes files the server
    watches (compiled modules under macros/), and the rebuild they start would rewrite the
    served folder while the test reads it."""
    copy = place / "project"
    shutil.copytree(project, copy, symlinks=True, ignore=shutil.ignore_patterns(".cache", "__pycache__", "temporary"))
    config = copy / "mkdocs.served.yml"
    config.write_text(f"INHERIT: mkdocs.yml\nsite_url: http://127.0.0.1:{server.port}/\n", encoding="utf-8")
    result = build(copy, strict=False, site=place / "clean", config="mkdocs.served.yml", fixed_date=True)
    assert result.returncode == 0, result.output
    return result.site


def assert_served_as_built_clean(project, server, place):
    """The served folder is byte for byte a clean build; no rebuild ran while it was compared."""
    reloads = server.count(RELOADED)
    clean = clean_build_as_served(project, server, place)
    found = differing(server.folder, clean)
    assert server.count(RELOADED) == reloads, "the server rebuilt while the test compared:\n" + "".join(server.lines)
    assert found == [], first_difference(server.folder, clean, found)


def test_a_fixture_edit_rebuilds_its_page_and_readers_and_serves_what_a_clean_build_makes(
    server, project, tmp_path_factory
):
    before = times(server.folder)
    fixture = project / "lessons/attention-by-hand/fixture.yaml"
    server.rebuilt_after(lambda: edit(fixture, "[2, -1]", "[2, -1.5]"))
    after = times(server.folder)
    changed = sorted(path for path in after if after[path] != before.get(path))
    # its page, and two-heads-of-dimension-one, which extends its fixture and reads its numbers;
    # the summaries of those two lessons' chapters, and no other; 404.html is written on every build
    assert changed == [
        "404.html",
        "chapters/many-heads.html",
        "chapters/why-attention.html",
        "lessons/attention-by-hand/index.html",
        "lessons/two-heads-of-dimension-one/index.html",
    ]
    assert_served_as_built_clean(project, server, tmp_path_factory.mktemp("clean"))


def started_again_after(server, change):
    """Make an edit and wait until the server, started again, serves its first build."""
    started = server.count(STARTED)
    change()
    server.wait_until(STARTED, started + 1)


def test_edits_to_template_engine_and_configuration_show(server, project, tmp_path_factory):
    assert "0.503" in server.page(f"{LESSON}/")
    server.rebuilt_after(lambda: edit(project / LESSON / "lesson.md", "## The input", "## The input rows"))
    assert "The input rows" in server.page(f"{LESSON}/")
    # An engine edit starts the server again with the new code: scale by 1/d_k instead.
    started_again_after(server, lambda: edit(project / ENGINE, "return 1.0 / np.sqrt(d_k)", "return 1.0 / d_k"))
    assert "0.500" in server.page(f"{LESSON}/"), "".join(server.lines)
    # So does an edit to mkdocs.yml. The site's name is in every page's title and header, and
    # no page's Markdown changed: a dirty rebuild would have left every page with the old name.
    started_again_after(server, lambda: edit(project / "mkdocs.yml", f"site_name: {NAME}", f"site_name: {RENAMED}"))
    assert f"- {RENAMED}</title>" in server.page(f"{LESSON}/"), "".join(server.lines)
    assert_served_as_built_clean(project, server, tmp_path_factory.mktemp("clean"))


def test_an_edit_to_a_script_module_is_bundled_into_the_served_page_script(server, project):
    """Pages load the bundle (macros/pages/scripts.py), not the modules an author edits."""
    assert "Lock in another answer" in server.page("assets/js/book.js")
    module = project / "docs/assets/js/predict.js"
    server.rebuilt_after(lambda: edit(module, '"Lock in another answer"', '"Lock in a new answer"'))
    served = server.page("assets/js/book.js")
    assert "Lock in a new answer" in served and "Lock in another answer" not in served


def test_a_mistake_shows_on_the_page_and_the_server_survives(server, project):
    fixture = project / LESSON / "fixture.yaml"
    server.rebuilt_after(lambda: edit(fixture, "- [1, 1, -1, 1]", "- [1, 1, -1]"))
    assert "expected 4 numbers like the first row, got 3" in server.page(f"{LESSON}/")
    server.rebuilt_after(lambda: edit(fixture, "- [1, 1, -1]", "- [1, 1, -1, 1]"))
    assert "0.503" in server.page(f"{LESSON}/")


def test_a_fixture_edit_remakes_the_notebook(server, project):
    notebook = f"{LESSON}/two-heads-separate-projections.ipynb"
    assert "[1, 1, -1, 1]" in server.page(notebook)
    server.rebuilt_after(lambda: edit(project / LESSON / "fixture.yaml", "- [1, 1, -1, 1]", "- [2, 1, -1, 3]"))
    text = server.page(notebook)
    assert "[2, 1, -1, 3]" in text and "[1, 1, -1, 1]" not in text


@pytest.mark.parametrize(
    "stop",
    [
        lambda make: make.send_signal(signal.SIGTERM),  # `kill PID`: to make alone
        lambda make: os.killpg(make.pid, signal.SIGINT),  # Ctrl-C: to make's process group
        lambda make: make.kill(),  # make killed outright: the server goes with it
        lambda make: psutil.Process(make.pid).children()[0].send_signal(signal.SIGINT),  # to the supervisor alone
    ],
    ids=["SIGTERM to make", "SIGINT to the group", "SIGKILL to make", "SIGINT to the supervisor"],
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
