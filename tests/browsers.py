"""Which Chromium the browser tests drive, found the same way on every machine.

In this order: the path in $CHROMIUM when it is set; the system's Chromium on PATH
(chromium, chromium-browser, google-chrome); Playwright's own Chromium, installed with
``python -m playwright install chromium`` when it is missing and the machine can download
it. When none works, one message says how to get one.
"""

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

SYSTEM_NAMES = ("chromium", "chromium-browser", "google-chrome")
INSTALL = [sys.executable, "-m", "playwright", "install", "chromium"]

HOW_TO_GET_ONE = (
    "The browser tests need Chromium and found none. Any one of these gives them one:\n"
    "  - install the system's Chromium: apt-get install chromium (what .ci/run does);\n"
    "  - point CHROMIUM at a Chromium or Chrome binary: CHROMIUM=/path/to/chrome make test;\n"
    "  - let Playwright download its own: .venv/bin/python -m playwright install chromium.\n"
    "`make test-fast` runs every other test without a browser."
)


@dataclass(frozen=True)
class Found:
    path: str | None  # the executable, or None when no browser was found
    source: str  # where it came from, or what was tried, for the messages


def playwright_chromium():
    """The path where Playwright keeps its own Chromium (present or not)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        return playwright.chromium.executable_path


def find(environ=os.environ, which=shutil.which, own=playwright_chromium, install=None):
    """The first browser that is there, in the documented order; never raises."""
    if environ.get("CHROMIUM"):
        path = which(environ["CHROMIUM"])
        if path is None:
            return Found(None, f"CHROMIUM is set to {environ['CHROMIUM']!r}, which is not an executable")
        return Found(path, "$CHROMIUM")
    for name in SYSTEM_NAMES:
        path = which(name)
        if path:
            return Found(path, f"{name} on PATH")
    tried = f"CHROMIUM is not set; none of {', '.join(SYSTEM_NAMES)} is on PATH"
    try:
        path = own()
    except Exception as error:  # a broken Playwright install: say so, do not crash the session
        return Found(None, f"{tried}; Playwright's browser could not be located ({error})")
    if not Path(path).is_file():
        problem = (install or install_playwright_chromium)()
        if problem:
            return Found(None, f"{tried}; `python -m playwright install chromium` failed: {problem}")
    if Path(path).is_file():
        return Found(path, "Playwright's own Chromium")
    return Found(None, f"{tried}; Playwright's Chromium is not at {path}")


def install_playwright_chromium():
    """Download Playwright's Chromium; the reason it failed, or None."""
    try:
        result = subprocess.run(INSTALL, capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    if result.returncode != 0:
        lines = (result.stderr + result.stdout).splitlines()
        errors = [line.strip() for line in lines if line.strip().startswith("Error")]
        return errors[-1] if errors else f"exit status {result.returncode}"
    return None


def message(found, launch_error=None):
    """The one message a session without a working browser shows."""
    if launch_error is not None:
        return f"Chromium at {found.path} ({found.source}) did not start: {launch_error}\n\n{HOW_TO_GET_ONE}"
    return f"{found.source}.\n\n{HOW_TO_GET_ONE}"
