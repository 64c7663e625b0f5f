"""mkdocs-macros entry point: the functions the plugin looks for, delegating to ``macros.site``.

Imports happen inside the functions so that ``macros.engine`` stays importable (by tests,
by ``python -m macros``) without loading anything of MkDocs.
"""


def define_env(env):
    from macros.site import plugin

    plugin.define_env(env)


def on_pre_page_macros(env):
    from macros.site import plugin

    plugin.before_page(env)
