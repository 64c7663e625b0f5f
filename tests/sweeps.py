"""Sweeps over many drawn cases: `make test-fast` runs a sample of them, `make test` all.

A parity test that compares two engines on hundreds of drawn cases is a sweep; the inner
loop keeps a sample (the hand-picked edge cases, the lessons, the first few drawn cases)
and leaves the rest, marked ``slow``, to ``make test``. Cases are computed part by part,
the sample's part and the sweep's part, each only when a test first asks for it, so that
`make test-fast` never computes the sweep at all.
"""

import pytest


class Sweep:
    """The names of a sweep's cases, split into the sample and the rest (the sweep's part)."""

    def __init__(self, names, sample):
        sample = set(sample)
        unknown = sample - set(names)
        assert not unknown, f"the sample names cases the sweep does not have: {sorted(unknown)}"
        self.names = list(names)
        self.parts = {
            "sample": [name for name in self.names if name in sample],
            "sweep": [name for name in self.names if name not in sample],
        }

    def part_of(self, name):
        return "sample" if name in self.parts["sample"] else "sweep"

    def params(self, names=None):
        """Every name (or each of ``names``) as a parameter, those outside the sample marked slow."""
        names = self.names if names is None else names
        return [name if name in self.parts["sample"] else pytest.param(name, marks=pytest.mark.slow) for name in names]

    @staticmethod
    def part_params():
        """The two parts as parameters, for a test that looks at every case of a part at once."""
        return ["sample", pytest.param("sweep", marks=pytest.mark.slow)]

    def results(self, compute):
        """part -> compute(the part's names), computed on first use; ``.case(name)`` looks one up."""
        return Results(self, compute)


class Results(dict):
    """A sweep's results by part ("sample", "sweep"), each part computed when first asked for."""

    def __init__(self, sweep, compute):
        super().__init__()
        self.sweep, self.compute = sweep, compute

    def __missing__(self, part):
        self[part] = self.compute(self.sweep.parts[part])
        return self[part]

    def case(self, name):
        return self[self.sweep.part_of(name)][name]

    def everything(self):
        return {**self["sample"], **self["sweep"]}
