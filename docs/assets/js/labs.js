/**
 * Live labs: `.abh-lab[data-lab]` holds `.abh-editor[data-field][data-initial]` tables whose
 * cells the reader edits; on every edit the engine's twin (engine.js) recomputes the whole
 * layer and the lab's [data-bind] texts, bar lengths and heat-map shades follow, formatted as
 * the build formats them (format.js). The contract is macros/render/widgets.py's docstring.
 * page.js imports this module only on a page that has a lab.
 */

import { headAverage, overflowed, trace } from "./engine.js";
import { formatValues } from "./format.js";
import { make } from "./dom.js";
import { isObject } from "./state.js";
import { parseNumber } from "./typed-numbers.js";

/** A dotted path into nested objects and arrays: "heads.0.weights.2"; undefined when absent. */
function resolve(data, path) {
  return String(path)
    .split(".")
    .reduce((value, part) => (value === undefined || value === null ? undefined : value[part]), data);
}

/** Sets a dotted path in a plain object (the lab's copy of the fixture). */
function assign(data, path, value) {
  const parts = String(path).split(".");
  const last = parts.pop();
  const parent = parts.reduce((node, part) => node[part], data);
  parent[last] = value;
}

/** "W_O", or "W_Q of head 2" for "heads.1.W_Q": how a cell's label names its matrix. */
function fieldName(field) {
  const head = /^heads\.(\d+)\.(\w+)$/.exec(field);
  return head ? `${head[2]} of head ${Number(head[1]) + 1}` : field;
}

const KEPT = "The numbers shown are from the last entries that could be computed.";

const STALE = "This table shows the lesson's own numbers, not your edits; the figure and the bound values follow them.";

const CELL_PROBLEMS = {
  empty: "is empty",
  "not-a-number": "is not a number",
  ambiguous: "has a comma that could be a thousands separator; use a point for decimals",
  "too-large": "is too large to compute with",
};

function makeEditor(figure) {
  const field = figure.dataset.field;
  const initial = JSON.parse(figure.dataset.initial);
  const name = fieldName(field);
  const values = initial.map((row) => [...row]);
  const problems = new Map(); // "r,c" -> text naming the cell and what is wrong
  const cells = [...figure.querySelectorAll("tr")].map((tr, r) =>
    [...tr.querySelectorAll("td")].map((td, c) => {
      const text = td.textContent.trim(); // the build's own formatting of the initial value
      const input = make("input", {
        type: "text",
        className: "abh-cell",
        value: text,
        size: 6,
        autocomplete: "off",
        spellcheck: false,
        "aria-label": `${name} row ${r + 1}, column ${c + 1}`,
      });
      td.replaceChildren(input);
      return { input, text, r, c };
    }),
  );

  /** Reads one cell into the matrix, or records why it cannot be read; the last good value stays. */
  function read(cell) {
    const parsed = parseNumber(cell.input.value);
    const key = `${cell.r},${cell.c}`;
    if (parsed.error) problems.set(key, `${cell.input.getAttribute("aria-label")} ${CELL_PROBLEMS[parsed.error]}.`);
    else {
      problems.delete(key);
      values[cell.r][cell.c] = parsed.value;
    }
    cell.input.setAttribute("aria-invalid", String(problems.has(key)));
  }

  const all = () => cells.flat();
  return {
    field,
    figure,
    values,
    problems,
    inputs: () => all().map((cell) => cell.input),
    cellOf: (input) => all().find((cell) => cell.input === input),
    read,
    texts: () => cells.map((row) => row.map((cell) => cell.input.value)),
    edited: () => values.some((row, r) => row.some((x, c) => x !== initial[r][c])),
    /**
     * Cell texts as stored (or the initial ones), read into the matrix. A cell still showing
     * the build's text keeps the exact initial value: its text is rounded for display, and
     * reading it back would move a number the reader never touched.
     */
    fill(texts) {
      for (const cell of all()) {
        cell.input.value = texts?.[cell.r]?.[cell.c] ?? cell.text;
        values[cell.r][cell.c] = initial[cell.r][cell.c];
        if (cell.input.value !== cell.text) read(cell);
        else {
          problems.delete(`${cell.r},${cell.c}`);
          cell.input.setAttribute("aria-invalid", "false");
        }
      }
    },
  };
}

/**
 * New texts for [data-bind] elements. A bound vector is one group of values, formatted
 * together as the build's bound() does. Scalars inside one figure are one group too, as
 * the build formats a figure's row (bars) or matrix (heat map) together; masked cells are
 * not drawn, but they are zeros and cannot change whether a group is whole. Elsewhere,
 * scalars sharing a data-group (a figure's table twin) are formatted together.
 */
