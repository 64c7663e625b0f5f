/**
 * The practice generator's random numbers: twin of macros/practice/prng.py (its docstring
 * is the specification). SplitMix32: a Weyl sequence finished by MurmurHash3's fmix32.
 *
 * Every operation is exact 32-bit integer arithmetic: products through Math.imul, results
 * made unsigned with `>>> 0`, so the stream is the same bit for bit as Python's.
 */

const GOLDEN = 0x9e3779b9;
const TWO_32 = 4294967296;

/** MurmurHash3's finaliser: every input bit reaches every output bit. */
export function mix32(z) {
  z = z >>> 0;
  z = (z ^ (z >>> 16)) >>> 0;
  z = Math.imul(z, 0x85ebca6b) >>> 0;
  z = (z ^ (z >>> 13)) >>> 0;
  z = Math.imul(z, 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/** FNV-1a, 32 bits, over the UTF-8 bytes of text: a lesson's default seed from its folder name. */
export function fnv1a(text) {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(String(text))) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}

function word(value, name) {
  if (!Number.isInteger(value) || value < 0 || value >= TWO_32) {
    throw new RangeError(`${name} must be a whole number in [0, 2^32), got ${value}`);
  }
  return value;
}

/** The numbers of one (seed, variant) pair, in order. */
export class Stream {
  constructor(seed, variant) {
    word(seed, "seed");
    word(variant, "variant");
    this.state = mix32((mix32(seed) ^ Math.imul(variant >>> 0, GOLDEN)) >>> 0);
  }

  /** The next output, a whole number in [0, 2^32). */
  nextU32() {
    this.state = (this.state + GOLDEN) >>> 0;
    return mix32(this.state);
  }

  /** A whole number in [lo, hi], each equally likely (rejection, no modulo bias). */
  integer(lo, hi) {
    const m = hi - lo + 1;
    if (!(m >= 1 && m <= TWO_32)) throw new RangeError(`an integer range needs lo <= hi, got [${lo}, ${hi}]`);
    const limit = TWO_32 - (TWO_32 % m);
    for (;;) {
      const u = this.nextU32();
      if (u < limit) return lo + (u % m);
    }
  }

  /** A one-decimal value k / 10 for a whole k in [lo10, hi10] (the range in tenths). */
  tenths(lo10, hi10) {
    return this.integer(lo10, hi10) / 10;
  }
}
