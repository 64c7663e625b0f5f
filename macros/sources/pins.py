"""The versions the project pins in its requirements files.

A page that says which release of a library a claim was checked with names the one
``make test-torch`` checks it with: the version is read from the pin, not typed in the prose.
"""

import re

from macros.sources import reads

TORCH_REQUIREMENTS = "requirements-torch.txt"
PIN = re.compile(r"^[ \t]*([A-Za-z0-9_.-]+)[ \t]*==[ \t]*([^\s;#]+)", re.MULTILINE)


def pinned(path, package):
    """The version ``package`` is pinned to (``package==version``) in the requirements file at
    ``path``. The file is read as a page's source, so the page is made again when the pin
    moves; a LookupError names the file when the package has no pin there."""
    text = reads.read_bytes(path).decode("utf-8")
    versions = {name.lower(): version for name, version in PIN.findall(text)}
    if package.lower() not in versions:
        raise LookupError(f"{path}: no pin for {package} (a line '{package}==VERSION')")
    return versions[package.lower()]
