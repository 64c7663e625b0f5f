/**
 * The rotary lab (macros/render/rotary_widget.py writes its HTML): two sliders move the
 * query's and the key's positions, two buttons move both at once, and the sentence shows
 * the rotated score, recomputed with steps-extra.js (the twin of macros/engine/positions.py)
 * and formatted as the build formats it (format.js). Without this script the page already
 * shows the starting score and a table of scores.
 */

import { formatValues } from "./format.js";
import { rotaryScore } from "./steps-extra.js";

function slider(label, value, max, onInput) {
  const wrap = document.createElement("label");
  wrap.className = "abh-rotary-slider";
  wrap.append(`${label} `);
  const input = document.createElement("input");
  Object.assign(input, { type: "range", min: "0", max: String(max), step: "1", value: String(value) });
  input.addEventListener("input", () => onInput(Number(input.value)));
  wrap.append(input);
  return { wrap, input };
}

function button(text, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "abh-button abh-rotary-move";
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

/** Make one .abh-rotary element live. */
export function enhance(root) {
  const q = JSON.parse(root.dataset.q);
  const k = JSON.parse(root.dataset.k);
  const base = Number(root.dataset.base);
  const places = Number(root.dataset.places);
  const max = Number(root.dataset.max);
  const state = { q: Number(root.dataset.qPosition), k: Number(root.dataset.kPosition) };
  const role = (name) => root.querySelector(`[data-role="${name}"]`);
  const controls = root.querySelector(".abh-rotary-controls");
  const query = slider("Query position", state.q, max, (v) => set(v, state.k));
  const key = slider("Key position", state.k, max, (v) => set(state.q, v));
  const back = button("Both back by one", () => set(state.q - 1, state.k - 1));
  const forward = button("Both forward by one", () => set(state.q + 1, state.k + 1));

  function set(qPosition, kPosition) {
    if (Math.min(qPosition, kPosition) < 0 || Math.max(qPosition, kPosition) > max) return;
    Object.assign(state, { q: qPosition, k: kPosition });
    query.input.value = String(qPosition);
    key.input.value = String(kPosition);
    role("q-position").textContent = String(qPosition);
    role("k-position").textContent = String(kPosition);
    role("offset").textContent = String(kPosition - qPosition);
    role("score").textContent = formatValues([rotaryScore(q, k, qPosition, kPosition, base)], places)[0];
    back.disabled = Math.min(qPosition, kPosition) === 0;
    forward.disabled = Math.max(qPosition, kPosition) === max;
  }

  controls.append(query.wrap, key.wrap, back, forward);
  set(state.q, state.k);
}

if (typeof document !== "undefined") {
  for (const root of document.querySelectorAll(".abh-rotary")) enhance(root);
}
