"""The compiled templates the fast tests' Books share (tests/compiled_templates.py): found
again only for the same template file, source and environment options, so a test renders
exactly what it would with a fresh compile. Expected text derived by hand from Jinja's
documented whitespace rules."""

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


def test_the_same_name_in_another_folder_is_its_own_template(tmp_path):
    store = InMemory()
    for folder, word in (("one", "yes"), ("two", "no")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "page.md").write_text(TEMPLATE.replace("yes", word), encoding="utf-8")
    assert rendered_by(tmp_path / "one", store) == "\nyes\n"
    assert rendered_by(tmp_path / "two", store) == "\nno\n"


def test_only_the_most_recently_used_are_kept(tmp_path):
    store = InMemory(kept=2)
    env = environment.environment(tmp_path)
    env.bytecode_cache = store
    for name in ("a.md", "b.md", "c.md"):
        (tmp_path / name).write_text(name, encoding="utf-8")
        env.get_template(name)
    assert len(store) == 2
