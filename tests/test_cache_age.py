"""Cache files unused for a month are removed at the end of a build (macros/caching/age.py);
reading an entry back counts as using it."""

import os
import time

import pytest

from macros.caching import age as cache_age
from macros.pages.cache import Made, PageCache
from tests.sitebuild import build, copy_project

DAY = 86400


def aged(path, days, now):
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.write_bytes(b"x")
    os.utime(path, (now - days * DAY, now - days * DAY))
    return path


def test_files_unused_for_a_month_go_and_the_rest_stay(tmp_path):
    now = time.time()
    old = aged(tmp_path / ".cache" / "pages" / "old.json", 31, now)
    recent = aged(tmp_path / ".cache" / "jinja" / "recent.cache", 29, now)
    source = aged(tmp_path / "lessons" / "old-lesson" / "fixture.yaml", 400, now)  # not a cache
    assert cache_age.prune(tmp_path, now=now) == 1
    assert not old.exists() and recent.exists() and source.exists()


def test_no_cache_folder_is_nothing_to_do(tmp_path):
    assert cache_age.prune(tmp_path) == 0


def test_reading_an_entry_back_counts_as_using_it(tmp_path):
    now = time.time()
    cache = PageCache(tmp_path, "code", current=lambda name: "unchanged")
    cache.keep("index.md", Made("# A page", {}, {":track": "unchanged"}))
    (entry,) = cache.folder.glob("*.json")
    aged(entry, 40, now)
    assert cache.page("index.md").markdown == "# A page"
    assert cache_age.prune(tmp_path, now=now) == 0 and entry.exists()


def test_a_prune_runs_at_most_once_a_day(tmp_path):
    now = time.time()
    first = aged(tmp_path / ".cache" / "pages" / "first.json", 31, now)
    assert cache_age.prune_when_due(tmp_path, now=now) == 1 and not first.exists()
    second = aged(tmp_path / ".cache" / "pages" / "second.json", 31, now)
    assert cache_age.prune_when_due(tmp_path, now=now + DAY - 60) == 0 and second.exists()
    assert cache_age.prune_when_due(tmp_path, now=now + DAY) == 1 and not second.exists()


def test_a_stamp_from_the_future_does_not_stop_pruning(tmp_path):
    now = time.time()
    aged(tmp_path / ".cache" / cache_age.STAMP, -3, now)  # three days ahead
    old = aged(tmp_path / ".cache" / "pages" / "old.json", 31, now)
    assert cache_age.prune_when_due(tmp_path, now=now) == 1 and not old.exists()


def test_no_cache_folder_is_nothing_to_note(tmp_path):
    assert cache_age.prune_when_due(tmp_path) == 0 and not (tmp_path / ".cache").exists()


@pytest.mark.build
def test_a_build_that_succeeds_prunes_the_cache(tmp_path):
    project = copy_project(tmp_path)
    stray = aged(project / ".cache" / "pages" / "left-by-old-code.json", 60, time.time())
    result = build(project)
    assert result.returncode == 0, result.output
    assert not stray.exists()
    assert any((project / ".cache" / "pages").glob("*.json"))  # this build's own pages stay
