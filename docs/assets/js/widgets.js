/**
 * The interactive layer of lesson pages: numeric checks, choices, hints, takeaways and
 * live labs. The HTML contract it implements is the module docstring of
 * macros/render/widgets.py; every page reads fully without this script, so all it does is
 * enhance markup that is already complete (and hide, only when it runs, what a reader
 * should see after locking in a choice).
 *
 * Learner state lives in localStorage under "abh:<slug>":
 *   { checks: {<check id>: {value, attempts, right}},  typed text; evaluated attempts;
 *                                                        whether the last one landed
 *     choices: {<choice name>: <option number>},       locked-in options
 *     takeaways: {<name>: <text>},
 *     whys: {<name>: <text>},                          one line on why, beside a prediction
 *     labs: {<lab name>: {<field>: [[cell text]]}},    edited lab cells, as typed
 *     practice: {<variant>: [{value, attempts, right}]}, new numbers (practice/widget.js)
 *     visited, tracked, done }                         read by other pages: the home
 *                                                        page's track map and the facts
 *                                                        line of lessons that require this one
 * A lesson is tracked when it has at least one gate, and done when every gate is met.
 *
 * Numbers a reader types: "−" (U+2212) and "–" count as a minus sign; a comma counts as
 * the decimal point only when it cannot be a thousands separator ("0,46", "12,5", "1,2345"
 * yes; "1,376" is refused with a message, since it could be 1.376 or 1376).
 */

import { headAverage, overflowed, trace } from "./engine.js";
import { formatValues, MINUS } from "./format.js";
import { makePractice } from "./practice/widget.js";

// ---------------------------------------------------------------- reading typed numbers

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;
const THOUSANDS_LOOKALIKE = /^[+-]?[1-9]\d{0,2},\d{3}$/;

/** {value} for a finite number, else {error}: "empty", "ambiguous", "too-large" or "not-a-number". */
export function parseNumber(raw) {
  let text = String(raw).trim().replace(/[\u2212\u2013]/g, "-");
  if (text === "") return { error: "empty" };
  if (text.includes(",")) {
    if (!DECIMAL_COMMA.test(text)) return { error: "not-a-number" };
    if (THOUSANDS_LOOKALIKE.test(text)) return { error: "ambiguous" };
    text = text.replace(",", ".");
  }
  if (!NUMBER.test(text)) return { error: "not-a-number" };
  const value = Number(text);
  return Number.isFinite(value) ? { value } : { error: "too-large" };
}

/** The boundary counts as right; the epsilon absorbs float error such as 2.02 − 2 > 0.02. */
export function lands(x, answer, tolerance) {
  return Math.abs(x - answer) <= tolerance + 1e-9 * Math.max(1, Math.abs(answer));
}

const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;
const asText = (x) => String(x).replace("-", MINUS);

// ---------------------------------------------------------------- stored state

const storageKey = (slug) => `abh:${slug}`;
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

function emptyState() {
  return { checks: {}, choices: {}, takeaways: {}, whys: {}, labs: {}, practice: {} };
}

/** A lesson's stored state, or null; storage can be blocked or hold junk, and the page must still work. */
function readState(slug) {
  try {
    const state = JSON.parse(localStorage.getItem(storageKey(slug)));
    return isObject(state) ? state : null;
  } catch {
    return null;
  }
}

function writeState(slug, state) {
  try {
    localStorage.setItem(storageKey(slug), JSON.stringify(state));
  } catch {
    // Storage full or blocked: the page keeps working, it only forgets on reload.
  }
}

function loadState(slug) {
  const stored = readState(slug) ?? {};
  const state = emptyState();
  for (const key of Object.keys(state)) if (isObject(stored[key])) state[key] = stored[key];
  return state;
}

// ---------------------------------------------------------------- small DOM helpers

/** An element with properties, attributes ("aria-*", "data-*") and children. */
function make(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name.includes("-")) element.setAttribute(name, value);
    else element[name] = value;
  }
  element.append(...children);
  return element;
}

let idCount = 0;
const newId = (prefix) => `${prefix}-${++idCount}`;

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

// ---------------------------------------------------------------- numeric checks and gates

/** A labelled answer box with its Check button, result and attempt count: one form for
 * every graded number, the lesson's checks and the practice on new numbers alike. */
