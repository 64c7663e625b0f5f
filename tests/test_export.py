"""``python -m macros render DIR``: the book as plain Markdown that builds without this project.

The written folder is built with plain mkdocs-material (its own minimal mkdocs.yml: no
macros plugin, no project hooks), and the lessons' numbers must be on the pages.
"""

import subprocess
import sys

import pytest
import yaml

from macros import lessons as lesson_folders
from macros.notebooks.build import notebook_bytes
from macros.pages import scripts as page_scripts
from tests.sitebuild import PROJECT, copy_project, environment, page_text

pytestmark = pytest.mark.build  # renders every lesson and builds the result

SLUGS = [folder.name for folder in lesson_folders.folders()]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    # From a copy, so the render's caches never land in the checkout.
    project = copy_project(tmp_path_factory.mktemp("project"))
    out = tmp_path_factory.mktemp("export")
    command = [sys.executable, "-m", "macros", "render", str(out), "--project", str(project)]
    result = subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def built(exported):
    env = environment()
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(exported / "site")]
    # cwd is the written folder: neither the project's hooks nor its package are in reach.
    result = subprocess.run(command, cwd=exported, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return exported / "site"


def test_the_configuration_has_no_macros_plugin_and_no_hooks(exported):
    config = yaml.safe_load((exported / "mkdocs.yml").read_text(encoding="utf-8"))
    assert "hooks" not in config and "plugins" not in config
    assert config["theme"]["name"] == "material"


def test_no_template_syntax_is_left(exported):
    pages = sorted((exported / "docs").rglob("*.md"))
    lessons = [page for page in pages if page.parts[-3] == "lessons"]
    assert len(lessons) == len(SLUGS) and (exported / "docs" / "index.md") in pages
    for page in lessons + [exported / "docs" / "index.md", exported / "docs" / "glossary.md"]:
        text = page.read_text(encoding="utf-8")
        assert "{{" not in text and "{%" not in text and "{#" not in text, page


@pytest.mark.parametrize(
    "lesson, numbers",
    [
        # seed 000: scaled scores, weights, readings (as in test_site)
        ("two-heads-separate-projections", ["0.707", "1.414", "0.248", "0.503", "0.752", "-0.546"]),
        # seed 001: the single head of width two
        ("attention-by-hand", ["1.1740", "0.7643"]),
        # seed 003: the scaled score matrix
        ("tracing-two-heads", ["0.71", "1.41"]),
    ],
)
def test_plain_material_shows_the_lessons_numbers(built, lesson, numbers):
    text = page_text((built / "lessons" / lesson / "lesson.html").read_text(encoding="utf-8"))
    for number in numbers:
        assert number in text.replace("\u2212", "-"), (lesson, number)


def test_the_home_page_keeps_its_track_map(built):
    text = page_text((built / "index.html").read_text(encoding="utf-8"))
    for title in ("Attention by hand", "Tracing two heads by hand", "Compare heads before averaging them"):
        assert title in text


def test_each_lesson_carries_its_notebook_and_links_it(exported, built):
    # The strict build of the written folder checks each page's link to its notebook.
    for slug in SLUGS:
        written = exported / "docs" / "lessons" / slug / f"{slug}.ipynb"
        assert written.read_bytes() == notebook_bytes(lesson_folders.load(lesson_folders.LESSONS / slug)), slug
        assert (built / "lessons" / slug / f"{slug}.ipynb").is_file(), slug
        page = (built / "lessons" / slug / "lesson.html").read_text(encoding="utf-8")
        assert f'href="{slug}.ipynb">open the notebook</a>' in page, slug


def test_the_pages_load_the_script_the_hooks_would_have_bundled(built):
    """The project's hooks make the page script at build time; the export writes it as an asset."""
    assert (built / page_scripts.BUNDLE).read_bytes() == page_scripts.bundle(PROJECT)
    assert (built / page_scripts.SHIM).is_file()
    page = (built / "lessons" / "masks" / "lesson.html").read_text(encoding="utf-8")
    assert '<script src="../../assets/js/book.js" defer></script>' in page
    assert not (built / "assets" / "js" / "page.js").exists()  # the modules are the bundle's sources
