"""Kept for callers of the old path (the browser twin's parity tests): a fixture's JSON form
is now its own method, ``fixture.to_plain()`` (see ``macros.sources.forms``)."""


def to_plain(fixture):
    return fixture.to_plain()
