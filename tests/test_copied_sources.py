"""Every file a page reads is in what a copy of the project holds.

The tests build copies of the project (tests/sitebuild.py: ``SOURCES``, with ``TOOLS``
linked), and so does the bench (bench/build_time.py uses the same ``copy_project``). A page
that starts reading a file outside them fails the tests' builds, and the list grows; but a
file a page reads only when it is there (``reads.exists``) would be missed silently, the copy
building another page than the project. So the record of every file each page of the
session's build read (its ``.cache/pages``, macros/pages/cache.py: paths inside the project
as ``./path``, others absolute, named values such as ``:track`` as names) is held to them,
a file looked for and not found included.
"""

import json

from tests.sitebuild import SOURCES, TOOLS


def copied(name):
    """Whether a recorded path (``./`` and the path in the project) lies in what a copy holds."""
    return name.startswith("./") and name[2:].split("/")[0] in (*SOURCES, TOOLS)


def not_copied(sources):
    """The files among one page's recorded sources that no copy of the project holds."""
    return sorted(name for name in sources if name.startswith(("./", "/")) and not copied(name))


def test_every_file_a_page_of_the_book_read_is_copied(site):  # the site fixture: marked build
    entries = sorted((site.root / ".cache" / "pages").glob("*.json"))
    read = {name for entry in entries for name in json.loads(entry.read_text(encoding="utf-8"))["sources"]}
    assert len(entries) >= len(list((site.root / "lessons").glob("*/lesson.md"))), "a page kept per lesson"
    assert "./requirements-torch.txt" in read  # the masks page names the pinned torch (torch_release)
    assert not_copied(read) == []


def test_a_file_outside_the_copied_sources_is_named():
    """The negative control: a requirements file no copy holds, and a path outside the project."""
    recorded = {
        ":track": "d1",
        "./lessons/masks/lesson.md": "d2",
        "./requirements-torch.txt": "d3",
        "./requirements-docs.txt": "missing",
        "/etc/attention.yaml": "d4",
    }
    assert not_copied(recorded) == ["./requirements-docs.txt", "/etc/attention.yaml"]
