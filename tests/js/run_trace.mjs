// Reads a JSON array of fixtures (their JSON form) on stdin and writes, for each, what the
// browser twin makes of it: {trace, overflowed, average}: the trace (trace()), the first
// field the overflow guard refuses (overflowed(), or null) and the head-averaged map
// (headAverage()). Used by tests/test_js_twin.py.
import { readFileSync } from "node:fs";

import { headAverage, overflowed, trace } from "../../docs/assets/js/engine.js";

const fixtures = JSON.parse(readFileSync(0, "utf8"));
const results = fixtures.map((fixture) => {
  const data = trace(fixture);
  return { trace: data, overflowed: overflowed(data), average: headAverage(data) };
});
process.stdout.write(JSON.stringify(results));
