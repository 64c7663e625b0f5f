"""The theme's templates compiled while the build starts, on a core that would wait.

MkDocs compiles Material's templates (the page, its partials, the 404 page, the sitemap) when
it writes the first pages, at the build's end, where nothing else runs beside it: about a
tenth of a second of a 31-lesson build. In ``mkdocs build`` a forked process compiles them
instead as the build starts (the build's own process is then importing what the lessons
need, one core at a time) and hands the compiled code back as Jinja bytecode. When MkDocs
makes the theme's environment, ``on_env`` gives it a bytecode cache (Jinja's documented
``BytecodeCache``) that holds them: a template is then loaded, not compiled.

Nothing is kept between builds. Jinja checks each template's source against the bytecode's
checksum and compiles a template whose source differs; an environment whose options differ
from the one the process compiled with (an extension a plugin added) gets no bytecode at
all. A process that fails or is late only costs the time it would have saved.
"""

import multiprocessing
import pickle

import jinja2

from macros.pages import environment

WAIT_SECONDS = 30  # the longest wait for the compiled templates when MkDocs needs them
TEMPLATES = (".html", ".xml")
OTHER_LANGUAGES = "partials/languages/"  # one language of Material's sixty is the site's

_started = {}  # the config file's path -> (the process, the end its compiled code comes from)


def start(config):
    """Start compiling the theme's templates in a forked process (before any thread starts)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return
    context = multiprocessing.get_context("fork")
    received, sent = context.Pipe(duplex=False)
    process = context.Process(target=_compile_all, args=(config, sent), daemon=True)
    process.start()
    sent.close()  # only the process writes: when it ends, reading stops
    _started[config.config_file_path] = (process, received)


def install(env, config):
    """Give MkDocs' theme environment the templates the process compiled, if it compiled them
    in an environment like this one; the process is ended either way."""
    found = _started.pop(config.config_file_path, None)
    if found is None:
        return
    process, received = found
    try:
        options, compiled = pickle.loads(received.recv_bytes()) if received.poll(WAIT_SECONDS) else (None, {})
    except (EOFError, OSError, pickle.UnpicklingError):
        options, compiled = None, {}
    finally:
        received.close()
        process.join(timeout=WAIT_SECONDS)
        if process.is_alive():
            process.terminate()
    if compiled and options == environment.options(env):
        env.bytecode_cache = Handed(compiled)


def stop():
    """A build that stopped before the theme was needed leaves no process compiling it."""
    for process, received in _started.values():
        received.close()
        process.terminate()
    _started.clear()


class Handed(jinja2.BytecodeCache):
    """Bytecode handed over by the process, by Jinja's key for each template; nothing written."""

    def __init__(self, compiled):
        self.compiled = compiled

    def load_bytecode(self, bucket):
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket):
        pass


class _Kept(jinja2.BytecodeCache):
    """What the forked process compiles, kept by key to send back."""

    def __init__(self):
        self.compiled = {}

    def load_bytecode(self, bucket):
        pass

    def dump_bytecode(self, bucket):
        self.compiled[bucket.key] = bucket.bytecode_to_string()


def wanted(name, language):
    return name.endswith(TEMPLATES) and (
        not name.startswith(OTHER_LANGUAGES) or name == f"{OTHER_LANGUAGES}{language}.html"
    )


def _compile_all(config, sent):
    """In the forked process: every template of the theme compiled (through Jinja's own
    loading, so each is keyed as MkDocs' environment will look it up), sent back."""
    env = config.theme.get_env()
    kept = env.bytecode_cache = _Kept()
    language = config.theme.get("language", "en")
    for name in env.list_templates(filter_func=lambda name: wanted(name, language)):
        try:
            env.get_template(name)
        except jinja2.TemplateError:  # MkDocs says so if the build uses it
            continue
    sent.send_bytes(pickle.dumps((environment.options(env), kept.compiled)))
    sent.close()
