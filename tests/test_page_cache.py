"""The page cache: a page is made again exactly when something it was made from changes.

Each case renders pages of a copy of the project's page sources (``Book``, as a build does,
with the cache in the copy's ``.cache/pages``), edits one source, and asks a new Book, as the
next build would, which pages it still has (``Book.kept``). tests/test_cache_identity.py
checks the same through real builds, byte for byte. The last cases check what goes into the
key of every page (``environment.fingerprint``): Jinja's options, the interpreter and the
versions of the packages the code imports.
"""

import inspect
import re
import shutil
import sys
from importlib import metadata
from types import SimpleNamespace

import jinja2
import pytest

from macros.pages import environment
from macros.pages.book import Book
from macros.sources import pins, reads
from tests.sitebuild import PROJECT, edit

TWO_HEADS = "two-heads-separate-projections"
ONE_HEAD = "attention-by-hand"
WIDTH_ONE = "two-heads-of-dimension-one"  # extends attention-by-hand and reads its trace
PAGES = [TWO_HEADS, ONE_HEAD, WIDTH_ONE]
ASIDE = '{% include "lessons/shared/aside.md" %}'
ASIDE_IF_THERE = '{% include "lessons/shared/aside.md" ignore missing %}'


def src(slug):
    return f"lessons/{slug}/lesson.md"


def render_all(root, slugs=PAGES, docs=("index.md",)):
    book = Book(root)
    for slug in slugs:
        book.render(src(slug), root / src(slug))
    for page in docs:
        book.render(page, root / "docs" / page)


def kept(root, slugs=PAGES, docs=("index.md",)):
    """The pages the next build takes from the cache, by slug or docs name."""
    book = Book(root)
    return {slug for slug in slugs if book.kept(src(slug)) is not None} | {p for p in docs if book.kept(p)}


def copy_page_sources(dest):
    """What a Book renders these pages from: the lessons and the pages of docs/. The templates
    under macros/ come from the package itself (``environment.CODE``) and no page reads
    docs/assets, so copies of those would be files made and removed for nothing."""
    shutil.copytree(PROJECT / "lessons", dest / "lessons", ignore=shutil.ignore_patterns("__pycache__"))
    (dest / "docs").mkdir()
    for page in (PROJECT / "docs").glob("*.md"):
        shutil.copy2(page, dest / "docs" / page.name)
    return dest


@pytest.fixture(scope="module")
def rendered_once(tmp_path_factory):
    root = copy_page_sources(tmp_path_factory.mktemp("rendered"))
    render_all(root)
    return root


@pytest.fixture
def rendered(rendered_once, tmp_path):
    """A copy of the project whose pages (and cache) a build made."""
    shutil.copytree(rendered_once, tmp_path / "project")
    return tmp_path / "project"


def test_nothing_changed_every_page_is_kept(rendered):
    assert kept(rendered) == {*PAGES, "index.md"}


def test_a_lessons_prose_makes_that_page_again(rendered):
    edit(rendered / src(TWO_HEADS), "## The input", "## The input\n\nA new sentence.")
    assert kept(rendered) == {ONE_HEAD, WIDTH_ONE, "index.md"}


def test_a_fixture_makes_its_page_the_pages_extending_it_and_those_reading_it_again(rendered):
    edit(rendered / "lessons" / ONE_HEAD / "fixture.yaml", "[2, -1]", "[2, -2]")
    assert kept(rendered) == {TWO_HEADS, "index.md"}


def test_a_partial_included_from_the_lessons_folder(rendered):
    """Included by two pages: the second gets the partial Jinja compiled for the first, and
    records it when Jinja asks whether it is up to date (environment.PageLoader)."""
    root = rendered
    (root / "lessons" / "shared").mkdir()
    (root / "lessons" / "shared" / "aside.md").write_text("An aside.\n", encoding="utf-8")
    edit(root / src(TWO_HEADS), "## The input", f"## The input\n\n{ASIDE}")
    edit(root / src(ONE_HEAD), "## The numbers", f"## The numbers\n\n{ASIDE}")
    render_all(root)
    assert kept(root) == {*PAGES, "index.md"}
    (root / "lessons" / "shared" / "aside.md").write_text("Another aside.\n", encoding="utf-8")
    assert kept(root) == {WIDTH_ONE, "index.md"}


