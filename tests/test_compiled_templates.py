"""The compiled templates the fast tests' Books share (tests/compiled_templates.py): found
again only for the same template file, source and environment options, so a test renders
exactly what it would with a fresh compile. Expected text derived by hand from Jinja's
documented whitespace rules."""

import pytest

from macros.pages import environment
from tests.compiled_templates import InMemory

TEMPLATE = "{% if true %}\nyes\n{% endif %}\n"


def rendered_by(root, store, compiles=True, **options):
    env = environment.environment(root)
    env.bytecode_cache = store
    for option, value in options.items():
        setattr(env, option, value)
    if not compiles:
        env.compile = None  # calling it would raise
    return env.get_template("page.md").render()


def test_a_new_environment_reuses_the_code_and_renders_the_same(tmp_path):
    store = InMemory()
    (tmp_path / "page.md").write_text(TEMPLATE, encoding="utf-8")
    assert rendered_by(tmp_path, store) == "\nyes\n"
    assert rendered_by(tmp_path, store, compiles=False) == "\nyes\n"


def test_another_option_compiles_again(tmp_path):
    store = InMemory()
    (tmp_path / "page.md").write_text(TEMPLATE, encoding="utf-8")
    assert rendered_by(tmp_path, store) == "\nyes\n"
    assert rendered_by(tmp_path, store, trim_blocks=True) == "yes\n"  # trim_blocks eats the newline after a tag
    assert rendered_by(tmp_path, store) == "\nyes\n"


def test_an_edited_template_compiles_again(tmp_path):
    store = InMemory()
    (tmp_path / "page.md").write_text(TEMPLATE, encoding="utf-8")
    assert rendered_by(tmp_path, store) == "\nyes\n"
    (tmp_path / "page.md").write_text(TEMPLATE.replace("yes", "no"), encoding="utf-8")
    assert rendered_by(tmp_path, store) == "\nno\n"


def test_the_same_template_in_another_folder_is_compiled_for_its_own_file(tmp_path):
    """Same name, same source: only the file differs, and the code names the file (an
    error's traceback, ``Template.filename``)."""
    store = InMemory()
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "page.md").write_text(TEMPLATE, encoding="utf-8")
    for folder in ("one", "two"):
        env = environment.environment(tmp_path / folder)
        env.bytecode_cache = store
        assert env.get_template("page.md").filename == str(tmp_path / folder / "page.md")


def test_the_least_recently_used_is_dropped_first(tmp_path):
    store = InMemory(kept=2)
    for name in ("a.md", "b.md", "c.md"):
        (tmp_path / name).write_text(name, encoding="utf-8")

    def load(name, compiles=True):
        env = environment.environment(tmp_path)  # a new environment: only the store remembers
        env.bytecode_cache = store
        if not compiles:
            env.compile = None  # calling it would raise
        return env.get_template(name).render()

    load("a.md"), load("b.md"), load("a.md", compiles=False), load("c.md")  # b was used least recently
    assert load("a.md", compiles=False) == "a.md"
    assert len(store) == 2
    with pytest.raises(TypeError):
        load("b.md", compiles=False)  # dropped: it would have to be compiled again
