"""CI publishes the site its tests read: with $ABH_TESTED_SITE set, the session's build of the
real site (the ``site`` fixture) is kept in that folder, whole and once.

These tests build nothing: a small folder stands in for a built site, and the fixture is run
in a pytest session of its own (pytester) with the build replaced by one that writes it.
"""

import os
from pathlib import Path

import pytest

from tests import conftest, sitebuild


def small_site(folder):
    """A stand-in for a built site: a page and an asset in a subfolder."""
    (folder / "assets").mkdir(parents=True)
    (folder / "index.html").write_text("<p>home</p>\n", encoding="utf-8")
    (folder / "assets" / "site.css").write_text("p {}\n", encoding="utf-8")
    return folder


def files(folder):
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


class TestKeep:
    def test_a_new_folder_gets_the_whole_site_and_nothing_else_is_left(self, tmp_path):
        site = small_site(tmp_path / "built")
        assert sitebuild.keep(site, tmp_path / "out" / "tested") is True
        assert files(tmp_path / "out" / "tested") == files(site)
        assert os.listdir(tmp_path / "out") == ["tested"]  # no partial copy beside it

    def test_an_existing_folder_is_left_as_it_is(self, tmp_path):
        site = small_site(tmp_path / "built")
        (tmp_path / "tested").mkdir()
        (tmp_path / "tested" / "index.html").write_text("kept\n", encoding="utf-8")
        assert sitebuild.keep(site, tmp_path / "tested") is False
        assert files(tmp_path / "tested") == {"index.html": b"kept\n"}

    def test_a_copy_another_process_put_in_place_first_wins(self, tmp_path, monkeypatch):
        # Two xdist workers: the other one renames its copy into place while this one copies.
        site = small_site(tmp_path / "built")
        target = tmp_path / "tested"
        rename = Path.rename

        def lose_the_race_then_rename(self, dest):
            small_site(target)
            (target / "index.html").write_text("<p>the other worker's</p>\n", encoding="utf-8")
            return rename(self, dest)

        monkeypatch.setattr(Path, "rename", lose_the_race_then_rename)
        assert sitebuild.keep(site, target) is False
        assert (target / "index.html").read_text(encoding="utf-8") == "<p>the other worker's</p>\n"
        assert sorted(os.listdir(tmp_path)) == ["built", "tested"]

    def test_unset_or_empty_keeps_nothing(self, tmp_path):
        site = small_site(tmp_path / "built")
        assert sitebuild.keep_tested(site, environ={}) is False
        assert sitebuild.keep_tested(site, environ={sitebuild.TESTED_SITE: ""}) is False
        assert os.listdir(tmp_path) == ["built"]


class TestTheVariable:
    def test_an_existing_folder_is_refused_before_the_tests_run(self, tmp_path, monkeypatch):
        monkeypatch.setenv(sitebuild.TESTED_SITE, str(tmp_path))
        with pytest.raises(pytest.UsageError, match="the folder already exists; remove it"):
            conftest.pytest_configure(object())

    def test_an_xdist_worker_does_not_check_again(self, tmp_path, monkeypatch):
        # The controller checked before starting it; a sibling worker may have kept its copy since.
        worker = type("Config", (), {"workerinput": {}})()
        monkeypatch.setenv(sitebuild.TESTED_SITE, str(tmp_path))
        conftest.pytest_configure(worker)

    def test_a_new_folder_is_accepted(self, tmp_path, monkeypatch):
        monkeypatch.setenv(sitebuild.TESTED_SITE, str(tmp_path / "tested"))
        conftest.pytest_configure(object())

    def test_the_site_fixture_keeps_its_build_there(self, pytester, monkeypatch, tmp_path):
        def fake_build(root):
            return sitebuild.Build(root, small_site(root / "site"), 0, "")

        monkeypatch.setattr(sitebuild, "copy_project", lambda dest: dest)
        monkeypatch.setattr(sitebuild, "build", fake_build)
        monkeypatch.setenv(sitebuild.TESTED_SITE, str(tmp_path / "tested"))
        pytester.makeconftest("from tests.conftest import site  # noqa: F401  the fixture under test\n")
        pytester.makepyfile("def test_reads_the_site(site):\n    assert (site.site / 'index.html').exists()\n")
        pytester.runpytest_inprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
        assert files(tmp_path / "tested") == files(small_site(tmp_path / "expected"))
