// Renders TeX to HTML with the vendored KaTeX, for the build (no math script on the page).
// Protocol: one JSON request per line on stdin, {"items": [{"tex": "...", "display": bool}]};
// one JSON reply per line on stdout, {"html": [...]} or {"error": "...", "index": i}.
"use strict";
// A build's formulas are many small calls, each typeset once: V8's optimizing compilers cost
// this process more CPU time, on the cores the lessons are rendered on, than they save it (the
// output is the same). A Node.js before 20 knows the first by its older name.
const major = Number(process.versions.node.split(".")[0]);
require("v8").setFlagsFromString(major >= 20 ? "--no-turbofan --no-maglev" : "--no-opt");
const katex = require(process.argv[2]);
const readline = require("readline");

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const { items } = JSON.parse(line);
  const html = [];
  for (let index = 0; index < items.length; index++) {
    const { tex, display } = items[index];
    try {
      html.push(katex.renderToString(tex, { displayMode: display, throwOnError: true, strict: "error", output: "htmlAndMathml" }));
    } catch (error) {
      process.stdout.write(JSON.stringify({ error: String(error.message || error), index }) + "\n");
      return;
    }
  }
  process.stdout.write(JSON.stringify({ html }) + "\n");
});
