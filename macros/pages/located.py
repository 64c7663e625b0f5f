"""A failed render as the one line an author reads: ``lessons/<slug>/lesson.md:LINE: what went wrong``."""

import jinja2

from macros.errors import LessonError, SourceError


def template_line(error, filename):
    """The line of the template where ``error`` happened, from Jinja's rewritten traceback
    (Jinja documents that its tracebacks carry template lines for templates with a file name)."""
    if isinstance(error, jinja2.TemplateSyntaxError):
        return error.lineno
    line, tb = None, error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def root_cause(error):
    """The error an author can act on: an undefined name hidden behind a numpy ValueError, say."""
    seen = error
    while seen is not None:
        if isinstance(seen, LessonError | jinja2.UndefinedError | jinja2.TemplateSyntaxError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return error


def names_in_reach(env, name, values):
    """Every name the page could have used: the registry's names, and those the template
    gives values itself ({% set %}, loop variables, macros and their parameters)."""
    names = {*values, *env.globals}
    try:
        tree = env.parse(env.loader.get_source(env, name)[0])
    except jinja2.TemplateError:
        return names
    names |= {node.name for node in tree.find_all(jinja2.nodes.Name) if node.ctx in ("store", "param")}
    return names | {node.name for node in tree.find_all(jinja2.nodes.Macro)}


def located(error, name, filename, env, values):
    """One line: ``NAME:LINE: what went wrong``; an undefined name gets the closest name in
    reach as a suggestion (gathered only then: it parses the template again)."""
    cause = root_cause(error)
    line = template_line(error, filename)
    where = f"{name}:{line}" if line else name
    if isinstance(cause, SourceError):  # names its own file and field
        return str(cause)
    if isinstance(cause, LessonError):  # a false claim or a predicate's complaint: the page says where
        return f"{where}: {cause}"
    if isinstance(cause, jinja2.TemplateSyntaxError):
        return f"{where}: {cause.message}"
    if isinstance(cause, jinja2.UndefinedError):
        from macros import lookup

        return f"{where}: {cause}{lookup.suggestion(str(cause), names_in_reach(env, name, values))}"
    if isinstance(cause, SyntaxError):
        return f"{name}: an expression Jinja cannot compile (a slice such as M[:, 0] is one: write M.T[0])"
    return f"{where}: {type(cause).__name__}: {cause}"
