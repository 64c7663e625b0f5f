// One node process for a whole test session (tests/nodejs.py starts it and talks to it).
// Reads one JSON request per line on stdin, {script, input}, runs the `run` function that
// tests/js/<script> exports on the input, and writes one JSON line back on stdout:
// {result} or, when the script threw, {error} with its stack. Requests are answered one
// at a time, in order. A script module is imported once and kept: the twins' modules hold
// no state between calls, so a case run here gives what a fresh `node` would give.
import { createInterface } from "node:readline";

const scripts = new Map();

async function runScript(script, input) {
  if (!/^run_[a-z_]+\.mjs$/.test(script)) throw new Error(`not a script of tests/js/: ${script}`);
  if (!scripts.has(script)) scripts.set(script, await import(`./${script}`));
  return scripts.get(script).run(input);
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let reply;
  try {
    const { script, input } = JSON.parse(line);
    reply = { result: await runScript(script, input) };
  } catch (error) {
    reply = { error: error?.stack ?? String(error) };
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}
