// run(calls): calls is an array [{fn, args}]; gives, for each, {value} or {error} computed
// by docs/assets/js/steps-extra.js. Used by tests/test_engine_js_extra.py, through serve.mjs.
import * as extra from "../../docs/assets/js/steps-extra.js";

export function run(calls) {
  return calls.map(({ fn, args }) => {
    try {
      return { value: extra[fn](...args) };
    } catch (error) {
      return { error: error.message };
    }
  });
}
