"""Where the lessons are: one folder of lessons/ per lesson, holding lesson.md and fixture.yaml."""

from pathlib import Path

LESSONS = Path(__file__).resolve().parent.parent.parent / "lessons"
LESSON_FILE = "lesson.md"
FIXTURE_FILE = "fixture.yaml"
PRACTICE_FILE = "practice.js"  # the sets of new numbers, published beside the lesson's page
NOTEBOOK_SCRIPT = "notebook.js"  # the notebook as a script, for saving it from a page opened from disk


def folders(root=LESSONS):
    """Every lesson folder, in name order: a folder with a lesson.md in it."""
    return sorted(path.parent for path in Path(root).glob(f"*/{LESSON_FILE}"))


def src_uri(slug):
    """Where a lesson's page source sits among the site's files (and how pages link to it)."""
    return f"lessons/{slug}/{LESSON_FILE}"
