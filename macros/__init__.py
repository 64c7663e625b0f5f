"""mkdocs-macros entry point: the functions the plugin looks for, delegating to ``macros.site``.

Imports happen inside the functions so that ``macros.engine`` stays importable (by tests,
by ``python -m macros``) without loading anything of MkDocs.
"""


def define_env(env):
    from macros import site

    site.define_env(env)


def on_pre_page_macros(env):
    from macros import site

    site.before_page(env)


def on_post_page_macros(env):
    from macros import site

    site.after_page(env)
