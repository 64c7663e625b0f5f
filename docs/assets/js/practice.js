/**
 * Practice on new numbers. The markup and the data file are macros/render/practice.py's (its
 * docstring is the contract): the page carries the exercise on set 1 of the new numbers, so
 * that its answer is one the lesson has not shown; every set, computed at build time, the
 * lesson's own numbers (set 0) among them, is in a data file beside the page that sets
 * `window.abhPractice[slug] = {count, variants: [{variant, fixture, answers, solutions,
 * inputs}]}`. page.js imports this module only on a page that has a practice.
 *
 * - The data file loads on first use (New numbers, or an address with ?variant=N), through a
 *   classic <script src>, not fetch(), so that a page opened from a folder on disk loads it too.
 * - ?variant=N shows set N, 0 to data-count (0 is the lesson's own); anything else shows the
 *   page's own set with a notice. New numbers goes to the next set and puts it in the address.
 * - Showing a set sets data-variant and data-fixture and puts up that set's own questions (a
 *   lesson whose practice has several kinds of question gives the sets kinds in turn): each
 *   check's label, tolerance, range, data-answer and worked solution; the inputs are drawn again
 *   from the set's tables and notes, texts as the build formatted them. A symbol's subscript
 *   in those texts (W_Q, d_k) is shown as a subscript (`marked`, the twin of render/practice.py's).
 * - Grading is the lesson checks' (checks.js): the typed number read by parseNumber, within
 *   data-tolerance is right (the boundary counts); an answer outside the quantity's range
 *   (data-low, data-high, data-whole) is refused with the reason (data-why) and not counted.
 * - A check's worked solution opens after a right answer or SOLUTION_AFTER evaluated attempts.
 * - State: page.state.practice = {<variant>: [{value, attempts, right, landed}]}, one entry per
 *   check of that set; the lesson's reset empties it.
 */

import { gradedAnswer, opensAfter, SOLUTION_AFTER } from "./checks.js";
import { lockable, make, newId } from "./dom.js";
import { answerRecord, isObject } from "./state.js";

/**
 * {number, notice}: the set that `search` (location.search) asks for, among 0 … count; without
 * one, or with one that names no set, `first` (the set the page was built with).
 */
export function variantFromAddress(search, count, first = 0) {
  let raw;
  try {
    raw = new URLSearchParams(search).get("variant");
  } catch {
    raw = "";
  }
  if (raw === null) return { number: first, notice: "" };
  if (/^\d{1,6}$/.test(raw) && Number(raw) <= count) return { number: Number(raw), notice: "" };
  const asked = /^\d{1,6}$/.test(raw) ? `There is no set ${Number(raw)} of numbers here` : "The address does not name a set of numbers";
  const shown = first === 0 ? "These are the lesson's own numbers." : `These are the numbers of set ${first}.`;
  return { number: first, notice: `${asked}: the sets go from 0 (the lesson's own) to ${count}. ${shown}` };
}

/** The address of set `number` of this page, other parameters kept (none for the page's first set). */
function addressOf(number, first) {
  const url = new URL(location.href);
  if (number === first) url.searchParams.delete("variant");
  else url.searchParams.set("variant", String(number));
  return url.pathname + url.search + url.hash;
}

const loading = new Map(); // slug -> Promise of the lesson's sets

/** The lesson's sets, loaded once by a classic script beside the page; rejects when it cannot be. */
function loadSets(slug, source) {
  const ready = () => (isObject(window.abhPractice?.[slug]) ? window.abhPractice[slug] : null);
  if (ready()) return Promise.resolve(ready());
  if (!loading.has(slug)) {
    const promise = new Promise((resolve, reject) => {
      const script = make("script", { src: new URL(source, document.baseURI).href });
      script.addEventListener("load", () => (ready() ? resolve(ready()) : reject(new Error("no sets"))));
      script.addEventListener("error", () => reject(new Error("not loaded")));
      document.head.append(script);
    });
    // A failed load may be tried again later (the reader's connection may come back).
    promise.catch(() => loading.delete(slug));
    loading.set(slug, promise);
  }
  return loading.get(slug);
}

// A symbol with a subscript in plain text: W_Q, d_k, d_model, θ_i, q_3 (macros/render/practice.py: SUBSCRIPT).
const SUBSCRIPT = /(?<![A-Za-z0-9_])([A-Za-zθ])_([A-Za-z0-9]+)/g;

