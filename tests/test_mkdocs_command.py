"""`.venv/bin/mkdocs build`, the command MkDocs' documentation types, builds the site as
`python -m mkdocs build` (what the Makefile and the tests run) does.

The console script starts the environment's Python with its own folder, not the project's, on
the import path, and mkdocs.yml's hooks import ``macros``. The Makefile's environment step puts
the project folder on the environment's import path with a .pth file in site-packages (Python's
site module reads it at start), so ``macros`` is found from any folder.
"""

import os
import subprocess
import sys
from pathlib import Path

from tests import sitebuild
from tests.sitebuild import PROJECT

CONSOLE_SCRIPT = Path(sys.executable).parent / "mkdocs"  # what pip installed beside the environment's Python


def python(*args, cwd):
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def test_the_environment_imports_the_project_from_any_folder(tmp_path):
    found = python("-c", "import macros; print(macros.__file__)", cwd=tmp_path)
    assert found.returncode == 0, f"{found.stderr}\n(run `make` to write the environment's .pth file)"
    assert Path(found.stdout.strip()) == PROJECT / "macros" / "__init__.py"


def test_without_the_path_files_nothing_finds_it_from_another_folder(tmp_path):
    """The negative control: with site-packages' .pth files unread (-S), the same import fails,
    so it is the .pth file, not the folder a test runs in, that finds the project."""
    bare = python("-S", "-c", "import macros", cwd=tmp_path)
    assert bare.returncode != 0
    assert "No module named 'macros'" in bare.stderr


def test_the_console_script_builds_the_site(project, tmp_path):
    """In a copy of the project with the session build's caches (``project``): its hooks import
    ``macros`` from the environment's path, the project's own folder, whose files the copy's are."""
    env = sitebuild.environment()
    command = [str(CONSOLE_SCRIPT), "build", "--site-dir", str(tmp_path / "site")]
    built = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    assert (tmp_path / "site" / sitebuild.lesson_page("masks")).is_file()
