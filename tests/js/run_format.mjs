// run(groups): groups is an array of {values, places}, values as Python repr strings (so
// that -0.0, inf and nan survive JSON); gives formatValues' texts for each group.
// Used by tests/test_format_js.py, through serve.mjs.
import { formatValues } from "../../docs/assets/js/format.js";

const SPECIAL = { inf: Infinity, "-inf": -Infinity, nan: NaN };
const number = (text) => (text in SPECIAL ? SPECIAL[text] : Number(text));

export function run(groups) {
  return groups.map(({ values, places }) => formatValues(values.map(number), places));
}
