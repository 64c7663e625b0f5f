"""``make lesson`` (``python -m macros lesson``): a new lesson that builds strictly with no edit.

The end-to-end test generates a lesson in a copy of the project, builds it as ``make build``
does, and finds on the page the numbers numpy computes from the starter's own numbers
(``macros/tools/scaffold/fixture.yaml``, read here independently of the engine). The refusals are
checked as whole messages, with the lessons folder compared byte for byte before and after.
"""

import json
import re
import shutil
import subprocess
import sys
from html import unescape
from pathlib import Path

import numpy as np
import pytest
import yaml

from macros.__main__ import main
from macros.sources import prose, track
from macros.tools import lint, scaffold
from tests import computed, sitebuild

STARTER = Path("macros/tools/scaffold")
# The book's chapters as the track lists them: a new lesson goes last in the last one.
CHAPTERS = yaml.safe_load(Path("lessons/track.yaml").read_text(encoding="utf-8"))["chapters"]
LAST = CHAPTERS[-1]["title"]
BOOK_LESSONS = sum(len(chapter["lessons"]) for chapter in CHAPTERS)  # lessons are numbered through the book


def starter_numbers():
    """The starter's single head computed by numpy alone: Q, K, scaled scores, weights, readings."""
    data = yaml.safe_load((STARTER / "fixture.yaml").read_text(encoding="utf-8"))
    X = np.array(data["X"], float)
    head = data["heads"][0]
    Q, K, V = (X @ np.array(head[name], float) for name in ("W_Q", "W_K", "W_V"))
    scaled = Q @ K.T / np.sqrt(Q.shape[1])
    exps = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    weights = exps / exps.sum(axis=1, keepdims=True)
    return {"tokens": data["tokens"], "Q": Q, "K": K, "scaled": scaled, "weights": weights, "output": weights @ V}


def shown(x):
    return f"{x:.3f}"  # the starter's front matter sets three decimals


def snapshot(folder):
    """Every file under ``folder`` (hidden ones too) with its bytes."""
    return {path.relative_to(folder): path.read_bytes() for path in sorted(Path(folder).rglob("*")) if path.is_file()}


@pytest.fixture
def book(tmp_path):
    """A lessons folder like the project's: its track (comments and all) and one lesson per slug."""
    root = tmp_path / "lessons"
    shutil.copytree("lessons", root)
    return root


# ---------------------------------------------------------------- the starter meets the rules


def test_the_starter_is_mostly_prose():
    logic, total = lint.logic_lines((STARTER / "lesson.md").read_text(encoding="utf-8"))
    assert logic / total <= lint.LIMIT, f"{logic} of {total} lines are template logic"


def test_the_starter_types_no_number():
    assert prose.typed_decimals((STARTER / "lesson.md").read_text(encoding="utf-8")) == []


def test_a_created_lesson_renders_with_its_title_and_is_listed_last(book):
    folder, chapter = scaffold.create("my-topic", "Keys: “what” & why", root=book)
    assert folder == book / "my-topic" and chapter == LAST
    lesson = (folder / "lesson.md").read_text(encoding="utf-8")
    assert "title: 'Keys: “what” & why'" in lesson.splitlines()
    assert "# Keys: “what” & why" in lesson.splitlines()
    _, entries = track.load(book)
    assert entries[-1].slug == "my-topic" and entries[-1].title == "Keys: “what” & why"
    markdown = computed.book_over(book.parent).render("lessons/my-topic/lesson.md", folder / "lesson.md").markdown
    assert "# Keys: “what” & why" in markdown


TRACK = """\
# The order of the book.
chapters:
  - title: One head   # the first chapter
    lessons:
      - first
      - second        # last of its chapter
  - title: Later
    lessons:
      - third
"""


def test_the_track_gains_one_line_and_keeps_its_comments(tmp_path):
    """Made on a track of its own, so that moving a lesson of the book changes nothing here."""
    path = tmp_path / "track.yaml"
    text, title = scaffold.track_with(TRACK, path, "masks-by-hand", chapter="One head")
    expected = TRACK.replace(
        "      - second        # last of its chapter\n",
        "      - second        # last of its chapter\n      - masks-by-hand\n",
    )
    assert (text, title) == (expected, "One head")


