/**
 * Worksheets and their answer keys, laid out for print from the lessons' practice data.
 *
 * The pages are macros/render/worksheets.py's (its docstring is the contract): `main#abh-sheets`
 * lists the lessons in `data-lessons`; each lesson's sets are its `practice.js`, the data file
 * its practice panel loads (`window.abhPractice[slug] = {count, variants: [{variant, questions,
 * inputs}]}`), loaded here by a classic <script src> so that a page opened from disk works too.
 * Every number shown is a text of that file, or one of its numbers formatted by format.js (the
 * build's formatter's twin): nothing is computed here.
 *
 * - A student's sheet: the set number and a line for a name; per lesson, the numbers as tables
 *   and notes, then each question in the panel's words with how close an answer must be and
 *   room to work. No answer, hint or worked solution is put in its DOM.
 * - The key, asked for apart (`key=1`): per set and lesson, each question's answer as the page
 *   writes it, its exact value, how close an answer must be, its range, and its worked solution.
 * - The address holds the choice, so a link prints the same sheets: `set=N` on a lesson's
 *   worksheet; `lessons=a,b&from=M&to=N` on the class set; `key=1` for the key.
 * - <html> gets `data-abh-ready` once the sheets are laid out (or the reason they are not is shown).
 */

import { make } from "./dom.js";
import { formatNumber, MINUS } from "./format.js";
import { subscriptParts } from "./practice.js";

const DEFAULT_COUNT = 20;

/** Plain text as nodes, a symbol's subscript in a <sub> (as the practice panel shows it). */
function marked(text) {
  return subscriptParts(String(text)).map(([part, sub]) => (sub ? make("sub", {}, part) : part));
}