/** Plain text cut into [text, isSubscript] parts: "W_O x" gives [["W", false], ["O", true], [" x", false]]. */
export function subscriptParts(text) {
  const parts = [];
  let last = 0;
  for (const match of String(text).matchAll(SUBSCRIPT)) {
    parts.push([text.slice(last, match.index) + match[1], false], [match[2], true]);
    last = match.index + match[0].length;
  }
  parts.push([String(text).slice(last), false]);
  return parts.filter(([part]) => part !== "");
}

/** Plain text as nodes, each symbol's subscript in a <sub>: "W_O" becomes W<sub>O</sub>. */
function marked(text) {
  return subscriptParts(text).map(([part, sub]) => (sub ? make("sub", {}, part) : part));
}

/** The inputs panel of a set: a table per matrix, a paragraph per note, texts as given. */
function inputsPanel({ tables = [], notes = [] }) {
  const figures = tables.map(([caption, rows]) =>
    make(
      "figure",
      {},
      make("figcaption", {}, ...marked(caption)),
      make("table", { className: "abh-matrix" }, ...rows.map((row) => make("tr", {}, ...row.map((cell) => make("td", {}, cell))))),
    ),
  );
  return [...figures, ...notes.map((note) => make("p", {}, ...marked(note)))];
}

/** A question as the build writes it (render/practice.py: check_item), from a set's data. */
function questionItem(question) {
  const data = {
    "data-path": question.path,
    "data-answer": String(question.answer),
    "data-tolerance": String(question.tolerance),
  };
  if (question.low !== null && question.low !== undefined) data["data-low"] = String(question.low);
  if (question.high !== null && question.high !== undefined) data["data-high"] = String(question.high);
  if (question.whole) data["data-whole"] = "true";
  if (question.why) data["data-why"] = question.why;
  return make(
    "li",
    { className: "abh-practice-check", ...data },
    make("span", { className: "abh-practice-label" }, ...marked(question.label), "."),
    " ",
    make("span", { className: "abh-practice-tolerance" }, question.stated),
    make(
      "div",
      { className: "abh-practice-solution", hidden: true },
      make("p", {}, "Worked solution"),
      make("ol", {}, ...question.solution.map((line) => make("li", {}, ...marked(line)))),
    ),
  );
}

/** One check of the practice: its answer form, range and worked solution. */
function practiceCheck(item, index, page, current, onChange) {
  const data = item.dataset;
  const optional = (name) => (data[name] === undefined ? null : Number(data[name]));
  const range = { low: optional("low"), high: optional("high"), whole: data.whole === "true", why: data.why ?? "" };
  const label = item.querySelector(".abh-practice-label") ?? make("span", { className: "abh-practice-label" });
  const stated = item.querySelector(".abh-practice-tolerance");
  const store = {
    get() {
      const list = page.state.practice[current.number];
      return answerRecord(Array.isArray(list) ? list[index] : null);
    },
    set(record) {
      const list = Array.isArray(page.state.practice[current.number]) ? page.state.practice[current.number] : [];
      list[index] = record;
      page.state.practice[current.number] = list;
    },
  };
  const check = gradedAnswer({
    label,
    inputId: newId("abh-practice-answer"),
    store,
    answer: () => Number(data.answer),
    tolerance: () => Number(data.tolerance),
    range: () => range,
    onChange,
  });
  if (stated) {
    stated.id = newId("abh-practice-tolerance");
    check.input.setAttribute("aria-describedby", stated.id);
  }

  // The build's hidden solution becomes a folded one that opens by the book-wide rule.
  const lines = item.querySelector(".abh-practice-solution ol") ?? make("ol");
  const solution = make("details", { className: "abh-practice-solution" }, make("summary", {}, "Worked solution"), lines);
  const step = lockable(solution, () => !check.landed() && check.attempts() < SOLUTION_AFTER);
  item.replaceChildren(check.form, ...(stated ? [stated] : []), solution);

  return {
    ...check,
    render() {
      check.render();
      step.render(opensAfter(SOLUTION_AFTER, check.attempts(), true));
    },
  };
}