def test_a_list_written_on_one_line_gets_the_name_inside_it(tmp_path):
    (tmp_path / "track.yaml").write_text(
        "# the order\nchapters:\n  - {title: First, lessons: [a, b]}  # two\n", encoding="utf-8"
    )
    text, _ = scaffold.track_with((tmp_path / "track.yaml").read_text(), tmp_path / "track.yaml", "c")
    assert text == "# the order\nchapters:\n  - {title: First, lessons: [a, b, c]}  # two\n"


def test_the_title_defaults_to_the_name(book):
    scaffold.create("queries-and-keys", root=book)
    assert "title: Queries and keys" in (book / "queries-and-keys" / "lesson.md").read_text(encoding="utf-8")


def test_the_command_says_what_it_made(book, capsys):
    assert main(["lesson", "my-topic", "--title", "My topic", "--lessons", str(book)]) == 0
    out, err = capsys.readouterr()
    assert out == (
        f"created {book / 'my-topic'}/ (fixture.yaml, lesson.md), listed last in the chapter {LAST!r}\n"
        "next: make serve, open the lesson, and follow docs/authoring.md\n"
    )
    assert err == ""


# ---------------------------------------------------------------- refusals: one line, nothing written


def refused(capsys, book, slug, *options):
    """The one line the command prints for a refused lesson; asserts that nothing was written.
    The name comes after ``--``, as ``make lesson`` passes it, so '-my-topic' is a name too."""
    before = snapshot(book)
    code = main(["lesson", *options, "--lessons", str(book), "--", slug])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert snapshot(book) == before
    assert err.endswith("\n") and err.count("\n") == 1
    return err.removeprefix("error: ").rstrip("\n")


HYPHENS = "expected lowercase words joined by hyphens, such as 'my-topic'"


@pytest.mark.parametrize("slug", ["My-Topic", "my_topic", "my topic", "-my-topic", "my--topic", "my-topic-", "2-heads"])
def test_a_name_that_is_not_lowercase_words_joined_by_hyphens(capsys, book, slug):
    assert refused(capsys, book, slug, "--title", "T") == f"lesson name {slug!r}: {HYPHENS}"


def test_no_name_at_all(capsys, book):
    message = refused(capsys, book, "", "--title", "T")
    assert message == "lesson name: expected lowercase words joined by hyphens, such as SLUG=my-topic, got nothing"


def test_a_name_whose_folder_exists(capsys, book):
    message = refused(capsys, book, "attention-by-hand", "--title", "Again")
    assert message == f"{book / 'attention-by-hand'} already exists: choose another name, or edit that lesson"


def test_a_name_the_track_already_lists(capsys, book):
    shutil.rmtree(book / "tracing-two-heads")
    message = refused(capsys, book, "tracing-two-heads", "--title", "Again")
    assert message == f"{book / 'track.yaml'} already lists 'tracing-two-heads': choose another name"


def test_a_chapter_that_does_not_exist(capsys, book):
    message = refused(capsys, book, "my-topic", "--title", "T", "--chapter", "Masks")
    assert message == (
        f"{book / 'track.yaml'}: no chapter titled 'Masks'; the chapters are "
        + ", ".join(repr(chapter["title"]) for chapter in CHAPTERS)
    )


def test_an_empty_title(capsys, book):
    message = refused(capsys, book, "my-topic", "--title", " ")
    assert message == 'title: expected the lesson\'s title, such as TITLE="My topic", got nothing'


def test_a_title_with_template_marks(capsys, book):
    message = refused(capsys, book, "my-topic", "--title", "Scores {{ x }}")
    assert message == "title 'Scores {{ x }}': expected one line of plain words, with no {{, {% or {#"


