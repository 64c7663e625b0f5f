"""The page cache: a page is made again exactly when something it was made from changes.

Each case renders pages of a copy of the project's page sources (``Book``, as a build does,
with the cache in the copy's ``.cache/pages``), edits one source, and asks a new Book, as the
next build would, which pages it still has (``Book.kept``). tests/test_cache_identity.py
checks the same through real builds, byte for byte.
"""

import shutil

import pytest

from macros.pages import environment
from macros.pages.book import Book
from tests.sitebuild import PROJECT, edit

TWO_HEADS = "two-heads-separate-projections"
ONE_HEAD = "attention-by-hand"
WIDTH_ONE = "two-heads-of-dimension-one"  # extends attention-by-hand and reads its trace
PAGES = [TWO_HEADS, ONE_HEAD, WIDTH_ONE]


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
    root = rendered
    (root / "lessons" / "shared").mkdir()
    (root / "lessons" / "shared" / "aside.md").write_text("An aside.\n", encoding="utf-8")
    edit(root / src(TWO_HEADS), "## The input", '## The input\n\n{% include "lessons/shared/aside.md" %}')
    render_all(root)
    assert kept(root) == {*PAGES, "index.md"}
    (root / "lessons" / "shared" / "aside.md").write_text("Another aside.\n", encoding="utf-8")
    assert kept(root) == {ONE_HEAD, WIDTH_ONE, "index.md"}


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
