// run(fixtures): fixtures is an array of fixtures in their JSON form; gives, for each, what
// the browser twin makes of it: {trace, overflowed, average}: the trace (trace()), the first
// field the overflow guard refuses (overflowed(), or null) and the head-averaged map
// (headAverage()). Used by tests/test_js_twin.py and tests/test_js_sequence.py, through serve.mjs.
import { headAverage, overflowed, trace } from "../../docs/assets/js/engine.js";

export function run(fixtures) {
  return fixtures.map((fixture) => {
    const data = trace(fixture);
    return { trace: data, overflowed: overflowed(data), average: headAverage(data) };
  });
}
