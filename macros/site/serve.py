"""``make serve``: MkDocs' live preview, rendering again only what an edit touches.

    python -m macros.site.serve [-a 127.0.0.1:8000] [-f mkdocs.yml] [--no-livereload]

It is ``mkdocs serve`` (the same LiveReloadServer, watched folders and build function)
with three differences:

- Each rebuild first asks ``macros.site.incremental`` what the edit touches. A fixture or
  a lesson's prose renders that lesson and the pages that show its numbers; the engine, a
  helper, a shared partial, the track or the config render everything. Search and the nav
  stay whole (``macros.site.hooks``).
- Computed lessons, the KaTeX process and its results, and the project's modules live as
  long as the server, unless their code changes.
- Stopping: SIGTERM (``kill PID``, or make passing it on) and Ctrl-C stop the server and
  free the port; if make is killed outright the server notices its parent is gone and
  stops too (``stop_with_parent``).
"""

import argparse
import ctypes
import logging
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.livereload import LiveReloadServer, _serve_url

from macros.site import session as serve_session

log = logging.getLogger("mkdocs.commands.serve")
PR_SET_PDEATHSIG = 1
POLLING_SECONDS = 0.2  # how often the watcher looks for edits (MkDocs: 0.5)


class Rebuilds:
    """One site folder rebuilt again and again from one configuration, as the server does."""

    def __init__(self, config_file, site_dir, dev_addr=None):
        self.config_path = Path(config_file or "mkdocs.yml").resolve()
        self.site_dir, self.dev_addr = str(site_dir), dev_addr
        self.session = serve_session.Session(self.config_path.parent)
        self.serve_url = None

    def config(self):
        config = load_config(config_file=str(self.config_path), site_dir=self.site_dir, dev_addr=self.dev_addr)
        setattr(config, serve_session.ATTRIBUTE, self.session)
        if self.serve_url:
            config.site_url = self.serve_url
        return config

    def build(self, config=None):
        """Render what changed since the last build (the first time: everything).

        Returns the src_uris rendered, or None for every page."""
        started, cpu = time.monotonic(), time.process_time()
        config = config or self.config()
        pages = self.session.prepare()
        try:
            build(config, serve_url=self.serve_url, dirty=pages is not None)
        except BaseException:
            self.session.failed()
            raise
        self.session.succeeded()
        what = "every page" if pages is None else f"{len(pages)} page(s)"
        log.info(f"Rendered {what} in {time.monotonic() - started:.2f} s (CPU {time.process_time() - cpu:.2f} s)")
        return pages

    def close(self):
        if self.session.katex is not None:
            self.session.katex.close()
            self.session.katex = None


def serve(config_file=None, dev_addr=None, livereload=True):
    site_dir = tempfile.mkdtemp(prefix="mkdocs_")
    rebuilds = Rebuilds(config_file, site_dir, dev_addr)
    config = rebuilds.config()
    config.plugins.on_startup(command="serve", dirty=False)
    host, port = config.dev_addr
    mount_path = urlsplit(config.site_url or "/").path
    config.site_url = rebuilds.serve_url = _serve_url(host, port, mount_path)

    server = LiveReloadServer(
        builder=rebuilds.build,
        host=host,
        port=port,
        root=site_dir,
        mount_path=mount_path,
        polling_interval=POLLING_SECONDS,
    )

    def error_handler(code):
        page = Path(site_dir, f"{code}.html")
        return page.read_bytes() if code in (404, 500) and page.is_file() else None

    server.error_handler = error_handler
    try:
        rebuilds.build(config)
        if livereload:
            server.watch(config.docs_dir)
            server.watch(config.config_file_path)
            server = config.plugins.on_serve(server, config=config, builder=rebuilds.build)
            for item in config.watch:
                server.watch(item)
        try:
            server.serve()
        except KeyboardInterrupt:
            log.info("Shutting down...")
        finally:
            server.shutdown()
    finally:
        config.plugins.on_shutdown()
        rebuilds.close()
        shutil.rmtree(site_dir, ignore_errors=True)


def stop_with_parent():
    """SIGTERM stops the server as Ctrl-C does (the port is freed, the temporary site removed).

    Make ``exec``s this, so the server is make's own child with no shell between them:
    ``kill PID`` (SIGTERM) to make reaches the server, since GNU make passes SIGTERM on to
    its children, and Ctrl-C (SIGINT to the whole process group) reaches both. If make
    dies any other way (SIGKILL), Linux sends the server SIGTERM when its parent dies
    (PR_SET_PDEATHSIG). A SIGINT sent to make's process id alone is not passed on: GNU
    make then waits for its children, as it expects the terminal to have signalled them too.
    """

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: make's SIGTERM still reaches the server
        return
    if os.getppid() == 1:  # the parent died before the request took effect
        sys.exit(1)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m macros.site.serve", description=__doc__.splitlines()[0])
    parser.add_argument("-a", "--dev-addr", default=None, help="IP:PORT to serve on (default: mkdocs.yml's)")
    parser.add_argument("-f", "--config-file", default=None, help="the MkDocs configuration (default mkdocs.yml)")
    parser.add_argument("--livereload", dest="livereload", action="store_true", default=True)
    parser.add_argument("--no-livereload", dest="livereload", action="store_false")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)-7s -  %(message)s", stream=sys.stderr)
    logging.getLogger("mkdocs").propagate = True
    stop_with_parent()
    serve(args.config_file, args.dev_addr, args.livereload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
