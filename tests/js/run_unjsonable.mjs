// run(name): one of the calls below, whose arguments JSON cannot carry (NaN, Infinity) or
// whose outcome is a thrown error; gives what the call returned, or the error's problems.
// Used by tests/test_js_twin.py (TestValidate), through serve.mjs.
import { trace, validate } from "../../docs/assets/js/engine.js";

const CALLS = {
  "validate non-finite numbers": () => validate({ Q: [[NaN, -Infinity]], K: [[1, 2]], V: [[Infinity]] }),
  "trace a fixture that validate refuses": () => {
    try {
      trace({ Q: [[1]], K: [["abc"]], V: [[1]] });
      return "no error";
    } catch (error) {
      return error.problems;
    }
  },
};

export function run(name) {
  return CALLS[name]();
}
