"""The bench's lessons: copies of a real lesson with numbers of their own.

Lessons are made from lessons/two-heads-separate-projections. The first copy keeps the
source fixture; the others get new numbers in X (``draw_fixture``), so every copy computes
its own values. Each copy's template names its number in its title and in an opening Jinja
comment, so no two lessons have the same text, as in the real book.
"""

import re
import shutil
import tempfile
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parent.parent
SOURCE_SLUG = "two-heads-separate-projections"
SOURCE_LESSON = ROOT / "lessons" / SOURCE_SLUG
CHAPTER_SIZE = 10  # lessons per chapter of the generated track
NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # a word that may be a lesson's folder name


def base_fixture():
    return yaml.safe_load((SOURCE_LESSON / "fixture.yaml").read_text(encoding="utf-8"))


def draw_fixture(rng, base):
    """The source fixture with new numbers in X: small integers keep it hand-sized.

    Each distinct number of the source's X is replaced by another drawn one, all different,
    so every equality the source lesson's story rests on survives (its rows 1 and 2 carry
    the same pair twice) while the numbers, and so every computed value, change.
    """
    data = dict(base)
    source = np.asarray(base["X"])
    values = np.unique(source)
    drawn = rng.choice(np.arange(-4, 5), size=len(values), replace=False)
    data["X"] = drawn[np.searchsorted(values, source)].tolist()
    return data


def fixture_text(fixture):
    return yaml.safe_dump(fixture, default_flow_style=None)


def heads_disagree(folder):
    """The lesson claims its two heads weigh the last position differently; keep draws where they do."""
    from macros import lessons

    first, second = lessons.load(folder).trace.heads[:2]
    return not np.array_equal(first.weights[-1], second.weights[-1])


def synthetic_template(template, number):
    """The source lesson's text as lesson ``number`` of a track that has only copies of it.

    Its prerequisites name real lessons that come later in the generated track, so
    ``requires`` is emptied. The number goes into the title and into a Jinja comment that
    opens the body, so every template's text is unique, as real lessons' are: nothing can
    be shared between pages because their text happens to be the same.
    """
    if not template.startswith("---\n"):
        raise SystemExit(f"{SOURCE_LESSON / 'lesson.md'}: expected front matter between '---' lines")
    end = template.index("\n---\n", 3)
    front, body = template[4:end], template[end + len("\n---\n") :]
    front, found = re.subn(r"(?m)^requires:.*$", "requires: []", front)
    if not found:
        front += "\nrequires: []"
    front = re.sub(r"(?m)^title: *(.*)$", lambda m: f"title: {m.group(1)} ({number:03d})", front, count=1)
    return f"---\n{front}\n---\n{{# synthetic lesson {number:03d} #}}\n{body}"


def write_lessons(lessons_dir, count, seed):
    """Lessons up to ``count`` beside the real ones, and the track listing them all."""
    template = (SOURCE_LESSON / "lesson.md").read_text(encoding="utf-8")
    base = base_fixture()
    real = yaml.safe_load((lessons_dir / "track.yaml").read_text(encoding="utf-8"))["chapters"]
    rng = np.random.default_rng(seed)
    slugs = []
    for number in range(1, count - sum(len(chapter["lessons"]) for chapter in real) + 1):
        folder = lessons_dir / f"{SOURCE_SLUG}-{number:03d}"
        folder.mkdir()
        (folder / "lesson.md").write_text(synthetic_template(template, number), encoding="utf-8")
        if number == 1:
            shutil.copy2(SOURCE_LESSON / "fixture.yaml", folder / "fixture.yaml")
        else:
            while True:
                (folder / "fixture.yaml").write_text(fixture_text(draw_fixture(rng, base)), encoding="utf-8")
                if heads_disagree(folder):
                    break
        slugs.append(folder.name)
    write_track(lessons_dir, real, slugs)
    return [slug for chapter in real for slug in chapter["lessons"]] + slugs


def write_track(lessons_dir, real, slugs):
    """lessons/track.yaml: the real chapters, then the synthetic lessons in chapters of CHAPTER_SIZE."""
    chapters = real + [
        {"title": f"Synthetic {i // CHAPTER_SIZE + 1}", "lessons": slugs[i : i + CHAPTER_SIZE]}
        for i in range(0, len(slugs), CHAPTER_SIZE)
    ]
    text = yaml.safe_dump({"chapters": chapters}, sort_keys=False)
    (lessons_dir / "track.yaml").write_text(text, encoding="utf-8")


def track_slugs(lessons_dir):
    """Every lesson lessons/track.yaml lists, in its order."""
    chapters = yaml.safe_load((Path(lessons_dir) / "track.yaml").read_text(encoding="utf-8"))["chapters"]
    return [slug for chapter in chapters for slug in chapter["lessons"]]


def linked(lessons_dir, start=SOURCE_SLUG):
    """The lessons ``start`` reaches, itself among them: each lesson whose folder name its files
    name (a link, a prerequisite, a lesson it computes from), then theirs, and so on.

    A book of these alone builds strictly: every link they make resolves. A name written in
    prose adds its lesson too, which costs the build time, never its success.
    """
    lessons_dir = Path(lessons_dir)
    known = set(track_slugs(lessons_dir))
    reached, todo = {start}, [start]
    while todo:
        files = sorted(path for path in (lessons_dir / todo.pop()).rglob("*") if path.is_file())
        text = " ".join(path.read_text(encoding="utf-8", errors="replace") for path in files)
        found = (set(NAME.findall(text)) & known) - reached
        reached |= found
        todo += sorted(found)
    return reached


def keep_only(lessons_dir, keep):
    """Remove every lesson not in ``keep`` from lessons/ and from its track (an emptied chapter goes)."""
    track = Path(lessons_dir) / "track.yaml"
    chapters = yaml.safe_load(track.read_text(encoding="utf-8"))["chapters"]
    for slug in {slug for chapter in chapters for slug in chapter["lessons"]} - set(keep):
        shutil.rmtree(Path(lessons_dir) / slug)
    kept = [{**chapter, "lessons": [s for s in chapter["lessons"] if s in keep]} for chapter in chapters]
    text = yaml.safe_dump({"chapters": [chapter for chapter in kept if chapter["lessons"]]}, sort_keys=False)
    track.write_text(text, encoding="utf-8")


def synthetic_folders(lessons_dir):
    """The synthetic lessons' folders, in order."""
    pattern = re.compile(rf"{re.escape(SOURCE_SLUG)}-\d{{3}}")
    return sorted(p for p in Path(lessons_dir).iterdir() if pattern.fullmatch(p.name))


class Trial:
    """A scratch copy of a project's lessons/, where a lesson's page is rendered in this
    process (``macros.pages.book``, no cache) with a candidate fixture: the fixture an edit
    will write is known to render (its claims hold) before the project sees it."""

    def __init__(self, lessons_dir):
        self.folder = Path(tempfile.mkdtemp(prefix="bench-trial-"))
        shutil.copytree(lessons_dir, self.folder / "lessons")

    def markdown(self, slug, fixture_bytes):
        """The page's Markdown with this fixture, or None when it does not render."""
        from macros.pages.book import Book, PageError
        from macros.sources import folders

        (self.folder / "lessons" / slug / "fixture.yaml").write_bytes(fixture_bytes)
        book = Book(self.folder, cache=False)
        try:
            return book.render(folders.src_uri(slug), book.folders[slug] / folders.LESSON_FILE).markdown
        except PageError:
            return None

    def close(self):
        shutil.rmtree(self.folder, ignore_errors=True)