export function bindTexts(elements, data, places) {
  const groups = new Map();
  for (const element of elements) {
    const value = resolve(data, element.dataset.bind);
    if (value === undefined) continue;
    const key = Array.isArray(value)
      ? element
      : (element.dataset.group ?? element.closest("svg.abh-figure") ?? element);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push({ element, values: [value].flat(Infinity) });
  }
  const texts = new Map();
  for (const members of groups.values()) {
    const formatted = formatValues(members.flatMap((member) => member.values), places);
    let start = 0;
    for (const { element, values } of members) {
      texts.set(element, formatted.slice(start, start + values.length).join(", "));
      start += values.length;
    }
  }
  return texts;
}

// A trace field as a reader names it: "heads[0].scores" is "the scores of head 1".
const FIELD_WORDS = {
  Q: "the queries", K: "the keys", V: "the values", scores: "the scores", scale: "the scale",
  scaled: "the scaled scores", shift: "the row maxima", shifted: "the shifted scores",
  exps: "the exponentials", sums: "their sums", weights: "the weights", output: "the readings",
  concat: "the joined readings", W_O: "the output projection",
};

export function inWords(field) {
  const head = /^heads\[(\d+)\]\.(\w+)$/.exec(field);
  if (head) return `${FIELD_WORDS[head[2]] ?? head[2]} of head ${Number(head[1]) + 1}`;
  return field === "output" ? "the layer's output" : FIELD_WORDS[field] ?? field;
}

export function makeLab(element, page) {
  const name = element.dataset.lab;
  const editors = [...element.querySelectorAll(".abh-editor[data-field][data-initial]")].map(makeEditor);
  if (!editors.length) return null;
  const message =
    element.querySelector(".abh-lab-message") ??
    element.appendChild(make("p", { className: "abh-lab-message", "aria-live": "polite", hidden: true }));
  const binds = [...element.querySelectorAll("[data-bind]")];
  const bars = [...element.querySelectorAll("rect[data-bar]")];
  const heats = [...element.querySelectorAll("rect[data-heat]")];
  const reset = make("button", { type: "button", className: "abh-button abh-lab-reset" }, "Reset");
  editors.at(-1).figure.after(make("div", { className: "abh-lab-actions" }, reset));
  // Tables in a lab with nothing bound (a figure's "Show the numbers" twin) cannot follow the
  // edits; rather than let them contradict the figure silently, they say so while edited.
  const staleNotes = [...element.querySelectorAll("table")]
    .filter((table) => !table.closest(".abh-editor") && !table.querySelector("[data-bind]"))
    .map((table) => {
      const note = make("p", { className: "abh-stale-note", hidden: true }, STALE);
      table.before(note);
      return note;
    });

  function say(text) {
    message.textContent = text;
    message.hidden = !text;
  }

  /** Recomputes the whole layer from the edited fixture and redraws the lab; the last good numbers stay on failure. */
  function recompute() {
    const start = performance.now();
    const problems = editors.flatMap((editor) => [...editor.problems.values()]);
    if (problems.length) {
      say(`${problems.join(" ")} ${KEPT}`);
      return;
    }
    const fixture = structuredClone(page.lesson.fixture);
    for (const editor of editors) assign(fixture, editor.field, editor.values.map((row) => [...row]));
    const data = trace(fixture);
    const field = overflowed(data);
    if (field) {
      say(`With these entries, ${inWords(field)} would be too large to compute. ${KEPT}`);
      return;
    }
    data.average = headAverage(data);
    update(data);
    say("");
    const edited = editors.some((editor) => editor.edited());
    staleNotes.forEach((note) => (note.hidden = !edited));
    element.dataset.recomputeMs = (performance.now() - start).toFixed(3);
  }

  function update(data) {
    for (const [bound, text] of bindTexts(binds, data, page.lesson.decimals)) bound.textContent = text;
    for (const rect of bars) {
      const value = resolve(data, rect.dataset.bar);
      if (typeof value === "number") rect.setAttribute("width", (value * Number(rect.dataset.full)).toFixed(2));
    }
    for (const rect of heats) {
      const value = resolve(data, rect.dataset.heat);
      if (typeof value === "number") rect.setAttribute("fill-opacity", value.toFixed(4));
    }
  }

  element.addEventListener("input", (event) => {
    const editor = editors.find((e) => e.cellOf(event.target));
    if (!editor) return;
    editor.read(editor.cellOf(event.target));
    page.state.labs[name] = Object.fromEntries(editors.map((e) => [e.field, e.texts()]));
    page.save();
    recompute();
  });
  reset.addEventListener("click", () => {
    delete page.state.labs[name];
    page.save();
    restore();
  });

  /** Cells from the stored edits, or the initial matrix; then the lab's numbers to match. */
  function restore() {
    const saved = page.state.labs[name];
    for (const editor of editors) editor.fill(isObject(saved) ? saved[editor.field] : null);
    recompute();
  }

  return { name, restore };
}