function answerForm(label, inputId) {
  const input = make("input", {
    id: inputId,
    type: "text", // not type=number: it would reject "−" and "0,5" silently
    className: "abh-answer",
    autocomplete: "off",
    spellcheck: false,
    size: 10,
  });
  const result = make("span", { className: "abh-result", "aria-live": "polite" });
  const attempts = make("span", { className: "abh-attempts" });
  const form = make(
    "form",
    { className: "abh-check-form", noValidate: true },
    make("label", { htmlFor: input.id }, label),
    " ",
    input,
    " ",
    make("button", { type: "submit", className: "abh-button" }, "Check"),
    " ",
    result,
    " ",
    attempts,
  );
  return { form, input, result, attempts };
}

function makeCheck(item, gate, page) {
  const id = item.dataset.check;
  const answer = Number(item.dataset.answer);
  const label = item.querySelector(".abh-label") ?? make("span", { className: "abh-label" });
  const { form, input, result, attempts } = answerForm(label, newId(`abh-answer-${id}`));
  item.replaceChildren(form);

  // What storage holds may be stale or edited by hand: read it field by field.
  const record = () => {
    const stored = isObject(page.state.checks[id]) ? page.state.checks[id] : {};
    return {
      value: typeof stored.value === "string" ? stored.value : "",
      attempts: Number.isInteger(stored.attempts) && stored.attempts > 0 ? stored.attempts : 0,
      right: typeof stored.right === "boolean" ? stored.right : null,
    };
  };
  let notice = null; // a message about input that was not evaluated; not stored

  // Enter in the input submits the form: one path for keyboard and button.
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const parsed = parseNumber(input.value);
    const current = { ...record(), value: input.value };
    if (parsed.error) {
      notice = INPUT_NOTICES[parsed.error];
    } else {
      notice = null;
      current.attempts += 1;
      current.right = lands(parsed.value, answer, gate.tolerance);
    }
    page.state.checks[id] = current;
    page.refresh();
  });
  input.addEventListener("input", () => {
    page.state.checks[id] = { ...record(), value: input.value };
    page.save();
  });

  return {
    attempts: () => record().attempts,
    right: () => record().right === true,
    restore() {
      input.value = record().value;
      notice = null;
    },
    render() {
      const { attempts: count, right } = record();
      const tolerance = asText(gate.tolerance);
      input.setAttribute("aria-invalid", notice ? "true" : "false");
      const kind = notice ? "abh-invalid" : right === true ? "abh-right" : right === false ? "abh-wrong" : "";
      result.className = `abh-result ${kind}`;
      if (notice) result.textContent = notice;
      else if (right === true) result.textContent = `✓ Within ${tolerance}: it counts.`;
      else if (right === false) result.textContent = `✗ Not within ${tolerance}.`;
      else result.textContent = "";
      attempts.textContent = count ? `(${plural(count, "attempt")})` : "";
    },
  };
}

const INPUT_NOTICES = {
  empty: "Type a number first; nothing was counted.",
  "not-a-number": `That is not a number; type one such as 0.25 or ${MINUS}1. Nothing was counted.`,
  ambiguous:
    "With a comma this could be a thousands separator; write the decimal point as a point. Nothing was counted.",
  "too-large": "That number is too large to check; nothing was counted.",
};

function makeGate(element, page) {
  const gate = {
    element,
    name: element.dataset.gate,
    need: Number(element.dataset.need),
    tolerance: Number(element.dataset.tolerance),
    withChoice: element.dataset.withChoice || null,
  };
  gate.checks = [...element.querySelectorAll("li.abh-check[data-check][data-answer]")].map((item) =>
    makeCheck(item, gate, page),
  );
  const status = element.querySelector("p.abh-status") ?? element.appendChild(make("p", { className: "abh-status" }));
  status.setAttribute("aria-live", "polite");

  gate.attempts = () => gate.checks.reduce((sum, check) => sum + check.attempts(), 0);
  gate.landed = () => gate.checks.filter((check) => check.right()).length;
  /** "not chosen yet" | "right" | "not right": the reading a with-choice gate also needs. */
  gate.reading = () => {
    const choice = page.choices.get(gate.withChoice);
    const locked = choice?.locked();
    if (locked === undefined) return "not chosen yet";
    return locked === choice.correct ? "right" : "not right";
  };
  gate.met = () => gate.landed() >= gate.need && (!gate.withChoice || gate.reading() === "right");
  gate.restore = () => gate.checks.forEach((check) => check.restore());
  gate.render = () => {
    gate.checks.forEach((check) => check.render());
    const n = gate.checks.length;
    const numbers = n === 1 ? "number" : "numbers";
    let text = `${gate.landed()} of ${n} ${numbers} within ${asText(gate.tolerance)}, ${gate.need} needed.`;
    if (gate.withChoice) {
      const reading = gate.reading();
      text += ` Reading: ${reading === "not chosen yet" ? reading : `locked in, ${reading}`}.`;
    }
    if (gate.met()) text += " Check met.";
    status.textContent = text;
    status.classList.toggle("abh-met", gate.met());
    status.hidden = false;
  };
  return gate;
}

