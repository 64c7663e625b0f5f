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
  stops too. Make runs it with ``exec``, so it is make's own child.
"""

import argparse
import logging
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.livereload import LiveReloadServer, _serve_url

from macros.site import session as serve_session

log = logging.getLogger("mkdocs.commands.serve")
POLLING_SECONDS = 0.2  # how often the watcher looks for edits (MkDocs: 0.5)


def serve(config_file=None, dev_addr=None, livereload=True):
    site_dir = tempfile.mkdtemp(prefix="mkdocs_")
    config_path = Path(config_file or "mkdocs.yml").resolve()
    session = serve_session.Session(config_path.parent)

    def get_config():
        config = load_config(config_file=str(config_path), site_dir=site_dir, dev_addr=dev_addr)
        setattr(config, serve_session.ATTRIBUTE, session)
        return config

    config = get_config()
    config.plugins.on_startup(command="serve", dirty=False)
    host, port = config.dev_addr
    mount_path = urlsplit(config.site_url or "/").path
    config.site_url = serve_url = _serve_url(host, port, mount_path)

    def builder(config=None):
        started = time.monotonic()
        if config is None:
            config = get_config()
            config.site_url = serve_url
        pages = session.prepare()
        try:
            build(config, serve_url=serve_url, dirty=pages is not None)
        except BaseException:
            session.failed()
            raise
        session.succeeded()
        what = "every page" if pages is None else f"{len(pages)} page(s)"
        log.info(f"Rendered {what} in {time.monotonic() - started:.2f} s")

    server = LiveReloadServer(
        builder=builder, host=host, port=port, root=site_dir, mount_path=mount_path, polling_interval=POLLING_SECONDS
    )

    def error_handler(code):
        page = Path(site_dir, f"{code}.html")
        return page.read_bytes() if code in (404, 500) and page.is_file() else None

    server.error_handler = error_handler
    try:
        builder(config)
        if livereload:
            server.watch(config.docs_dir)
            server.watch(config.config_file_path)
            server = config.plugins.on_serve(server, config=config, builder=builder)
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
        if session.katex is not None:
            session.katex.close()
        shutil.rmtree(site_dir, ignore_errors=True)


def stop_with_parent():
    """SIGTERM stops the server as Ctrl-C does; so does the death of the parent (make)."""

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, daemon=True).start()


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