/** A whole number with its thousands grouped by commas, as the questions allow it typed: 12,288. */
function grouped(value) {
  const digits = String(Math.abs(Math.round(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (value < 0 ? MINUS : "") + digits;
}

/** The answer as the key writes it: whole numbers whole, others to the lesson's decimals. */
export function answerText(question, decimals) {
  return question.whole ? grouped(question.answer) : formatNumber(question.answer, decimals);
}

/** The exact value, every digit the data file holds (JavaScript and Python write a double alike). */
export function exactText(value) {
  return String(value).replace("-", MINUS);
}

/** The set's name as a sheet prints it. */
function setName(number, count) {
  return number === 0 ? "Set 0 (the lesson's own numbers)" : `Set ${number} of ${count}`;
}

/** The numbers of a set: a table per matrix, a paragraph per note. */
function inputs({ tables = [], notes = [] }) {
  const figures = tables.map(([caption, rows]) =>
    make(
      "figure",
      { className: "abh-sheet-table" },
      make("figcaption", {}, ...marked(caption)),
      make("table", {}, make("tbody", {}, ...rows.map((row) => make("tr", {}, ...row.map((cell) => make("td", {}, cell)))))),
    ),
  );
  return make("div", { className: "abh-sheet-inputs" }, ...figures, ...notes.map((note) => make("p", {}, ...marked(note))));
}

/** A student's question: its words, how close an answer must be, and room to work. No answer.
 * The answer line names the set, so that a page that comes loose still meets its key. */
function studentQuestion(question, tag) {
  return make(
    "li",
    { className: "abh-sheet-question" },
    make("p", { className: "abh-sheet-label" }, ...marked(question.label), "."),
    make("p", { className: "abh-sheet-stated" }, question.stated),
    make("div", { className: "abh-sheet-work" }),
    make("p", { className: "abh-sheet-answer-line" }, ...marked(`Answer (${tag}): ______________________`)),
  );
}

/** A question in the key: its answer, exact value, tolerance, range and worked solution. */
function keyQuestion(question, decimals) {
  const range = question.why ? [make("p", {}, `An answer outside the range is refused: ${question.why}.`)] : [];
  return make(
    "li",
    { className: "abh-key-question" },
    make("p", { className: "abh-sheet-label" }, ...marked(question.label), "."),
    make(
      "p",
      { className: "abh-key-answer" },
      make("strong", {}, "Answer: ", answerText(question, decimals)),
      ` (exact value ${exactText(question.answer)}). `,
      question.stated,
    ),
    ...range,
    make("p", { className: "abh-key-worked" }, "Worked solution"),
    make("ol", { className: "abh-key-solution" }, ...question.solution.map((line) => make("li", {}, ...marked(line)))),
  );
}

/** One lesson on one set, for a student or for the key. */
function lessonPart(lesson, sets, number, key) {
  const set = sets.variants.find((candidate) => candidate.variant === number);
  const heading = make("h3", {}, ...marked(lesson.title), `: ${setName(number, sets.count)}`);
  if (!set) return make("section", { className: "abh-sheet-lesson" }, heading, make("p", {}, `This lesson has no set ${number}.`));
  const questions = key
    ? set.questions.map((question) => keyQuestion(question, lesson.decimals))
    : set.questions.map((question, i) => studentQuestion(question, `set ${number}, ${lesson.title}, question ${i + 1}`));
  return make(
    "section",
    { className: "abh-sheet-lesson", "data-slug": lesson.slug, "data-set": String(number) },
    heading,
    ...(key ? [] : [inputs(set.inputs ?? {})]),
    make("ol", { className: key ? "abh-key-questions" : "abh-sheet-questions" }, ...questions),
  );
}

/** One student's sheet (or its key): the chosen lessons on set `number`, starting a page. */
function sheet(chosen, number, key) {
  const title = key ? `Answer key, set ${number}` : `Worksheet, set ${number}`;
  const top = key
    ? [make("p", { className: "abh-key-note" }, "For the teacher: not to be handed out.")]
    : [make("p", { className: "abh-sheet-name" }, "Name: ________________________________")];
  return make(
    "article",
    { className: key ? "abh-key" : "abh-sheet", "data-set": String(number) },
    make("h2", {}, title),
    ...top,
    ...chosen.map(([lesson, sets]) => lessonPart(lesson, sets, number, key)),
  );
}

const loading = new Map(); // source -> Promise

/** A lesson's sets: already on the page, or loaded once from its data file. */
function load(lesson) {
  const ready = () => window.abhPractice?.[lesson.slug] ?? null;
  if (ready()) return Promise.resolve(ready());
  if (!loading.has(lesson.source)) {
    const promise = new Promise((resolve, reject) => {
      const script = make("script", { src: new URL(lesson.source, document.baseURI).href });
      script.addEventListener("load", () => (ready() ? resolve(ready()) : reject(new Error(lesson.title))));
      script.addEventListener("error", () => reject(new Error(lesson.title)));
      document.head.append(script);
    });
    promise.catch(() => loading.delete(lesson.source));
    loading.set(lesson.source, promise);
  }
  return loading.get(lesson.source);
}

/** A whole number from the address, within [low, high], or `fallback`. */
function wholeIn(raw, low, high, fallback) {
  return /^\d{1,4}$/.test(raw ?? "") && Number(raw) >= low && Number(raw) <= high ? Number(raw) : fallback;
}

/** The choice the address makes: {slugs, from, to, key}. */
export function choiceFrom(search, lessons, single) {
  const params = new URLSearchParams(search);
  const known = new Set(lessons.map((lesson) => lesson.slug));
  const key = params.get("key") === "1";
  if (single) {
    const number = wholeIn(params.get("set"), 0, DEFAULT_COUNT, 1);
    return { slugs: [lessons[0].slug], from: number, to: number, key };
  }
  const slugs = (params.get("lessons") ?? "").split(",").filter((slug) => known.has(slug));
  const from = wholeIn(params.get("from"), 0, DEFAULT_COUNT, 1);
  const to = Math.max(from, wholeIn(params.get("to"), 0, DEFAULT_COUNT, from));
  return { slugs, from, to, key };
}

/** The address of a choice, for the page's own link. */
function searchOf(choice, single) {
  const params = new URLSearchParams();
  if (single) params.set("set", String(choice.from));
  else {
    params.set("lessons", choice.slugs.join(","));
    params.set("from", String(choice.from));
    params.set("to", String(choice.to));
  }
  if (choice.key) params.set("key", "1");
  return `?${params}`;
}

let fieldCount = 0;
/** A labelled control. */
function field(labelText, control) {
  control.id = `abh-sheets-field-${++fieldCount}`;
  return make("p", { className: "abh-sheets-field" }, make("label", { htmlFor: control.id }, labelText), " ", control);
}

const setInput = (value) => make("input", { type: "number", min: "0", max: String(DEFAULT_COUNT), step: "1", value: String(value) });

/** The form: lessons (class set), sets, sheets or key, print. Calls `changed(choice)`. */
function controls(form, lessons, single, choice, changed) {
  const boxes = new Map();
  const parts = [];
  if (!single) {
    const chapters = [...new Set(lessons.map((lesson) => lesson.chapter))];
    for (const chapter of chapters) {
      const items = lessons
        .filter((lesson) => lesson.chapter === chapter)
        .map((lesson) => {
          const box = make("input", { type: "checkbox", value: lesson.slug, checked: choice.slugs.includes(lesson.slug) });
          box.id = `abh-sheets-lesson-${lesson.slug}`;
          boxes.set(lesson.slug, box);
          return make("li", {}, box, " ", make("label", { htmlFor: box.id }, ...marked(lesson.title)));
        });
      parts.push(make("fieldset", {}, make("legend", {}, chapter), make("ul", {}, ...items)));
    }
  }
  const from = setInput(choice.from);
  const to = setInput(choice.to);
  const sets = single
    ? [field("Set of numbers (0 is the lesson's own)", from)]
    : [field("First student's set", from), field("Last student's set", to)];
  const sheets = make("input", { type: "radio", name: "abh-sheets-what", value: "sheets", checked: !choice.key, id: "abh-sheets-students" });
  const key = make("input", { type: "radio", name: "abh-sheets-what", value: "key", checked: choice.key, id: "abh-sheets-key" });
  const what = make(
    "fieldset",
    {},
    make("legend", {}, "What to print"),
    make("p", {}, sheets, " ", make("label", { htmlFor: sheets.id }, single ? "The student's sheet" : "The students' sheets")),
    make("p", {}, key, " ", make("label", { htmlFor: key.id }, "The answer key")),
  );
  const print = make("button", { type: "button", className: "abh-sheets-print" }, "Print");
  print.addEventListener("click", () => window.print());
  form.replaceChildren(...parts, ...sets, what, make("p", {}, print));
  const read = () => {
    const first = wholeIn(from.value, 0, DEFAULT_COUNT, choice.from);
    return {
      slugs: single ? choice.slugs : lessons.filter((lesson) => boxes.get(lesson.slug).checked).map((lesson) => lesson.slug),
      from: first,
      to: single ? first : Math.max(first, wholeIn(to.value, 0, DEFAULT_COUNT, first)),
      key: key.checked,
    };
  };
  form.addEventListener("change", () => changed(read()));
  form.addEventListener("submit", (event) => event.preventDefault());
}

/** Lays out the sheets of a choice: one per set, each with every chosen lesson. */
async function layOut(main, lessons, choice, single) {
  const bySlug = new Map(lessons.map((lesson) => [lesson.slug, lesson]));
  const chosen = choice.slugs.map((slug) => bySlug.get(slug));
  try {
    history.replaceState(history.state, "", searchOf(choice, single));
  } catch {
    // Some browsers refuse to change a file:// address; the sheets are the same.
  }
  if (chosen.length === 0) {
    main.replaceChildren(make("p", { className: "abh-sheets-status" }, "Choose at least one lesson to print."));
    return;
  }
  try {
    const data = await Promise.all(chosen.map(load));
    const pairs = chosen.map((lesson, i) => [lesson, data[i]]);
    const numbers = Array.from({ length: choice.to - choice.from + 1 }, (_, i) => choice.from + i);
    main.replaceChildren(...numbers.map((number) => sheet(pairs, number, choice.key)));
  } catch (error) {
    main.replaceChildren(make("p", { className: "abh-sheets-status", role: "alert" }, `The numbers of ${error.message} could not be loaded.`));
  }
}

async function start() {
  const main = document.getElementById("abh-sheets");
  const form = document.querySelector(".abh-sheets-form");
  if (!main || !form) return;
  const lessons = JSON.parse(main.dataset.lessons);
  const single = main.hasAttribute("data-single");
  const choice = choiceFrom(location.search, lessons, single);
  controls(form, lessons, single, choice, (next) => layOut(main, lessons, next, single));
  await layOut(main, lessons, choice, single);
  document.documentElement.dataset.abhReady = "";
}

if (typeof document !== "undefined") start();