// ---------------------------------------------------------------- choices and what they reveal

function makeChoice(element, page) {
  const name = element.dataset.choice;
  const correct = Number(element.dataset.correct);
  const question = element.querySelector(".abh-question");
  if (question && !question.id) question.id = newId(`abh-question-${name}`);
  const list = element.querySelector("ol, ul");
  list?.setAttribute("role", "radiogroup");
  if (question) list?.setAttribute("aria-labelledby", question.id);

  const options = [...element.querySelectorAll("li[data-option]")].map((item) => {
    const radio = make("input", { type: "radio", name: `abh-choice-${name}`, value: item.dataset.option });
    const label = make("label", { className: "abh-option" }, radio, " ", ...item.childNodes);
    item.replaceChildren(label);
    item.setAttribute("role", "none"); // the list is now a radio group: its items are not list items
    return { item, radio, number: Number(item.dataset.option), feedback: item.dataset.feedback ?? "" };
  });
  const button = make("button", { type: "button", className: "abh-button abh-lock" }, "Lock in");
  const feedback = make("p", { className: "abh-feedback", "aria-live": "polite" });
  element.append(make("div", { className: "abh-choice-actions" }, button), feedback);

  /** The locked-in option's number, or undefined; anything stored that is not an option counts as nothing. */
  const locked = () => {
    const stored = page.state.choices[name];
    return options.some((option) => option.number === stored) ? stored : undefined;
  };

  let notice = "";
  button.addEventListener("click", () => {
    const chosen = options.find((option) => option.radio.checked);
    if (!chosen) {
      notice = "Choose one of the options first.";
      return render();
    }
    notice = "";
    page.state.choices[name] = chosen.number; // locked: nothing changes it but a reset
    page.refresh();
  });

  function render() {
    const number = locked();
    const isLocked = number !== undefined;
    for (const option of options) {
      if (isLocked) option.radio.checked = option.number === number;
      option.radio.disabled = isLocked;
      option.item.classList.toggle("abh-chosen", option.number === number);
    }
    button.disabled = isLocked;
    button.textContent = isLocked ? "Locked in" : "Lock in";
    element.classList.toggle("abh-locked", isLocked);
    feedback.replaceChildren();
    feedback.className = "abh-feedback";
    if (isLocked) {
      const chosen = options.find((option) => option.number === number);
      const right = number === correct;
      feedback.classList.add(right ? "abh-right" : "abh-wrong");
      const verdict = make("strong", {}, right ? "Locked in: right." : "Locked in: not right.");
      feedback.append(verdict, " ", chosen?.feedback ?? "");
    } else {
      feedback.textContent = notice;
    }
  }

  return {
    name,
    correct,
    locked,
    question: question?.textContent.trim() ?? "",
    restore() {
      notice = "";
      for (const option of options) option.radio.checked = false;
    },
    render,
  };
}

/** Content hidden until a choice is locked in, with a note in its place saying so. */
function makeReveal(element, page) {
  const choice = page.choices.get(element.dataset.revealAfter);
  if (!choice) return null; // no such choice on the page: never hide content for good
  const note = make(
    "p",
    { className: "abh-reveal-note" },
    `This part opens when you lock in your answer to “${choice.question}”`,
  );
  element.before(note);
  return {
    render() {
      const locked = choice.locked() !== undefined;
      element.hidden = !locked;
      note.hidden = locked;
    },
  };
}

// ---------------------------------------------------------------- hints

