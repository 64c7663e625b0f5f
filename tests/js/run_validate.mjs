// Reads a JSON array of fixtures on stdin and writes, for each, the list of problems the
// browser twin's validate() finds (an empty list: valid). Used by tests/test_js_twin.py.
import { readFileSync } from "node:fs";

import { validate } from "../../docs/assets/js/engine.js";

const fixtures = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(fixtures.map((fixture) => validate(fixture))));
