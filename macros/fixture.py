"""Kept for callers of the old path (the browser twin's parity tests): the fixture reader
now lives in ``macros.sources.fixture``. New code imports it from there."""

from macros.sources.fixture import *  # noqa: F403
from macros.sources.fixture import describe, load, validate  # noqa: F401
