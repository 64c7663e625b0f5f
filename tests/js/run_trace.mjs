// Reads a JSON array of fixtures (their JSON form) on stdin and writes the JSON array of
// their traces, computed by the browser twin, to stdout. Used by tests/test_js_twin.py.
import { readFileSync } from "node:fs";

import { trace } from "../../docs/assets/js/engine.js";

const fixtures = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(fixtures.map((fixture) => trace(fixture))));
