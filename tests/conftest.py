import os
import shutil
import tempfile

import pytest
from hypothesis import settings

from tests import browsers, computed, sitebuild
from tests.tabs import Tabs

pytest_plugins = ["pytester"]  # tests/test_tested_site.py runs the site fixture in a session of its own

# Property tests draw this many cases; `make test-fast` passes --hypothesis-profile=fast.
# No per-example deadline: speed is measured in bench/, never asserted by a test, and a
# loaded machine must not turn a correct case into a failure.
settings.register_profile("full", max_examples=150, deadline=None)
settings.register_profile("fast", max_examples=5, deadline=None)
settings.load_profile("full")

SLOW_MARKERS = ("build", "serve", "browser", "slow")
# A test that uses one of these fixtures carries the marker, whether or not it says so.
FIXTURE_MARKERS = {"site": "build", "project": "build", "browser": "browser", "tabs": "browser"}


def pytest_collection_modifyitems(items):
    for item in items:
        for name, marker in FIXTURE_MARKERS.items():
            if name in item.fixturenames and not item.get_closest_marker(marker):
                item.add_marker(marker)
    longest_first(items)


# The longest modules, longest first: each module run alone (wall seconds, 2026-12-01), since
# under `make test` a module's time depends on what the other process runs beside it. The
# accessibility scan 74, the cache identity builds 63, the served previews 47, the browser
# sweeps over every lesson 37, the widget bench 30.
LONGEST = ("test_accessibility", "test_cache_identity", "test_serve", "test_browser_lessons", "test_browser")


def longest_first(items):
    """The longest modules first, then the other modules that build, serve, drive a browser or
    run slow sweeps, then the quick ones: `make test` hands whole modules to two processes
    (pytest-xdist, --dist loadfile) in this order, and a long module started last would leave
    one process idle while it runs (--no-loadscope-reorder keeps this order; by default
    pytest-xdist would hand out the modules with the most tests first)."""
    slow = {item.module.__name__ for item in items if any(item.get_closest_marker(m) for m in SLOW_MARKERS)}

    def rank(item):
        name = item.module.__name__.rsplit(".", 1)[-1]
        return LONGEST.index(name) if name in LONGEST else len(LONGEST) + (item.module.__name__ not in slow)

    items.sort(key=rank)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item):
    """A test left in `make test-fast` that builds the site fails, naming the marker it lacks."""
    marked = any(item.get_closest_marker(name) for name in SLOW_MARKERS)
    sitebuild.unmarked_test = None if marked else item.nodeid
    try:
        return (yield)
    finally:
        sitebuild.unmarked_test = None


def pytest_configure(config):
    """$ABH_TESTED_SITE must name a new folder: one left by an earlier run would be kept as it is
    (sitebuild.keep) and pass for this run's build. Checked once, before any xdist worker starts."""
    target = os.environ.get(sitebuild.TESTED_SITE)
    if target and not hasattr(config, "workerinput") and os.path.lexists(target):
        raise pytest.UsageError(
            f"{sitebuild.TESTED_SITE}={target}: the folder already exists; remove it, so that it holds this run's build"
        )


@pytest.fixture(scope="session")
def site(tmp_path_factory, pytestconfig):
    """The real site, built once per test run exactly as ``make build`` builds it (and kept in
    the folder $ABH_TESTED_SITE names, when set: CI publishes that folder).

    Under pytest-xdist the first process to need it builds it while the other waits, and both
    read the same folders: no test writes into them (a test that edits the sources works on a
    copy, ``project``)."""
    shared = tmp_path_factory.getbasetemp()
    if hasattr(pytestconfig, "workerinput"):  # a pytest-xdist worker
        shared = shared.parent  # the run's own folder, above each process's
    with sitebuild.one_at_a_time(shared / "site.lock"):
        record = shared / "site.json"
        if not record.exists():  # the first to need it builds it; a failed build is recorded too
            (shared / "site").mkdir()
            built = sitebuild.build(sitebuild.copy_project(shared / "site"))
            if built.returncode == 0:
                sitebuild.keep_tested(built.site)
            built.write(record)
    result = sitebuild.Build.read(record)
    assert result.returncode == 0, result.output
    return result


@pytest.fixture(scope="session")
def served_site(site):
    """The session's build of the real site over HTTP on 127.0.0.1 (module scripts and local
    storage need an origin). One server for the whole run: a URL names one file all run long,
    so what the browser tabs keep in their HTTP cache (tests/tabs.py) is what it would send."""
    with sitebuild.served(site.site) as url:
        yield url


@pytest.fixture
def project(tmp_path, site):
    """A fresh copy of the site's sources that a test may break, with the session build's
    caches, so that its first build computes only what the test changed."""
    return sitebuild.copy_project(tmp_path, cache_of=site.root)


# ---------------------------------------------------------------- one Chromium per session

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def _chromium():
    """(browser, None) or (None, the one message saying how to get a browser); never raises."""
    found = browsers.find()
    if found.path is None:
        yield None, browsers.message(found)
        return
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(executable_path=found.path, args=CHROMIUM_ARGS)
        except Exception as error:
            yield None, browsers.message(found, launch_error=str(error).splitlines()[0])
            return
        yield browser, None
        browser.close()


_no_browser_reported = []


@pytest.fixture
def browser(_chromium):
    """The session's Chromium. Without one, the first browser test fails with how to get one
    and the others are skipped, so the reason is said once, not once per test."""
    launched, problem = _chromium
    if problem:
        if not _no_browser_reported:
            _no_browser_reported.append(problem)
            pytest.fail(problem, pytrace=False)
        pytest.skip("no browser: see the failure of the first browser test")
    return launched


@pytest.fixture(scope="session")
def _tabs(_chromium):
    launched, _ = _chromium
    kept = Tabs(launched)
    yield kept
    kept.close()


@pytest.fixture
def tabs(browser, _tabs):
    """The run's browser tabs (tests/tabs.py): ``with tabs.lend(**context_options) as page``
    gives a test a page with no past, in a context made with those options."""
    return _tabs


_shared_pages = []  # the folder of this run's shared pages (tests/computed.py), made by the first process


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """The run's folder of shared pages, made before pytest-xdist starts its processes (they
    inherit the variable that names it)."""
    if not hasattr(session.config, "workerinput"):
        _shared_pages.append(tempfile.mkdtemp(prefix="abh-pages-"))
        os.environ[computed.SHARED_PAGES] = _shared_pages[-1]


def pytest_sessionfinish(session):
    """The run's shared pages go with the run."""
    while _shared_pages:
        shutil.rmtree(_shared_pages.pop(), ignore_errors=True)
        os.environ.pop(computed.SHARED_PAGES, None)