function makeHints(element, page) {
  const gate = page.gates.find((g) => g.name === element.dataset.attemptsOf);
  if (!gate) return null; // no such gate: leave the hints as plain details
  const hints = [...element.querySelectorAll("details.abh-hint[data-after]")].map((details) => {
    const after = Number(details.dataset.after);
    let summary = details.querySelector("summary");
    if (!summary) details.prepend((summary = make("summary", {}, "Hint")));
    const lock = make("span", { className: "abh-hint-lock" });
    summary.append(lock);
    const locked = () => gate.attempts() < after;
    // A click (or Enter/Space on the summary) would open it; refuse while locked.
    summary.addEventListener("click", (event) => {
      if (locked()) event.preventDefault();
    });
    // Other ways of opening it (find in page, scripts) end up here.
    details.addEventListener("toggle", () => {
      if (details.open && locked()) details.open = false;
    });
    return {
      render() {
        const isLocked = locked();
        if (isLocked) details.open = false;
        details.classList.toggle("abh-locked", isLocked);
        summary.setAttribute("aria-disabled", String(isLocked));
        lock.textContent = isLocked
          ? ` Opens after ${plural(after, "evaluated attempt")} (you have ${gate.attempts()}).`
          : "";
      },
    };
  });
  return { render: () => hints.forEach((hint) => hint.render()) };
}

// ---------------------------------------------------------------- folded work

/** Worked content hidden until the reader's first evaluated attempt at a gate, with a note in its place. */
function makeFold(element, page) {
  const gate = page.gates.find((g) => g.name === element.dataset.foldUntil);
  if (!gate) return null; // no such gate: never hide content for good
  const note = make(
    "p",
    { className: "abh-fold-note" },
    "The worked numbers for this part open after your first attempt at the check below.",
  );
  element.before(note);
  return {
    render() {
      const open = gate.attempts() > 0;
      element.hidden = !open;
      note.hidden = open;
    },
  };
}

// ---------------------------------------------------------------- one line on why

/** A one-line text box for the reader's reason; stored as text and only ever set as a value. */
function makeWhy(element, page) {
  const name = element.dataset.why;
  const label = element.querySelector(".abh-why-label");
  const id = newId(`abh-why-${name}`);
  const input = make("input", { id, type: "text", className: "abh-why-text", autocomplete: "off" });
  const caption = make("label", { htmlFor: id, className: "abh-why-label" }, label?.textContent.trim() ?? "Why?");
  element.replaceChildren(caption, input);
  return storedText(input, page, "whys", name, "");
}

/** Keep a text box's value in the page's saved state (``page.state[kind][name]``, read afresh
 * each time, since a reset replaces the state), set back on every render. */
function storedText(control, page, kind, name, fallback) {
  control.addEventListener("input", () => {
    page.state[kind][name] = control.value;
    page.save();
  });
  return {
    render() {
      const stored = page.state[kind][name];
      const text = typeof stored === "string" ? stored : fallback;
      if (control.value !== text) control.value = text;
    },
  };
}

// ---------------------------------------------------------------- takeaways

function makeTakeaway(element, page) {
  const name = element.dataset.takeaway;
  const original = element.textContent.trim();
  const id = newId(`abh-takeaway-${name}`);
  const textarea = make("textarea", { id, className: "abh-takeaway-text", rows: 4 });
  element.replaceChildren(
    make(
      "label",
      { htmlFor: id, className: "abh-takeaway-label" },
      "Your takeaway, in your own words (kept in this browser)",
    ),
    textarea,
  );
  return storedText(textarea, page, "takeaways", name, original);
}

// ---------------------------------------------------------------- live labs

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