# ---------------------------------------------------------------- end to end, as an author runs it


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """A copy of the project with a lesson made by the command and built strictly."""
    root = sitebuild.copy_project(tmp_path_factory.mktemp("scaffold"))
    before = (root / "lessons" / "track.yaml").read_text(encoding="utf-8")
    made = subprocess.run(
        [sys.executable, "-m", "macros", "lesson", "my-topic", "--title", "My topic"],
        cwd=root,
        env=sitebuild.environment(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    result = sitebuild.build(root)
    return root, before, made, result


@pytest.mark.build
class TestGeneratedLesson:
    def test_it_builds_strictly_with_no_edit(self, generated):
        _, _, _, result = generated
        assert result.returncode == 0, result.output
        assert "WARNING" not in result.output and "ERROR" not in result.output

    def test_the_command_wrote_two_files_and_one_track_line(self, generated):
        root, before, made, _ = generated
        assert made.stdout.startswith("created lessons/my-topic/ (fixture.yaml, lesson.md)")
        assert sorted(p.name for p in (root / "lessons" / "my-topic").iterdir()) == ["fixture.yaml", "lesson.md"]
        after = (root / "lessons" / "track.yaml").read_text(encoding="utf-8")
        assert after == before + "      - my-topic\n"

    def test_the_page_shows_the_starter_numbers(self, generated):
        _, _, _, result = generated
        page = result.page("lessons/my-topic/index.html")
        n = starter_numbers()
        for name in ("Q", "K"):  # whole numbers, written as such in the matrices
            for row in n[name]:
                assert " & ".join(str(int(x)) for x in row) in page
        worked = [n["scaled"][0], n["weights"][0], n["output"][0]]
        for values in worked:
            assert "[" + ", ".join(shown(x) for x in values) + "]" in page
        assert f"“{n['tokens'][0]}” gives its largest weight, {shown(n['weights'][0].max())} ," in page

    def test_the_graded_answer_is_not_shown_before_its_question(self, generated):
        _, _, _, result = generated
        page = result.page("lessons/my-topic/index.html")
        n = starter_numbers()
        answer = n["weights"][2][0]
        question = page.index("Now take")
        for places in (2, 3, 4):
            assert f"{answer:.{places}f}" not in page[:question]
        html = (result.site / "lessons/my-topic/index.html").read_text(encoding="utf-8")
        found = re.search(r'data-gate="weight"[^>]*>\s*<ol class="abh-checks">\s*<li [^>]*data-answer="([^"]+)"', html)
        assert found and float(found.group(1)) == pytest.approx(answer, abs=1e-12)
        assert f"The weight on “{n['tokens'][0]}” is entry 1 of that row, {shown(answer)} ." in page[question:]

    def test_the_page_speaks_to_readers(self, generated):
        _, _, _, result = generated
        page = result.page("lessons/my-topic/index.html")
        article = page[page.index(f"Chapter {len(CHAPTERS)}, lesson {BOOK_LESSONS + 1}") :]
        for word in ("fixture", "engine", "YAML", "tests", "issue"):
            assert word not in article

    def test_the_starter_offers_new_numbers_on_its_checked_weight(self, generated):
        """The starter's practice block grades the same weight as its check (mice's weight of cats),
        on the page's set of new numbers: numpy alone, on the X the page shows, gives its answer."""
        _, _, _, result = generated
        html = (result.site / "lessons/my-topic/index.html").read_text(encoding="utf-8")
        element = re.search(r'<div class="abh-practice" ([^>]*)>', html).group(1)
        assert 'data-variant="1"' in element
        shown_X = np.array(json.loads(unescape(re.search(r'data-fixture="([^"]*)"', element).group(1)))["X"], float)
        found = re.search(r'<li class="abh-practice-check" data-path="([^"]+)" data-answer="([^"]+)"', html)
        assert found and found.group(1) == "heads.0.weights.2.0"
        starter = yaml.safe_load((STARTER / "fixture.yaml").read_text(encoding="utf-8"))
        assert shown_X.tolist() != starter["X"]  # new numbers, not the lesson's own
        Q, K = (shown_X @ np.array(starter["heads"][0][name], float) for name in ("W_Q", "W_K"))
        scaled = Q @ K.T / np.sqrt(Q.shape[1])
        weights = np.exp(scaled - scaled.max(axis=1, keepdims=True))
        weights /= weights.sum(axis=1, keepdims=True)
        assert float(found.group(2)) == pytest.approx(weights[2][0], abs=1e-12)
