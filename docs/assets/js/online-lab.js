/**
 * The online-softmax lab (macros/render/online_lab.py writes its HTML): the reader picks a
 * block size and the table of one query's blocks is recomputed with the engine's twin
 * (steps-extra.js onlineAttention) and formatted as the build formats it (format.js).
 * The reading at the bottom stays the same whatever the block size: the lesson's point.
 */

import { formatValues } from "./format.js";
import { onlineAttention } from "./steps-extra.js";

const cells = (values, places) => formatValues(values, places).join(", ");

/** The rows of the table and the reading for query `row`, as the build prints them. */
export function blockRows(Q, K, V, visible, row, blockSize, places) {
  const result = onlineAttention(Q, K, V, blockSize, visible);
  const rows = result.blocks.map((block) => [
    block.stop - block.start > 1 ? `${block.start + 1}–${block.stop}` : `${block.stop}`,
    cells([block.m[row]], places),
    cells([block.rescale[row]], places),
    cells([block.l[row]], places),
    cells(block.acc[row], places),
  ]);
  return { rows, reading: cells(result.output[row], places) };
}

function redraw(lab, blockSize) {
  const read = (name) => JSON.parse(lab.dataset[name]);
  const { rows, reading } = blockRows(
    read("q"), read("k"), read("v"), read("visible"), Number(lab.dataset.row), blockSize, Number(lab.dataset.places),
  );
  const body = lab.querySelector(".abh-online-blocks tbody");
  body.replaceChildren(
    ...rows.map((row) => {
      const tr = document.createElement("tr");
      for (const text of row) tr.appendChild(Object.assign(document.createElement("td"), { textContent: text }));
      return tr;
    }),
  );
  lab.querySelector(".abh-online-reading").textContent = reading;
}

export function start(root = document) {
  for (const lab of root.querySelectorAll(".abh-online-lab")) {
    const picker = lab.querySelector(".abh-block-size");
    picker.addEventListener("change", () => redraw(lab, Number(picker.value)));
  }
}

if (typeof document !== "undefined") start();
