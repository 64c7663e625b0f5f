"""Caches change only time: after any kind of edit, a build that starts from the caches the
previous build left (warm) writes the same site, byte for byte, as a build without them (clean).

Each case copies the project with the session build's caches (``project``), makes one kind
of edit, builds warm, then deletes ``.cache`` and builds clean into another folder. A cache
whose key missed what the edit changed would publish the page of before the edit.
SOURCE_DATE_EPOCH (tests/sitebuild.py) fixes the date the sitemap carries.
"""

import shutil

import pytest

from macros.sources import folders
from tests.sitebuild import build, differing, edit, first_difference

pytestmark = pytest.mark.build

ENGINE = "macros/engine/steps.py"


def partial_included(root):
    """A lesson that includes a partial from the lessons folder (the edit below changes it)."""
    (root / "lessons" / "shared").mkdir()
    (root / "lessons" / "shared" / "aside.md").write_text("An aside in a shared file.\n", encoding="utf-8")
    edit(root / "lessons/masks/lesson.md", "## Padding", '{% include "lessons/shared/aside.md" %}\n\n## Padding')


# Pages are made in folder order, and output-projection-and-head-order's page uses the numbers
# of two-heads-separate-projections: when the latter's own page is made, its lesson is already
# computed, and what the computation read reaches that page's record only from the earlier one
# (macros/pages/book.py, Lessons.value).
COMPUTED_FIRST, FIRST_USER = "two-heads-separate-projections", "output-projection-and-head-order"


def fixture_numbers(root):
    """A number in masks' fixture, and one in the fixture of a lesson another page computes first."""
    edit(root / "lessons/masks/fixture.yaml", "[0, 1], [1, 1], [0, 2]]", "[0, 1], [1, 1], [0, 3]]")
    edit(root / "lessons" / COMPUTED_FIRST / "fixture.yaml", "- [1, 1, -1, 1]", "- [2, 1, -1, 3]")


def test_a_lesson_is_computed_first_for_another_page():
    """What the fixture case above relies on: the other page uses the lesson and comes first."""
    order = [folder.name for folder in folders.folders()]
    assert order.index(FIRST_USER) < order.index(COMPUTED_FIRST)
    user = (folders.LESSONS / FIRST_USER / folders.LESSON_FILE).read_text(encoding="utf-8")
    assert f'lessons["{COMPUTED_FIRST}"]' in user


EDITS = {
    "lesson prose": lambda root: edit(root / "lessons/masks/lesson.md", "A mask decides", "A mask, first, decides"),
    "fixture numbers, one of a lesson computed first for another page": fixture_numbers,
    "a partial included from a lesson": lambda root: (root / "lessons/shared/aside.md").write_text(
        "Another aside.\n", encoding="utf-8"
    ),
    "a shared partial": lambda root: edit(
        root / "macros/explain/steps.md.j2", "Multiplying $X$ by each projection", "Multiplying $X$ by each of them"
    ),
    # A change below the shown decimals: only the full-precision values move (answers, notebooks).
    "an engine function": lambda root: edit(
        root / ENGINE, "return weights @ V  #", "return (weights @ V) * (1 + 2**-50)  #"
    ),
    "a JavaScript asset": lambda root: edit(root / "docs/assets/js/format.js", "\n", "\n// edited\n"),
    "mkdocs.yml": lambda root: edit(
        root / "mkdocs.yml", "site_name: Attention by Hand", "site_name: Attention, by Hand"
    ),
    "a Jinja environment option": lambda root: edit(
        root / "macros/pages/environment.py",
        "        optimized=False,\n",
        "        optimized=False,\n        trim_blocks=True,\n",
    ),
    "the track": lambda root: edit(root / "lessons/track.yaml", "title: Masks and position", "title: Masks"),
}
BEFORE = {"a partial included from a lesson": partial_included}


@pytest.mark.parametrize("kind", EDITS)
def test_after_an_edit_the_warm_build_is_the_clean_build(project, tmp_path, kind):
    if kind in BEFORE:
        BEFORE[kind](project)
        assert build(project, site=tmp_path / "before").returncode == 0
    EDITS[kind](project)
    warm = build(project, site=tmp_path / "warm", fixed_date=True)
    assert warm.returncode == 0, warm.output
    shutil.rmtree(project / ".cache")
    clean = build(project, site=tmp_path / "clean", fixed_date=True)
    assert clean.returncode == 0, clean.output
    found = differing(warm.site, clean.site)
    assert found == [], first_difference(warm.site, clean.site, found)
    assert any((project / ".cache" / "pages").iterdir()) and any((project / ".cache" / "katex").iterdir())


def test_the_caches_change_no_byte_of_an_unedited_build(project, tmp_path):
    warm = build(project, site=tmp_path / "warm", fixed_date=True)
    shutil.rmtree(project / ".cache")
    clean = build(project, site=tmp_path / "clean", fixed_date=True)
    assert warm.returncode == clean.returncode == 0
    found = differing(warm.site, clean.site)
    assert found == [], first_difference(warm.site, clean.site, found)
