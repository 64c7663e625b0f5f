"""Cache files written whole (macros/caching/whole_files.py) and the formula cache's JSON and
keys (macros/render/katex.py)."""

import json

import pytest

from macros.caching.whole_files import write_whole
from macros.render.katex import json_entries


def test_bytes_or_chunks_give_the_same_file(tmp_path):
    write_whole(tmp_path / "a" / "one.bin", b"abc")
    write_whole(tmp_path / "a" / "two.bin", iter([b"a", b"", b"bc"]))
    assert (tmp_path / "a" / "one.bin").read_bytes() == (tmp_path / "a" / "two.bin").read_bytes() == b"abc"


def test_a_write_that_stops_leaves_the_old_file_and_no_other(tmp_path):
    path = tmp_path / "cache.json"
    path.write_bytes(b"old")

    def chunks():
        yield b"new, half"
        raise OSError("disk full")

    with pytest.raises(OSError):
        write_whole(path, chunks())
    assert path.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["cache.json"]


@pytest.mark.parametrize("results", [{}, {"b": "<span>−1</span>", 'a"q': "x\\y", "é": "\n"}])
def test_the_formula_cache_is_json_dumps_one_entry_at_a_time(results):
    whole = json.dumps(results, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
    assert b"".join(json_entries(results)) == whole


def test_a_formula_cache_that_cannot_be_written_lets_the_build_go_on(tmp_path):
    # A file where the cache's folder should be: the save gives up quietly (the next build
    # typesets again), as the page cache does; before, the build stopped with a traceback.
    from pathlib import Path

    from macros.render.katex import KatexRenderer

    (tmp_path / "katex").write_text("not a folder")
    renderer = KatexRenderer(Path(__file__).resolve().parent.parent, cache=False)
    renderer.path = tmp_path / "katex" / "formulas.json"
    renderer.results["x"], renderer.unsaved = "<span>x</span>", 1
    renderer.save()
    assert (tmp_path / "katex").read_text() == "not a folder" and renderer.unsaved == 1


def test_the_formula_cache_is_keyed_by_katex_and_the_script_that_calls_it(tmp_path, monkeypatch):
    """Another KaTeX, or other options (the Node script passes them), must find no formula
    typeset before."""
    from macros.render import katex
    from tests.sitebuild import PROJECT

    key = katex.cache_key(PROJECT)
    other_katex = tmp_path / katex.KATEX
    other_katex.parent.mkdir(parents=True)
    other_katex.write_bytes((PROJECT / katex.KATEX).read_bytes() + b"\n")
    assert katex.cache_key(tmp_path) != key
    other_script = tmp_path / katex.SERVER.name
    other_script.write_bytes(katex.SERVER.read_bytes() + b"\n")
    monkeypatch.setattr(katex, "SERVER", other_script)
    assert katex.cache_key(PROJECT) != key


def test_a_formula_shown_inline_and_displayed_is_typeset_for_each(tmp_path):
    """The formula cache tells the two apart: a displayed formula is centred on its own line."""
    from macros.render.katex import KatexRenderer
    from tests.sitebuild import PROJECT

    renderer = KatexRenderer(PROJECT, cache=False)
    try:
        inline, displayed = renderer.render_all([("x^2", False), ("x^2", True)])
    finally:
        renderer.close()
    assert "katex-display" in displayed and "katex-display" not in inline
