"""The Jinja environment every page is rendered with, and what its output depends on.

Pages are templates named from the project folder (``lessons/masks/lesson.md``), so an
error names the author's own file and line. The shared partials are named from the code's
folder (``macros/explain/steps.md.j2``) and load through the same environment.

The loader reads through ``macros.sources.reads``: every template a page loads, includes
or imports, and every cached template Jinja reuses (its ``uptodate`` check), is recorded
with the digest of its bytes. The page cache keeps those records, so an entry is valid
exactly while the templates it was made from are unchanged: nothing is guessed.
"""

import sys
from importlib import metadata
from pathlib import Path

import jinja2

from macros.pages import arithmetic_marks, claim_lines
from macros.sources import front_matter, reads

CODE = Path(__file__).resolve().parent.parent  # the macros package
CODE_PREFIX = "macros/"
# Options that change what a template renders to, each part of the environment's fingerprint.
OPTIONS = (
    "block_start_string",
    "block_end_string",
    "variable_start_string",
    "variable_end_string",
    "comment_start_string",
    "comment_end_string",
    "line_statement_prefix",
    "line_comment_prefix",
    "trim_blocks",
    "lstrip_blocks",
    "newline_sequence",
    "keep_trailing_newline",
    "optimized",
    "autoescape",
    "finalize",
    "is_async",
)
# The packages whose versions a published page can depend on, beside the code in macros/.
PACKAGES = (
    "jinja2",
    "markdown",
    "mkdocs",
    "mkdocs-material",
    "mkdocs-macros-plugin",
    "nbformat",
    "numpy",
    "pymdown-extensions",
    "pyyaml",
)


class PageLoader(jinja2.BaseLoader):
    """Templates by their path from the project folder, front matter blanked (same line count,
    since MkDocs and the page's metadata own it, and a ``{%-`` at the top of the prose must not
    eat it). Every read and every reuse is recorded (``macros.sources.reads``)."""

    def __init__(self, root):
        self.root = Path(root).resolve()

    def path(self, name):
        """The file a template name means; a name that climbs out with '..' means none."""
        pieces = [piece for piece in name.split("/") if piece not in ("", ".")]
        if ".." in pieces:
            raise jinja2.TemplateNotFound(name)
        if name.startswith(CODE_PREFIX):
            return CODE.joinpath(*pieces[1:])
        return self.root.joinpath(*pieces)

    def get_source(self, environment, name):
        path = self.path(name)
        try:
            data = reads.read_bytes(path)
        except OSError:
            raise jinja2.TemplateNotFound(name) from None
        value_digest = reads.digest(data)

        def uptodate():
            if reads.current(path) != value_digest:
                return False
            reads.note(path, value_digest)  # reused by this page: it depends on it too
            return True

        return front_matter.blanked(data.decode("utf-8")), str(path), uptodate


class AuthorUndefined(jinja2.StrictUndefined):
    """Strict, and worded for authors: "head has no value 'weigths'; did you mean 'weights'?".

    Only the documented constructor is used: Jinja creates an Undefined with the object and
    the name it could not find (``obj=``, ``name=``), and a hint given here becomes the
    error's whole message. Without an object (an undefined name), Jinja's own words stand.
    """

    def __init__(self, hint=None, *args, **kwargs):
        name = kwargs.get("name", args[1] if len(args) > 1 else None)
        has_object = "obj" in kwargs or len(args) > 0
        if hint is None and has_object and isinstance(name, str):
            from macros import lookup

            hint = lookup.message(kwargs["obj"] if "obj" in kwargs else args[0], name)
        super().__init__(hint, *args, **kwargs)


SHARED_TEMPLATES = 20  # compiled templates kept: the partials, and the few pages rendered last


def environment(root):
    """The environment for the book's pages, with templates named from ``root``; the caller
    gives it the names every template sees (``env.globals``)."""
    # Jinja's optimizer only folds constants, which lesson templates barely have; skipping
    # it makes compiling a lesson about a sixth cheaper. Each page's template is rendered once
    # a build, so the environment keeps only the few that every page imports (the partials):
    # Jinja's default of 400 held every lesson's compiled template until the build's end.
    return jinja2.Environment(
        loader=PageLoader(root),
        cache_size=SHARED_TEMPLATES,
        undefined=AuthorUndefined,
        optimized=False,
        autoescape=False,
        extensions=[claim_lines.ClaimLines, arithmetic_marks.ArithmeticMarks],
    )


def named(value):
    """An option's value as text that is the same from one process to the next."""
    if callable(value):
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', type(value).__name__)}"
    return repr(value)


def options(env):
    """The environment's options and the names of its extensions, filters and tests, as text:
    what compiled code depends on beside the template's source."""
    parts = [f"{option}={named(getattr(env, option))}" for option in OPTIONS]
    parts += [f"undefined={named(env.undefined)}", "extensions=" + ",".join(sorted(env.extensions))]
    return parts + ["filters=" + ",".join(sorted(env.filters)), "tests=" + ",".join(sorted(env.tests))]


def fingerprint(env):
    """What every page depends on beyond its recorded sources: the code (which also says the
    names a template sees), the interpreter, the versions of the packages that run it, and
    the environment's options."""
    parts = [sys.version, *(f"{name}=={metadata.version(name)}" for name in PACKAGES)]
    parts += options(env)
    for path in sorted(CODE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            parts += [path.relative_to(CODE).as_posix(), reads.digest(path.read_bytes())]
    return reads.digest("\0".join(parts))
