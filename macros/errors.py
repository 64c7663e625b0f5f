"""Errors an author can act on: each names the file, the place in it and what was wrong."""

import os
import re


def shown_path(file):
    """A path as an author would type it: relative to the working folder when inside it."""
    relative = os.path.relpath(file)
    return relative if not relative.startswith("..") else str(file)


class LessonError(Exception):
    """Any mistake in a lesson's sources or template. Its text is the whole message."""


class SourceError(LessonError):
    """Something an author wrote is wrong: a fixture, a lesson's front matter, the track.

    The message always starts with the file (and its line, when known), then the place in
    it (a field path such as ``X[2]`` or ``front matter: title``), what was expected and
    what was found: ``lessons/x/fixture.yaml:7: X[2] (row 3): expected ..., got ...``.
    """

    def __init__(self, file, path, expected, found, line=None):
        self.file, self.path, self.expected, self.found, self.line = file, path, expected, found, line
        where = shown_path(file) + (f":{line}" if line else "")
        place = f"{where}: {path}{row_note(path)}" if path else where
        super().__init__(f"{place}: expected {expected}, got {found}")


class FixtureError(SourceError):
    """A fixture field that is missing, unknown or not of the expected form."""


MATRICES = {"X", "Q", "K", "V", "W_Q", "W_K", "W_V", "W_O", "source"}


def row_note(path):
    """' (row 3)' after a matrix row's path such as 'X[2]' (data counts from 0, prose from 1);
    ' (row 3, column 2)' after an entry's, 'X[2][1]'; nothing after any other path."""
    found = re.search(r"(?:^|\.)(\w+)((?:\[\d+\]){1,2})$", path)
    if not found or found[1] not in MATRICES:
        return ""
    indices = re.findall(r"\d+", found[2])
    if len(indices) == 1:
        return f" (row {int(indices[0]) + 1})"
    return f" (row {int(indices[0]) + 1}, column {int(indices[1]) + 1})"


class PracticeError(FixtureError):
    """A mistake in a fixture's practice block, or a generator that cannot satisfy its constraints."""


class ClaimError(LessonError):
    """A sentence of a lesson that the computed numbers no longer support."""


class WidgetError(LessonError):
    """A widget that a reader could never complete: a gate needing more than it asks, say."""
