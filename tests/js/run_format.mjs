// Reads a JSON array of {values, places} on stdin, values as Python repr strings (so that
// -0.0, inf and nan survive JSON), and writes formatValues' texts for each group to stdout.
// Used by tests/test_format_js.py.
import { readFileSync } from "node:fs";

import { formatValues } from "../../docs/assets/js/format.js";

const SPECIAL = { inf: Infinity, "-inf": -Infinity, nan: NaN };
const number = (text) => (text in SPECIAL ? SPECIAL[text] : Number(text));

const groups = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(groups.map(({ values, places }) => formatValues(values.map(number), places))));
