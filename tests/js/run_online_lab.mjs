// run(calls): calls is an array [{Q, K, V, visible, row, blockSize, places}]; gives each
// one's {rows, reading} from docs/assets/js/online-lab.js. Used by tests/test_generation.py,
// through serve.mjs.
import { blockRows } from "../../docs/assets/js/online-lab.js";

export function run(calls) {
  return calls.map(({ Q, K, V, visible, row, blockSize, places }) =>
    blockRows(Q, K, V, visible, row, blockSize, places),
  );
}
