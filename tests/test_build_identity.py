"""Caches change only time: a site built with the caches a previous build left is the same,
byte for byte, as one built without them, and two clean builds are the same too.

The caches are ``.cache/jinja`` (compiled pages), ``.cache/pages`` (finished pages and
notebooks), ``.cache/theme`` (compiled theme templates) and ``.cache/katex`` (typeset
formulas). SOURCE_DATE_EPOCH fixes the build
date the sitemap carries, so a build that crosses midnight compares equal as well.
"""

import os
import shutil
import subprocess
import sys

import pytest

from tests.sitebuild import copy_project, environment
from tests.test_incremental import differing

pytestmark = pytest.mark.build


def build_into(root, site):
    env = {**environment(strict=True), "SOURCE_DATE_EPOCH": "1700000000"}
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "--site-dir", str(site)]
    result = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return site


def test_caches_change_no_byte_and_clean_builds_are_identical(tmp_path):
    (tmp_path / "project").mkdir()
    root = copy_project(tmp_path / "project")
    cold = build_into(root, tmp_path / "cold")
    for cache in ("jinja", "pages", "theme", "katex"):
        assert any((root / ".cache" / cache).iterdir()), f".cache/{cache} was not filled"
    warm = build_into(root, tmp_path / "warm")
    assert differing(cold, warm) == []
    shutil.rmtree(root / ".cache")
    clean = build_into(root, tmp_path / "clean")
    assert differing(cold, clean) == []


def test_a_stale_katex_cache_entry_is_not_used_for_another_katex(tmp_path):
    """The formula cache is keyed by KaTeX's own bytes: another KaTeX starts an empty cache."""
    (tmp_path / "project").mkdir()
    root = copy_project(tmp_path / "project")
    build_into(root, tmp_path / "first")
    (first,) = (root / ".cache" / "katex").iterdir()
    katex = root / "docs/assets/vendor/katex/katex.min.js"
    katex.write_bytes(katex.read_bytes() + b"\n// another build of KaTeX\n")
    build_into(root, tmp_path / "second")
    assert len(list((root / ".cache" / "katex").iterdir())) == 2, os.listdir(root / ".cache" / "katex")
    assert first.exists()
