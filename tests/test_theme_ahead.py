"""The theme's templates compiled in a forked process as ``mkdocs build`` starts
(``macros.site.theme_ahead``): MkDocs' theme environment then loads them instead of compiling
them, the same code as its own compile gives; an environment compiled differently gets none."""

import jinja2
import pytest
from mkdocs.config import load_config

from macros.site import theme_ahead
from tests.sitebuild import PROJECT


@pytest.fixture
def config():
    return load_config(str(PROJECT / "mkdocs.yml"))


def compiled_here(env):
    """Every compile of ``env`` recorded (the name of each template compiled)."""
    names, compile_source = [], env.compile

    def compile(source, name=None, filename=None, raw=False, defer_init=False):
        names.append(name)
        return compile_source(source, name, filename, raw, defer_init)

    env.compile = compile
    return names


def test_the_theme_environment_loads_the_templates_compiled_ahead(config):
    theme_ahead.start(config)
    env = config.theme.get_env()
    theme_ahead.install(env, config)
    assert isinstance(env.bytecode_cache, theme_ahead.Handed) and len(env.bytecode_cache.compiled) > 40
    names = compiled_here(env)
    page = env.get_template("main.html")
    assert names == []  # main.html, base.html: loaded, not compiled
    fresh = config.theme.get_env()
    assert page.root_render_func.__code__.co_code == fresh.get_template("main.html").root_render_func.__code__.co_code


def test_without_the_process_the_theme_compiles_as_usual(config):
    env = config.theme.get_env()
    theme_ahead.install(env, config)  # nothing started
    names = compiled_here(env)
    env.get_template("main.html")
    assert env.bytecode_cache is None and "main.html" in names  # negative control for the case above


def test_an_environment_that_compiles_differently_gets_no_bytecode(config, monkeypatch):
    monkeypatch.setattr(theme_ahead, "wanted", lambda name, language: name == "main.html")  # quicker
    theme_ahead.start(config)
    env = config.theme.get_env()
    env.add_extension(jinja2.ext.loopcontrols)  # as a plugin could, before the theme is used
    theme_ahead.install(env, config)
    assert env.bytecode_cache is None


def test_only_the_sites_language_of_materials_sixty(config):
    assert theme_ahead.wanted("partials/languages/en.html", "en")
    assert not theme_ahead.wanted("partials/languages/de.html", "en")
    assert theme_ahead.wanted("main.html", "en") and not theme_ahead.wanted(".icons/material/menu.svg", "en")
