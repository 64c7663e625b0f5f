// Reads a JSON array of calls [{Q, K, V, visible, row, blockSize, places}] on stdin and writes
// each one's {rows, reading} from docs/assets/js/online-lab.js. Used by tests/test_online_lab.py.
import { readFileSync } from "node:fs";

import { blockRows } from "../../docs/assets/js/online-lab.js";

const calls = JSON.parse(readFileSync(0, "utf8"));
const results = calls.map(({ Q, K, V, visible, row, blockSize, places }) =>
  blockRows(Q, K, V, visible, row, blockSize, places),
);
process.stdout.write(JSON.stringify(results));
