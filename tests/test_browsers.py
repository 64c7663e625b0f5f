"""Which Chromium the browser tests pick (tests/browsers.py), without starting one."""

from tests import browsers


def which_of(*present):
    return lambda name: name if name.startswith("/") else f"/bin/{name}" if name in present else None


def no_own_browser():
    return "/nowhere/playwright/chrome"


def test_chromium_variable_comes_first():
    found = browsers.find({"CHROMIUM": "/opt/chrome"}, which_of("chromium"), no_own_browser)
    assert found == browsers.Found("/opt/chrome", "$CHROMIUM")


def test_a_chromium_variable_that_names_nothing_is_said_not_skipped():
    found = browsers.find({"CHROMIUM": "chrome-typo"}, which_of("chromium"), no_own_browser)
    assert found.path is None and "'chrome-typo'" in found.source


def test_then_the_system_chromium_in_order():
    assert browsers.find({}, which_of("chromium", "google-chrome"), no_own_browser).path == "/bin/chromium"
    assert browsers.find({}, which_of("google-chrome"), no_own_browser).path == "/bin/google-chrome"


def test_then_playwrights_own_browser_when_present(tmp_path):
    own = tmp_path / "chrome"
    own.write_text("")
    found = browsers.find({}, which_of(), lambda: str(own), install=lambda: "must not be called")
    assert found == browsers.Found(str(own), "Playwright's own Chromium")


def test_then_playwright_downloads_it(tmp_path):
    own = tmp_path / "chrome"

    def install():
        own.write_text("")

    assert browsers.find({}, which_of(), lambda: str(own), install=install).path == str(own)


def test_none_gives_one_message_saying_how_to_get_one():
    found = browsers.find({}, which_of(), no_own_browser, install=lambda: "Download failed: no network")
    assert found.path is None
    text = browsers.message(found)
    assert "no network" in text and "apt-get install chromium" in text and "CHROMIUM=" in text
    assert "playwright install chromium" in text