export function makePractice(element, page) {
  const slug = element.dataset.practice;
  const count = Number(element.dataset.count) || 0;
  const source = element.dataset.source;
  const list = element.querySelector(".abh-practice-checks") ?? element.appendChild(make("ol", { className: "abh-practice-checks" }));
  const inputs = element.querySelector(".abh-practice-inputs") ?? make("div", { className: "abh-practice-inputs" });
  // The set the build wrote into the page (set 1: new numbers, so that no answer is one the lesson
  // showed); it needs no data file. The others, the lesson's own set 0 among them, are in it.
  const first = {
    variant: Number(element.dataset.variant) || 0,
    fixture: element.dataset.fixture,
    // kept as built: each showing enhances fresh copies
    items: [...list.querySelectorAll("li.abh-practice-check[data-path][data-answer]")].map((item) => item.cloneNode(true)),
    panel: [...inputs.childNodes],
  };
  const current = { number: 0 };
  const title = make("p", { className: "abh-practice-title", "aria-live": "polite" });
  const newNumbers = make("button", { type: "button", className: "abh-button abh-new-numbers" }, "New numbers");
  const ownNumbers = make("button", { type: "button", className: "abh-button abh-own-numbers" }, "The lesson's numbers");
  const link = make("a", { className: "abh-practice-link" }, "Link to these numbers");
  const notice = make("p", { className: "abh-practice-notice", role: "status", hidden: true });
  element
    .querySelector(".abh-practice-intro")
    ?.replaceChildren(
      `The same kind of question on new numbers: ${count} sets, and the lesson's own as set 0. `,
      "Each set has a number of its own, so a link to it shows the same numbers anywhere.",
    );
  inputs.before(title, make("div", { className: "abh-practice-actions" }, newNumbers, " ", ownNumbers, " ", link), notice);

  let checks = [];
  const onChange = (evaluated) => (evaluated ? page.refresh() : page.save());
  /** The checks of a set: the page's own items for the page's set, else items made from its data. */
  function putUp(items) {
    list.replaceChildren(...items);
    checks = items.map((item, index) => practiceCheck(item, index, page, current, onChange));
  }

  function say(text) {
    notice.textContent = text;
    notice.hidden = !text;
  }

  /** Shows a set: {variant, fixture (JSON text for the page's set), items or questions, panel or inputs}. */
  function show(set) {
    current.number = set.variant;
    element.dataset.variant = String(set.variant);
    element.dataset.fixture = typeof set.fixture === "string" ? set.fixture : JSON.stringify(set.fixture);
    inputs.replaceChildren(...(set.panel ?? inputsPanel(set.inputs ?? {})));
    putUp(set.items ? set.items.map((item) => item.cloneNode(true)) : (set.questions ?? []).map(questionItem));
    title.textContent =
      set.variant === 0 ? "The lesson's own numbers (set 0)." : `New numbers: set ${set.variant} of ${count}.`;
    link.setAttribute("href", addressOf(set.variant, first.variant));
    ownNumbers.hidden = set.variant === 0;
    newNumbers.hidden = count === 0;
    checks.forEach((check) => check.restore());
    page.refresh();
  }

  /** Set `number`, loading the data file first when it is not the page's own set. */
  async function go(number, message = "") {
    say(message);
    if (number === first.variant) return show(first);
    try {
      const sets = await loadSets(slug, source);
      const set = sets.variants?.find((candidate) => candidate.variant === number);
      if (!set) throw new Error(`no set ${number}`);
      show(set);
    } catch {
      show(first);
      say("Those numbers could not be loaded, so these are the page's own set. Try again later.");
    }
  }

  const moved = (number) => history.replaceState(history.state, "", addressOf(number, first.variant));
  // A click while the data file loads is ignored rather than the button disabled: disabling
  // it would drop a keyboard reader's focus.
  let busy = false;
  newNumbers.addEventListener("click", async () => {
    if (busy) return;
    busy = true;
    try {
      await go((current.number % count) + 1);
      moved(current.number);
    } finally {
      busy = false;
    }
  });
  ownNumbers.addEventListener("click", async () => {
    await go(0);
    moved(0);
    newNumbers.focus(); // this button hides on the lesson's own numbers; focus must not drop with it
  });

  show(first);
  const asked = variantFromAddress(location.search, count, first.variant);
  const started = go(asked.number, asked.notice);

  return {
    started,
    restore: () => checks.forEach((check) => check.restore()),
    render: () => checks.forEach((check) => check.render()),
  };
}