def test_a_partial_looked_for_and_created_later(rendered):
    """``ignore missing``: the page was made knowing there was no such file; adding one is a change."""
    (rendered / "docs" / "aside.md").write_text(f"# An aside, if there is one\n\n{ASIDE_IF_THERE}\n", encoding="utf-8")
    render_all(rendered, [], ["aside.md"])
    assert kept(rendered, [], ["aside.md"]) == {"aside.md"}
    (rendered / "lessons" / "shared").mkdir()
    (rendered / "lessons" / "shared" / "aside.md").write_text("An aside.\n", encoding="utf-8")
    assert kept(rendered, [], ["aside.md"]) == set()


def test_a_pin_a_page_names_makes_it_again_when_it_moves(rendered):
    """The torch release a page names is read from its pin (macros/sources/pins.py)."""
    shutil.copy2(PROJECT / pins.TORCH_REQUIREMENTS, rendered / pins.TORCH_REQUIREMENTS)
    (rendered / "docs" / "pinned.md").write_text("Checked with PyTorch {{ torch_release() }}.\n", encoding="utf-8")
    render_all(rendered, [], ["pinned.md"])
    assert kept(rendered, [], ["pinned.md"]) == {"pinned.md"}
    release = pins.pinned(rendered / pins.TORCH_REQUIREMENTS, "torch")
    edit(rendered / pins.TORCH_REQUIREMENTS, f"torch=={release}\n", f"torch=={release}.post1\n")
    assert kept(rendered, [], ["pinned.md"]) == set()


def test_a_file_looked_for_and_created_later(rendered):
    """A lesson without notebook.py was made knowing there was none: adding one is a change."""
    (rendered / "lessons" / TWO_HEADS / "notebook.py").write_text("# %%\nprint(X)\n", encoding="utf-8")
    assert kept(rendered) == {ONE_HEAD, WIDTH_ONE, "index.md"}


def test_a_title_in_the_track_makes_every_page_again(rendered):
    """Every page shows the nav; lessons show their neighbours' titles too."""
    edit(rendered / src(ONE_HEAD), "title: Attention by hand", "title: Attention, by hand")
    assert kept(rendered) == set()


def test_a_page_that_fails_is_not_kept(rendered):
    edit(rendered / src(TWO_HEADS), "## The input", "## The input {{ nothing_by_this_name }}")
    with pytest.raises(Exception, match="nothing_by_this_name"):
        render_all(rendered, [TWO_HEADS], ())
    edit(rendered / src(TWO_HEADS), "## The input {{ nothing_by_this_name }}", "## The input")
    assert kept(rendered) == {*PAGES, "index.md"}  # the edit undone: the earlier page is valid again


def test_the_environments_options_are_in_every_key(tmp_path):
    plain = environment.environment(tmp_path)
    trimmed = environment.environment(tmp_path)
    trimmed.trim_blocks = True
    assert environment.fingerprint(plain) != environment.fingerprint(trimmed)
    assert environment.fingerprint(plain) == environment.fingerprint(environment.environment(tmp_path))


def test_a_recorder_opened_inside_another_closes_itself(tmp_path):
    """Both start empty and hold the same reads when the inner one closes; a read after that
    belongs to the outer one alone (a lesson computed for a page, then the page's own reads)."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.write_text("1", encoding="utf-8")
    second.write_text("2", encoding="utf-8")
    with reads.recorded() as outer:
        with reads.recorded() as inner:
            reads.read_bytes(first)
        reads.read_bytes(second)
    assert set(inner) == {str(first)} and set(outer) == {str(first), str(second)}


# Jinja's Environment arguments that change no text a template renders to: where templates come
# from (PageLoader records every file it reads) and how compiled ones are kept.
NOT_RENDERING = {"loader", "cache_size", "auto_reload", "bytecode_cache"}
ON_THE_ENVIRONMENT = {"enable_async": "is_async"}  # the attribute, where its name differs


def another(value):
    """Another value of an option, of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return "#"
    return jinja2.DebugUndefined  # the option whose value is a class: undefined


