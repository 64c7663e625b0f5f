// run(fixtures): fixtures is an array of fixtures; gives, for each, the list of problems the
// browser twin's validate() finds (an empty list: valid). Used by tests/test_js_twin.py and
// tests/test_js_sequence.py, through serve.mjs.
import { validate } from "../../docs/assets/js/engine.js";

export function run(fixtures) {
  return fixtures.map((fixture) => validate(fixture));
}
