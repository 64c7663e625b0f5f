"""Errors an author can act on: each names the file, the place in it and what was wrong."""

import os


def shown_path(file):
    """A path as an author would type it: relative to the working folder when inside it."""
    relative = os.path.relpath(file)
    return relative if not relative.startswith("..") else str(file)


class LessonError(Exception):
    """Any mistake in a lesson's fixture or template. Its text is the whole message."""


class FixtureError(LessonError):
    """A fixture field that is missing, unknown or not of the expected form."""

    def __init__(self, file, path, expected, found):
        self.file, self.path, self.expected, self.found = file, path, expected, found
        where = f"{shown_path(file)}: {path}" if path else shown_path(file)
        super().__init__(f"{where}: expected {expected}, got {found}")


class ClaimError(LessonError):
    """A sentence of a lesson that the computed numbers no longer support."""


class WidgetError(LessonError):
    """A widget that a reader could never complete: a gate needing more than it asks, say."""
