"""``make serve``: MkDocs' own live preview, started again when the project's code changes.

    python -m macros.site.serve [-a 127.0.0.1:8000] [-f mkdocs.yml]

It runs ``python -m mkdocs serve --dirty`` as it is documented, in a child process:

- An edit to a lesson, a fixture, a partial or a page: MkDocs rebuilds, and the dirty build
  renders only the pages whose output changes (``macros.site.serving``).
- An edit to a Python module of ``macros/`` or to the MkDocs configuration (``mkdocs.yml``):
  the server is started again, in a fresh process, which builds every page. A process keeps
  the modules it imported (MkDocs documents no way to load a plugin's module again). MkDocs
  reads the configuration again for each rebuild, but its address, the folders it watches
  and the plugins' ``on_startup`` only once, and a dirty rebuild redoes only the pages whose
  Markdown changed, while the site's name, nav and theme are on every page. The browser's
  live-reload script reloads the page once the new server answers.
- Stopping: SIGTERM (``kill PID``, or make passing it on) and Ctrl-C stop the server and free
  the port; if this process is killed outright, the server notices its parent is gone and
  stops too (Linux's parent-death signal).
"""

import argparse
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from macros.sources import reads

CODE = Path(__file__).resolve().parent.parent  # the macros package
POLL_SECONDS = 0.3
PR_SET_PDEATHSIG = 1


def held_digest(config):
    """The digest of what a server holds for its life: every Python module of the project and
    the configuration. A change means a new server."""
    files = [*sorted(CODE.rglob("*.py")), config]
    return reads.digest("\0".join(f"{p}\0{reads.current(p)}" for p in files))


def stop_with_parent():
    """In the server's process, before it starts: SIGTERM when this process dies (Linux)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: a stop still reaches the server through stop()
        pass


def start(args):
    """The server. Python keeps its compiled modules under .cache/pycache, not in macros/: a
    file written into a watched folder would make the server rebuild for nothing. It runs in
    a process group of its own, so that Ctrl-C, which a terminal sends to the whole group,
    reaches it once, through ``stop``: a second SIGINT interrupted MkDocs' own shutdown, and
    it hung until killed."""
    command = [sys.executable, "-m", "mkdocs", "serve", "--dirty"]
    command += ["-a", args.dev_addr] if args.dev_addr else []
    command += ["-f", args.config_file] if args.config_file else []
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(Path.cwd() / ".cache" / "pycache")}
    return subprocess.Popen(command, env=env, preexec_fn=stop_with_parent, process_group=0)


def stop(server):
    """Stop the server with one SIGINT (as Ctrl-C: MkDocs shuts down and removes its folder)
    and wait for it; kill it if it does not stop."""
    if server.poll() is None:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def serve(args):
    """Run the server until it stops or this process is told to; start it again on edits to
    the code or the configuration."""
    config = Path(args.config_file or "mkdocs.yml")  # the project's; MkDocs' default without -f
    while True:
        held, server = held_digest(config), start(args)
        try:
            while server.poll() is None and held_digest(config) == held:
                time.sleep(POLL_SECONDS)
        finally:
            stop(server)
        if held_digest(config) == held:
            return server.returncode  # the server stopped by itself
        print(
            "INFO    -  The project's code or configuration changed: starting the server again",
            file=sys.stderr,
            flush=True,
        )


DEFAULT_ADDR = "127.0.0.1:8000"  # MkDocs' own default


def busy(address):
    """Whether something already listens at HOST:PORT (a server binding it would fail)."""
    host, _, port = address.rpartition(":")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as MkDocs' server binds
        try:
            probe.bind((host or "127.0.0.1", int(port)))
        except OSError:
            return True
    return False


def busy_message(address):
    host, _, port = address.rpartition(":")
    other = f"{host or '127.0.0.1'}:{int(port) + 1}"
    return (
        f"make serve: {address} is already in use (another make serve, or another server, is running). "
        f"Stop it, or serve on another port: make serve SERVE_ADDR={other}"
    )


def interrupted(signum, frame):
    """SIGTERM ends the server as Ctrl-C does."""
    raise KeyboardInterrupt


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m macros.site.serve", description=__doc__.splitlines()[0])
    parser.add_argument("-a", "--dev-addr", default=None, help="IP:PORT to serve on (default: mkdocs.yml's)")
    parser.add_argument("-f", "--config-file", default=None, help="the MkDocs configuration (default mkdocs.yml)")
    args = parser.parse_args(argv)
    if busy(args.dev_addr or DEFAULT_ADDR):
        print(busy_message(args.dev_addr or DEFAULT_ADDR), file=sys.stderr)
        return 1

    signal.signal(signal.SIGTERM, interrupted)
    stop_with_parent()
    if os.getppid() == 1:  # the parent died before the request took effect
        return 1
    try:
        return serve(args)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
