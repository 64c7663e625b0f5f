"""``python -m macros golden --changes-since REF``: every recorded value that changed, as Markdown.

The records here are made by hand, small enough to write the expected report out in full;
one test reads them from a temporary git repository, as CI reads tests/golden/ at the
base commit.
"""

import json
import subprocess

import pytest

from macros.__main__ import main
from macros.errors import LessonError
from macros.tools import golden_changes

# One head over two keys; the edit moves the first weights row and with it the output, a
# masked weight (null) becomes visible, the scale is unchanged, `extras` goes and `concat` comes.
BEFORE = {
    "lesson": "tiny",
    "decimals": 2,
    "heads": [{"scale": "0.71", "weights": [["0.25", "0.75"], [None, "1.00"]]}],
    "output": [["1.50", "−0.25"]],
    "extras": {"note": "a|b"},
}
AFTER = {
    "lesson": "tiny",
    "decimals": 2,
    "heads": [{"scale": "0.71", "weights": [["0.26", "0.74"], ["0.10", "0.90"]]}],
    "output": [["1.48", "−0.25"]],
    "concat": [["2"]],
}


class TestLeaves:
    def test_every_number_is_a_leaf_named_by_its_dotted_path(self):
        assert list(golden_changes.leaves({"heads": [{"w": [["1", None]]}], "decimals": 3})) == [
            ("heads.0.w.0.0", "1"),
            ("heads.0.w.0.1", None),
            ("decimals", 3),
        ]

    def test_an_empty_list_is_a_value_of_its_own(self):
        assert list(golden_changes.leaves({"steps": []})) == [("steps", [])]


class TestValueChanges:
    def test_changed_then_new_in_the_new_records_order_then_removed(self):
        new, gone = golden_changes.NEW, golden_changes.GONE
        assert golden_changes.value_changes(BEFORE, AFTER) == [
            ("heads.0.weights.0.0", "0.25", "0.26"),
            ("heads.0.weights.0.1", "0.75", "0.74"),
            ("heads.0.weights.1.0", None, "0.10"),
            ("heads.0.weights.1.1", "1.00", "0.90"),
            ("output.0.0", "1.50", "1.48"),
            ("concat.0.0", new, "2"),
            ("extras.note", "a|b", gone),
        ]

    def test_a_record_equal_to_itself_has_none(self):
        assert golden_changes.value_changes(BEFORE, BEFORE) == []

    def test_a_number_that_turns_into_text_of_the_same_digits_is_a_change(self):
        # 3 (a whole number in JSON) and "3" (a published text) print differently.
        assert golden_changes.value_changes({"n": 3}, {"n": "3"}) == [("n", 3, "3")]


class TestReport:
    def test_every_changed_value_with_before_and_after(self):
        report = golden_changes.report({"tiny": BEFORE}, {"tiny": AFTER}, "main")
        assert report == (
            "## Published values\n"
            "\n"
            "7 values changed since `main`.\n"
            "\n"
            "### tiny\n"
            "\n"
            "| value | before | after |\n"
            "| --- | --- | --- |\n"
            "| `heads.0.weights.0.0` | `0.25` | `0.26` |\n"
            "| `heads.0.weights.0.1` | `0.75` | `0.74` |\n"
            "| `heads.0.weights.1.0` | `null` | `0.10` |\n"
            "| `heads.0.weights.1.1` | `1.00` | `0.90` |\n"
            "| `output.0.0` | `1.50` | `1.48` |\n"
            "| `concat.0.0` | (new) | `2` |\n"
            "| `extras.note` | `a\\|b` | (removed) |\n"
        )

    def test_lessons_added_and_removed_and_unchanged(self):
        report = golden_changes.report({"same": BEFORE, "old": BEFORE}, {"same": BEFORE, "fresh": AFTER}, "abc1234")
        assert report == (
            "## Published values\n"
            "\n"
            "0 values changed since `abc1234`, 1 lesson added, 1 lesson removed.\n"
            "\n"
            "### fresh\n"
            "\n"
            "A new lesson: 10 recorded values.\n"
            "\n"
            "### old\n"
            "\n"
            "Removed, with all its recorded values.\n"
        )

    def test_past_the_limit_the_rest_are_counted(self):
        report = golden_changes.report({"tiny": BEFORE}, {"tiny": AFTER}, "main", limit=2)
        assert report.splitlines()[-3:] == [
            "| `heads.0.weights.0.1` | `0.75` | `0.74` |",
            "",
            "… and 5 more (the record's `git diff` shows every one).",
        ]
        assert report.splitlines()[2] == "7 values changed since `main`."

    def test_nothing_changed(self):
        assert golden_changes.report({"tiny": BEFORE}, {"tiny": BEFORE}, "HEAD~1") == (
            "## Published values\n\nNo published value changed since `HEAD~1`.\n"
        )

    def test_a_value_with_a_backtick_keeps_its_code_span(self):
        assert golden_changes.shown("a`b") == "``a`b``"


def git(folder, *args):
    who = ["-c", "user.name=Records", "-c", "user.email=records@example.org", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", *who, *args], cwd=folder, check=True, capture_output=True)


def write(folder, records):
    for slug, record in records.items():
        (folder / f"{slug}.json").write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")


class TestFromGit:
    @pytest.fixture
    def repo(self, tmp_path):
        """A repository whose second commit holds the records BEFORE; the working tree has AFTER."""
        records = tmp_path / "tests" / "golden"
        records.mkdir(parents=True)
        git(tmp_path, "init", "-q")
        (tmp_path / "README").write_text("records come next\n")
        git(tmp_path, "add", "README")
        git(tmp_path, "commit", "-q", "-m", "no records yet")
        write(records, {"tiny": BEFORE})
        git(tmp_path, "add", ".")
        git(tmp_path, "commit", "-q", "-m", "records")
        write(records, {"tiny": AFTER})
        return records

    def test_the_committed_records_against_the_working_trees(self, repo, capsys):
        assert main(["golden", "--changes-since", "HEAD", "--records", str(repo)]) == 0
        out = capsys.readouterr().out
        assert out == golden_changes.report({"tiny": BEFORE}, {"tiny": AFTER}, "HEAD")
        assert "| `output.0.0` | `1.50` | `1.48` |\n" in out

    def test_a_commit_before_the_records_existed_has_none(self, repo):
        assert golden_changes.records_at("HEAD~1", repo) == {}
        assert "1 lesson added" in golden_changes.changes_since("HEAD~1", repo)

    def test_an_unknown_ref_is_one_line(self, repo, capsys):
        assert main(["golden", "--changes-since", "no-such-branch", "--records", str(repo)]) == 1
        assert capsys.readouterr().err == (
            "error: --changes-since no-such-branch: not a commit in this repository (is its history fetched?)\n"
        )

    def test_records_at_reads_what_was_committed(self, repo):
        assert golden_changes.records_at("HEAD", repo) == {"tiny": BEFORE}
        with pytest.raises(LessonError):
            golden_changes.records_at("HEAD~5", repo)