function makeLab(element, page) {
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

// ---------------------------------------------------------------- the facts line and the track map

function isDone(slug) {
  const state = readState(slug);
  return Boolean(state?.tracked && state.done);
}

/** The link in an element that points at a lesson's page, by the last folder of its address. */
function linkTo(container, slug) {
  return [...container.querySelectorAll("a[href]")].find((a) => {
    const path = new URL(a.getAttribute("href"), location.href).pathname.replace(/\/(index\.html)?$/, "");
    return path.split("/").pop() === slug;
  });
}

/** "opens after X — done" on optional lessons, from the prerequisites' stored state. */
function markPrerequisites(facts, lesson) {
  if (!lesson.optional) return;
  for (const slug of lesson.requires ?? []) {
    const link = linkTo(facts, slug);
    if (!link) continue;
    const state = readState(slug);
    const text = isDone(slug)
      ? "done"
      : state?.visited && !state.tracked
        ? "read (it has no checks to pass)"
        : "not done yet";
    link.after(make("span", { className: `abh-prerequisite${isDone(slug) ? " abh-done" : ""}` }, ` — ${text}`));
  }
}

function markTrack() {
  for (const entry of document.querySelectorAll(".track-lesson[data-lesson]")) {
    const status = entry.querySelector(".track-status");
    if (!status) continue;
    const done = isDone(entry.dataset.lesson);
    status.textContent = done ? "done" : "";
    status.classList.toggle("abh-done", done);
  }
}

// ---------------------------------------------------------------- wide formulas

/** Display math wider than its column scrolls sideways; a keyboard reader can reach it too. */
function focusableWideMath() {
  const displays = [...document.querySelectorAll(".math-display")];
  if (!displays.length) return;
  const update = () => {
    for (const display of displays) {
      if (display.scrollWidth > display.clientWidth) display.tabIndex = 0;
      else display.removeAttribute("tabindex");
    }
  };
  update();
  window.addEventListener("resize", update);
}

// ---------------------------------------------------------------- a lesson page

/** The exercise on new numbers (practice/widget.js), given this module's ways of reading and grading. */
function practiceWidgets(root, page) {
  const tools = { parseNumber, lands, make, answerForm, plural, asText, notices: INPUT_NOTICES };
  return [...root.querySelectorAll(".abh-practice[data-spec]")].map((el) => makePractice(el, page, tools));
}

function enhanceLesson(root, lesson) {
  const page = { lesson, state: loadState(lesson.slug), choices: new Map() };
  page.gates = [...root.querySelectorAll(".abh-gate[data-gate]")].map((el) => makeGate(el, page));
  for (const el of root.querySelectorAll(".abh-choice[data-choice]")) {
    const choice = makeChoice(el, page);
    page.choices.set(choice.name, choice);
  }
  const reveals = [...root.querySelectorAll("[data-reveal-after]")].map((el) => makeReveal(el, page)).filter(Boolean);
  const hints = [...root.querySelectorAll(".abh-hints[data-attempts-of]")]
    .map((el) => makeHints(el, page))
    .filter(Boolean);
  const takeaways = [...root.querySelectorAll(".abh-takeaway[data-takeaway]")].map((el) => makeTakeaway(el, page));
  const folds = [...root.querySelectorAll(".abh-fold[data-fold-until]")].map((el) => makeFold(el, page)).filter(Boolean);
  const whys = [...root.querySelectorAll(".abh-why[data-why]")].map((el) => makeWhy(el, page));
  const labs = [...root.querySelectorAll(".abh-lab[data-lab]")].map((el) => makeLab(el, page)).filter(Boolean);
  const practices = practiceWidgets(root, page);
  const widgets = [...page.gates, ...page.choices.values(), ...reveals, ...hints, ...takeaways, ...folds, ...whys, ...practices];

  page.save = () => {
    page.state.visited = true;
    page.state.tracked = page.gates.length > 0;
    page.state.done = page.state.tracked && page.gates.every((gate) => gate.met());
    writeState(lesson.slug, page.state);
  };
  page.refresh = () => {
    widgets.forEach((widget) => widget.render());
    page.save();
  };

  const facts = root.querySelector(".lesson-facts");
  if (facts) markPrerequisites(facts, lesson);
  if (facts && (widgets.length || labs.length)) {
    const button = make("button", { type: "button", className: "abh-button abh-reset" }, "Reset this lesson");
    button.addEventListener("click", () => {
      page.state = emptyState();
      restoreAll();
    });
    (facts.querySelector("p") ?? facts).append(" · ", button);
  }

  function restoreAll() {
    [...page.gates, ...page.choices.values(), ...practices].forEach((widget) => widget.restore());
    labs.forEach((lab) => lab.restore());
    page.refresh();
  }

  // Labs recompute on load only when the reader had edited them; otherwise the build's numbers stand.
  page.gates.forEach((gate) => gate.restore());
  labs.filter((lab) => isObject(page.state.labs[lab.name])).forEach((lab) => lab.restore());
  page.refresh();
}

function start() {
  markTrack();
  focusableWideMath();
  const data = document.querySelector("script.abh-lesson");
  if (!data) return;
  const lesson = JSON.parse(data.textContent);
  enhanceLesson(document.querySelector("article") ?? document.body, lesson);
}

// Under node (tests import parseNumber) there is no document; in a browser, a module runs
// after the page is parsed, so the markup is all there.
if (typeof document !== "undefined") start();
