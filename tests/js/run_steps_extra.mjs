// Reads a JSON array of calls [{fn, args}] on stdin and writes, for each, {value} or
// {error} computed by docs/assets/js/steps-extra.js. Used by tests/test_engine_js_extra.py.
import { readFileSync } from "node:fs";

import * as extra from "../../docs/assets/js/steps-extra.js";

const calls = JSON.parse(readFileSync(0, "utf8"));
const results = calls.map(({ fn, args }) => {
  try {
    return { value: extra[fn](...args) };
  } catch (error) {
    return { error: error.message };
  }
});
process.stdout.write(JSON.stringify(results));
