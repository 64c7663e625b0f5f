"""The scripts made at build time (macros/pages/scripts.py): the page's modules bundled into one
classic script, and the worker shim search needs on file://.

Pages load the bundle, never the modules: a module left out of it would be code no page runs,
and an ``import`` left in it would stop the whole script from a folder on disk, where browsers
refuse modules. The browser tests (tests/test_browser.py) drive the bundle on built pages,
served and from disk.
"""

import json
import shutil
import subprocess

import pytest

from macros.pages import scripts as page_scripts
from tests.nodejs import node
from tests.sitebuild import PROJECT, TOOLS

MODULES = PROJECT / "docs" / "assets" / "js"

# A classic script: node's vm.Script compiles one, and an import or export statement is a
# syntax error in it (it would be a module).
COMPILE = "new (require('vm').Script)(require('fs').readFileSync(0, 'utf8'), {filename: 'book.js'})"


@pytest.fixture(scope="module")
def book():
    return page_scripts.bundle(PROJECT)


def test_the_bundle_is_one_strict_classic_script(book):
    compiled = subprocess.run([node(), "-e", COMPILE], input=book, capture_output=True, timeout=60)
    assert compiled.returncode == 0, compiled.stderr.decode()
    assert book.startswith(b'"use strict";'), book[:40]  # modules are strict; the bundle stays so
    assert b"import(" not in book and b"import.meta" not in book


def inputs_of(entry, tmp_path):
    """The modules esbuild bundles from ``entry``, by its metafile."""
    meta = tmp_path / "meta.json"
    command = [str(PROJECT / page_scripts.ESBUILD), entry, *page_scripts.OPTIONS]
    command += [f"--metafile={meta}", f"--outfile={tmp_path / 'out.js'}"]
    subprocess.run(command, cwd=PROJECT, check=True, capture_output=True, timeout=60)
    return set(json.loads(meta.read_text(encoding="utf-8"))["inputs"])


def test_every_module_is_in_the_bundle(tmp_path):
    """page.js reaches every module of docs/assets/js but the worksheets' entry, sheets.js,
    whose bundle the worksheet pages load: none is left for no page to load."""
    bundled = inputs_of(page_scripts.ENTRY, tmp_path)
    sheets = inputs_of(page_scripts.SHEETS_ENTRY, tmp_path)
    assert bundled | sheets == {f"docs/assets/js/{path.name}" for path in MODULES.glob("*.js")}
    assert page_scripts.SHEETS_ENTRY not in bundled


def test_the_worksheets_bundle_is_one_strict_classic_script():
    sheets = page_scripts.bundle(PROJECT, page_scripts.SHEETS_ENTRY)
    compiled = subprocess.run([node(), "-e", COMPILE], input=sheets, capture_output=True, timeout=60)
    assert compiled.returncode == 0, compiled.stderr.decode()
    assert sheets.startswith(b'"use strict";') and b"import(" not in sheets


def test_the_bundle_is_smaller_than_the_modules(book):
    """Minified, so the pages carry none of the modules' docstrings."""
    assert len(book) < sum(len(path.read_bytes()) for path in MODULES.glob("*.js")) / 2


def test_the_worker_shim_stands_in_for_workers_on_file_urls_only():
    """Made from the package's documented module name (``iframe-worker/shim``), one classic
    script; what it does is upstream's, so a change there fails here (and the file:// tour in
    tests/test_offline.py searches with it)."""
    shim = page_scripts.worker_shim(PROJECT)
    compiled = subprocess.run([node(), "-e", COMPILE], input=shim, capture_output=True, timeout=60)
    assert compiled.returncode == 0, compiled.stderr.decode()
    assert 'location.protocol==="file:"&&(window.Worker=' in shim.decode()


def test_a_worker_shim_package_without_its_documented_module_is_named(tmp_path):
    """The negative control: an iframe-worker whose package no longer has ``shim`` (a file
    moved, a name changed upstream) stops the build with the module's name, not a path inside
    the package."""
    (tmp_path / TOOLS / ".bin").mkdir(parents=True)
    (tmp_path / page_scripts.ESBUILD).symlink_to(PROJECT / page_scripts.ESBUILD)
    package = tmp_path / TOOLS / "iframe-worker"
    package.mkdir()
    (package / "package.json").write_text('{"name": "iframe-worker", "main": "dist/cjs"}', encoding="utf-8")
    with pytest.raises(page_scripts.ScriptsError) as caught:
        page_scripts.worker_shim(tmp_path)
    message = str(caught.value)
    assert message.startswith("iframe-worker/shim did not bundle, and search from a folder on disk needs it")
    assert 'Could not resolve "iframe-worker/shim"' in message


def copied_sources(tmp_path, with_tools=True):
    """The page's modules in a folder of their own, with the project's tools linked or not."""
    shutil.copytree(MODULES, tmp_path / "docs" / "assets" / "js")
    if with_tools:
        (tmp_path / TOOLS).symlink_to(PROJECT / TOOLS, target_is_directory=True)
    return tmp_path


def test_a_module_that_does_not_parse_is_named_with_its_line(tmp_path):
    root = copied_sources(tmp_path)
    predict = root / "docs" / "assets" / "js" / "predict.js"
    predict.write_text(predict.read_text(encoding="utf-8") + "\nexport function broken( {\n", encoding="utf-8")
    with pytest.raises(page_scripts.ScriptsError) as caught:
        page_scripts.bundle(root)
    message = str(caught.value)
    assert message.startswith("docs/assets/js/page.js and its modules did not bundle:\n")
    assert "docs/assets/js/predict.js:" in message


def test_a_missing_import_is_named(tmp_path):
    root = copied_sources(tmp_path)
    (root / "docs" / "assets" / "js" / "track.js").unlink()
    with pytest.raises(page_scripts.ScriptsError, match=r'Could not resolve "\./track\.js"'):
        page_scripts.bundle(root)


def test_without_the_installed_tools_the_message_says_how_to_install_them(tmp_path):
    root = copied_sources(tmp_path, with_tools=False)
    with pytest.raises(page_scripts.ScriptsError) as caught:
        page_scripts.bundle(root)
    assert str(caught.value) == (
        "node_modules/.bin/esbuild is missing, and it bundles the page's script: "
        "run `make` (or `npm ci`) in the project folder to install it"
    )
    with pytest.raises(page_scripts.ScriptsError) as caught:
        page_scripts.worker_shim(root)
    assert str(caught.value) == (
        "node_modules/.bin/esbuild is missing, and search from a folder on disk needs its worker shim: "
        "run `make` (or `npm ci`) in the project folder to install it"
    )