@pytest.mark.parametrize(
    "option", [name for name in inspect.signature(jinja2.Environment).parameters if name not in NOT_RENDERING]
)
def test_every_option_jinja_renders_with_is_in_every_key(tmp_path, option):
    """The options come from Jinja's own signature, not from the list the key is made of, so an
    option left out of that list, or one a new Jinja adds, fails here."""
    plain, other = environment.environment(tmp_path), environment.environment(tmp_path)
    if option == "extensions":
        other.add_extension("jinja2.ext.do")
    else:
        name = ON_THE_ENVIRONMENT.get(option, option)
        setattr(other, name, another(getattr(other, name)))
    assert environment.options(plain) != environment.options(other)


@pytest.mark.parametrize("table", ["filters", "tests"])
def test_the_filters_and_tests_a_template_can_name_are_in_every_key(tmp_path, table):
    plain, other = environment.environment(tmp_path), environment.environment(tmp_path)
    getattr(other, table)["added"] = lambda value: value
    assert environment.options(plain) != environment.options(other)


def test_a_function_given_as_an_option_is_named_as_the_next_process_names_it(tmp_path):
    """By its module and name: its address changes from one process to the next, and a key
    holding it would find no page an earlier build made."""

    def made():
        def finalize(value):
            return value

        return finalize

    first, second = environment.environment(tmp_path), environment.environment(tmp_path)
    first.finalize, second.finalize = made(), made()  # one function at two addresses, as in two processes
    assert environment.options(first) == environment.options(second)


# Imported by the build but in no kept page: the search index's plain math is made from each
# build's HTML (macros/site/compat.py).
NOT_IN_PAGES = {"pylatexenc"}


IMPORT = re.compile(r"^[ \t]*(?:from|import)[ \t]+(\w+)", re.MULTILINE)  # a docstring's line too: more, never fewer


def imported_packages():
    """The installed packages the code in macros/ imports (macros/tools aside: the author's
    commands, which no build runs)."""
    modules = set()
    for path in environment.CODE.rglob("*.py"):
        if "tools" not in path.relative_to(environment.CODE).parts:
            modules.update(IMPORT.findall(path.read_text(encoding="utf-8")))
    by_module = metadata.packages_distributions()
    return sorted({package for module in modules for package in by_module.get(module, ())} - NOT_IN_PAGES)


def canonical(name):
    return name.lower().replace("_", "-")


def moved_version(package):
    """``metadata.version``, but for ``package``, whose version is another."""

    def version(name):
        return metadata.version(name) + ("+moved" if canonical(name) == canonical(package) else "")

    return version


def test_the_interpreter_and_every_package_the_code_imports_are_in_every_key(tmp_path, monkeypatch):
    """A page made under another Python or another numpy is not taken for this one's. The
    packages are found from the code's imports, not from the list the key is made of."""
    packages = imported_packages()
    assert {"numpy", "jinja2"} <= {canonical(package) for package in packages}
    monkeypatch.setattr(environment, "CODE", tmp_path)  # no code to digest: the versions alone
    env = environment.environment(tmp_path)
    plain = environment.fingerprint(env)
    with monkeypatch.context() as patched:
        patched.setattr(environment, "sys", SimpleNamespace(version=sys.version + " (another build)"))
        assert environment.fingerprint(env) != plain
    for package in packages:
        monkeypatch.setattr(environment, "metadata", SimpleNamespace(version=moved_version(package)))
        assert environment.fingerprint(env) != plain, f"{package}'s version is not in the key (environment.PACKAGES)"
