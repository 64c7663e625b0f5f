import pytest

from tests import sitebuild


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The real site, built once per test session exactly as ``make build`` builds it."""
    root = sitebuild.copy_project(tmp_path_factory.mktemp("site"))
    result = sitebuild.build(root)
    assert result.returncode == 0, result.output
    return result


@pytest.fixture
def project(tmp_path):
    """A fresh copy of the site's sources that a test may break."""
    return sitebuild.copy_project(tmp_path)
