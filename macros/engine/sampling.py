"""Choosing the next token from the last row of logits: temperature, top-k and one seeded draw.

    probs        = softmax(logits / temperature)       (before top-k)
    kept         = the top_k ids by probability, largest first; ties: the lower id first
                   (no top_k: every id, in that order)
    renormalised = probs on the kept ids divided by their sum, 0 on the others
    choice       = numpy.random.default_rng(seed).choice(n_vocab, p=renormalised)

numpy's Generator.choice with ``p`` draws one uniform number u in [0, 1) (the generator's
first ``random()``) and returns the first id whose cumulative probability exceeds u; the trace
keeps u and the cumulative sums so that a lesson can show the draw, and a test holds the two
ways to the same id. Greedy decoding is the first kept id: the largest probability.
"""

from dataclasses import dataclass

import numpy as np

from macros.engine import steps
from macros.engine.records import rows


@dataclass(frozen=True)
class SamplingSpec:
    temperature: float  # above 0
    top_k: int | None  # 1 to n_vocab, or None to keep every id
    seed: int  # numpy default_rng's seed

    def to_plain(self):
        plain = {"temperature": self.temperature, "seed": self.seed}
        return plain | ({"top_k": self.top_k} if self.top_k is not None else {})


@dataclass(frozen=True)
class Sampling:
    scaled: np.ndarray  # (n_vocab,)  the last row of logits divided by the temperature
    probs: np.ndarray  # (n_vocab,)  their softmax
    kept: tuple  # the ids top-k keeps, largest probability first
    renormalised: np.ndarray  # (n_vocab,)  what the draw uses: 0 outside kept, adding up to 1
    cumulative: np.ndarray  # (n_vocab,)  running sums of renormalised, in id order
    u: float  # the uniform number the draw compares with the cumulative sums
    choice: int  # the id drawn

    def to_dict(self):
        vectors = {name: rows(getattr(self, name)) for name in ("scaled", "probs")}
        drawn = {"renormalised": rows(self.renormalised), "cumulative": rows(self.cumulative)}
        return {**vectors, "kept": list(self.kept), **drawn, "u": self.u, "choice": self.choice}


def with_temperature(logits, temperature):
    """Dividing by T above 1 flattens the probabilities; below 1 sharpens them."""
    return logits / temperature  # (n_vocab,)


def softmax(scaled):
    """One row's stable softmax over every id."""
    row = scaled[None, :]  # (1, n_vocab)
    return steps.stable_softmax(row, np.ones(row.shape, dtype=bool)).weights[0]  # (n_vocab,)


def top_k(probs, k):
    """The k ids with the largest probabilities, largest first, a tie going to the lower id."""
    order = sorted(range(len(probs)), key=lambda i: (-probs[i], i))
    return tuple(order[: len(probs) if k is None else k])


def renormalise(probs, kept):
    """The kept ids' probabilities divided by their sum; every other id 0."""
    kept_only = np.zeros_like(probs)
    kept_only[list(kept)] = probs[list(kept)]
    return kept_only / kept_only.sum()  # (n_vocab,)


def draw(renormalised, seed):
    """One id, drawn as numpy's default_rng(seed).choice draws it, and the uniform number behind it."""
    choice = int(np.random.default_rng(seed).choice(len(renormalised), p=renormalised))
    u = float(np.random.default_rng(seed).random())
    return choice, u


def sample(last_logits, spec):
    """The whole choice of the next token from one row of logits."""
    scaled = with_temperature(last_logits, spec.temperature)
    probs = softmax(scaled)
    kept = top_k(probs, spec.top_k)
    renormalised = renormalise(probs, kept)
    choice, u = draw(renormalised, spec.seed)
    return Sampling(scaled, probs, kept, renormalised, np.cumsum(renormalised), u, choice)
