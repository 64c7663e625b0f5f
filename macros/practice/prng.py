"""The practice generator's random numbers: a specified 32-bit PRNG, twin of docs/assets/js/practice/prng.js.

Every operation is exact integer arithmetic on unsigned 32-bit words, so Python (masking
with 0xFFFFFFFF) and JavaScript (``Math.imul`` and ``>>> 0``) give the same stream bit for bit.

Specification (SplitMix32: a Weyl sequence finished by MurmurHash3's fmix32):

- State: one 32-bit word ``s``.
- ``mix32(z)``: ``z ^= z >> 16; z *= 0x85EBCA6B; z ^= z >> 13; z *= 0xC2B2AE35; z ^= z >> 16``,
  every product taken mod 2^32 and every shift logical.
- Update and output: ``s = (s + 0x9E3779B9) mod 2^32``, then the output is ``mix32(s)``.
- A stream from a seed and a variant number (both whole numbers in [0, 2^32)):
  ``s0 = mix32(mix32(seed) XOR (variant · 0x9E3779B9 mod 2^32))``.
- A lesson's seed: ``practice.seed`` when given, else the FNV-1a 32-bit hash of the lesson's
  folder name (its UTF-8 bytes; offset 0x811C9DC5, prime 0x01000193).
- A whole number in [lo, hi] (at most 2^32 values): with ``m = hi - lo + 1`` and
  ``limit = 2^32 - (2^32 mod m)``, draw outputs until one, ``u``, is below ``limit``
  (rejection, so no value is favoured), and return ``lo + (u mod m)``.
- A one-decimal value in [lo, hi]: the whole number ``k`` in [10·lo, 10·hi] drawn as above,
  then ``k / 10``, one correctly rounded IEEE division in both languages, so no float drift.
"""

MASK = 0xFFFFFFFF
GOLDEN = 0x9E3779B9
TWO_32 = 1 << 32


def mix32(z):
    """MurmurHash3's finaliser: every input bit reaches every output bit."""
    z &= MASK
    z ^= z >> 16
    z = (z * 0x85EBCA6B) & MASK
    z ^= z >> 13
    z = (z * 0xC2B2AE35) & MASK
    return z ^ (z >> 16)


def fnv1a(text):
    """FNV-1a, 32 bits, over the UTF-8 bytes of text: a lesson's default seed from its folder name."""
    h = 0x811C9DC5
    for byte in str(text).encode("utf-8"):
        h = ((h ^ byte) * 0x01000193) & MASK
    return h


def _word(value, name):
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < TWO_32:
        raise ValueError(f"{name} must be a whole number in [0, 2^32), got {value!r}")
    return value


class Stream:
    """The numbers of one (seed, variant) pair, in order."""

    def __init__(self, seed, variant):
        _word(seed, "seed")
        _word(variant, "variant")
        self.state = mix32(mix32(seed) ^ ((variant * GOLDEN) & MASK))

    def next_u32(self):
        """The next output, a whole number in [0, 2^32)."""
        self.state = (self.state + GOLDEN) & MASK
        return mix32(self.state)

    def integer(self, lo, hi):
        """A whole number in [lo, hi], each equally likely (rejection, no modulo bias)."""
        m = hi - lo + 1
        if not 1 <= m <= TWO_32:
            raise ValueError(f"an integer range needs lo <= hi, got [{lo}, {hi}]")
        limit = TWO_32 - TWO_32 % m
        while True:
            u = self.next_u32()
            if u < limit:
                return lo + u % m

    def tenths(self, lo10, hi10):
        """A one-decimal value k / 10 for a whole k in [lo10, hi10] (the range in tenths)."""
        return self.integer(lo10, hi10) / 10
