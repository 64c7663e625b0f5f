// run({streams, draws, hashes, variants}): what the browser's practice modules make of
// them. Used by tests/test_practice.py and tests/test_practice_build.py, through serve.mjs.
//   streams:  [[seed, variant, count]]           -> the first count outputs of the stream
//   draws:    [[seed, variant, lo, hi, count]]   -> count whole numbers in [lo, hi]
//   hashes:   [text]                             -> fnv1a of each
//   variants: [{spec, base, variant}]            -> {fixture, answers} or {error}
import { answers, variant } from "../../docs/assets/js/practice/generator.js";
import { fnv1a, Stream } from "../../docs/assets/js/practice/prng.js";

const take = (count, f) => Array.from({ length: count }, f);

export function run(input) {
  return {
    streams: (input.streams ?? []).map(([seed, number, count]) => {
      const stream = new Stream(seed, number);
      return take(count, () => stream.nextU32());
    }),
    draws: (input.draws ?? []).map(([seed, number, lo, hi, count]) => {
      const stream = new Stream(seed, number);
      return take(count, () => stream.integer(lo, hi));
    }),
    hashes: (input.hashes ?? []).map(fnv1a),
    variants: (input.variants ?? []).map(({ spec, base, variant: number }) => {
      try {
        const drawn = variant(spec, base, number);
        return { fixture: drawn.fixture, answers: answers(spec, drawn.trace) };
      } catch (error) {
        return { error: error.message };
      }
    }),
  };
}
