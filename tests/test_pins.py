"""A page names a pinned release as read from the requirements file (macros/sources/pins.py),
so the version it says a claim was checked with is the one ``make test-torch`` installs."""

import pytest

from macros.sources.pins import TORCH_REQUIREMENTS, pinned
from tests import computed
from tests.sitebuild import PROJECT

REQUIREMENTS = "-r base.txt\n# a comment\nnumpy==2.1.0\nTorch == 1.2.3+cpu  # the CPU build\nfilelock>=3\n"


def test_a_pin_is_read_from_its_line(tmp_path):
    path = tmp_path / "requirements.txt"
    path.write_text(REQUIREMENTS, encoding="utf-8")
    assert pinned(path, "torch") == "1.2.3+cpu"
    assert pinned(path, "numpy") == "2.1.0"


def test_a_package_without_a_pin_is_named_with_its_file(tmp_path):
    path = tmp_path / "requirements.txt"
    path.write_text(REQUIREMENTS, encoding="utf-8")
    with pytest.raises(LookupError, match=r"requirements\.txt: no pin for filelock"):
        pinned(path, "filelock")


def test_the_masks_page_names_the_release_the_torch_cells_run_with():
    release = pinned(PROJECT / TORCH_REQUIREMENTS, "torch")
    major_minor = ".".join(release.split(".")[:2])
    assert f"PyTorch {major_minor} does" in computed.page("masks")
