// Reads {streams, draws, variants} as JSON on stdin and writes what the browser's practice
// modules make of them, in one node process. Used by tests/test_practice.py.
//   streams:  [[seed, variant, count]]           -> the first count outputs of the stream
//   draws:    [[seed, variant, lo, hi, count]]   -> count whole numbers in [lo, hi]
//   variants: [{spec, base, variant}]            -> {fixture, answers} or {error}
import { readFileSync } from "node:fs";

import { answers, variant } from "../../docs/assets/js/practice/generator.js";
import { fnv1a, Stream } from "../../docs/assets/js/practice/prng.js";

const input = JSON.parse(readFileSync(0, "utf8"));
const take = (count, f) => Array.from({ length: count }, f);

const result = {
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
process.stdout.write(JSON.stringify(result));
