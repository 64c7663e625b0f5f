/**
 * Graded numbers on a lesson page: the checks of a gate, the gate's status, its hint ladder
 * and the worked content folded until a first attempt. The markup is macros/render/widgets.py's
 * (its docstring is the contract); the practice on new numbers (practice.js) grades with the
 * same answer form, verdicts and solution rule.
 *
 * One rule for worked solutions, book-wide: a worked solution opens after a right answer or
 * after SOLUTION_AFTER evaluated attempts, never from the start. Hints open one by one after
 * the attempts their data-after says, and all at once when the answer is right.
 */

import { asText, lockable, make, newId, plural } from "./dom.js";
import { answerRecord } from "./state.js";
import { grade } from "./typed-numbers.js";

export const SOLUTION_AFTER = 3;

/** A labelled answer box with its Check button, result and attempt count: one form for
 * every graded number, the lesson's checks and the practice on new numbers alike. */
export function answerForm(label, inputId) {
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

/** The verdict on the last evaluated attempt; a tolerance of 0 asks for the exact value. */
function verdict(right, tolerance) {
  if (right === null) return "";
  if (tolerance === 0) return right ? "✓ Exactly right." : "✗ Not the exact value.";
  return right ? `✓ Within ${asText(tolerance)}: it counts.` : `✗ Not within ${asText(tolerance)}.`;
}

/**
 * One graded answer: its form, the typed text and the record of attempts, read and written
 * through `store` ({get(), set(record)}), so that a lesson check and a practice check (whose
 * record depends on the numbers shown) share everything else. `answer()` and `range()` are
 * read at each submission: the practice changes them with the numbers.
 */
export function gradedAnswer({ label, inputId, store, answer, tolerance, range = () => ({}), onChange }) {
  const { form, input, result, attempts } = answerForm(label, inputId);
  let notice = null; // a message about input that was not evaluated; not stored

  // Enter in the input submits the form: one path for keyboard and button.
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const graded = grade(input.value, answer(), tolerance(), range());
    const current = { ...store.get(), value: input.value };
    notice = graded.notice ?? null;
    if (!notice) {
      current.attempts += 1;
      current.right = graded.right;
      current.landed = current.landed || graded.right;
    }
    store.set(current);
    onChange(true);
  });
  input.addEventListener("input", () => {
    store.set({ ...store.get(), value: input.value });
    onChange(false);
  });

  return {
    form,
    input,
    attempts: () => store.get().attempts,
    right: () => store.get().right === true,
    landed: () => store.get().landed,
    restore() {
      input.value = store.get().value;
      notice = null;
    },
    render() {
      const { attempts: count, right } = store.get();
      input.setAttribute("aria-invalid", notice ? "true" : "false");
      const kind = notice ? "abh-invalid" : right === true ? "abh-right" : right === false ? "abh-wrong" : "";
      result.className = `abh-result ${kind}`;
      result.textContent = notice ?? verdict(right, tolerance());
      attempts.textContent = count ? `(${plural(count, "attempt")})` : "";
    },
  };
}

function makeCheck(item, gate, page) {
  const id = item.dataset.check;
  const label = item.querySelector(".abh-label") ?? make("span", { className: "abh-label" });
  const store = {
    get: () => answerRecord(page.state.checks[id]),
    set: (record) => (page.state.checks[id] = record),
  };
  const check = gradedAnswer({
    label,
    inputId: newId(`abh-answer-${id}`),
    store,
    answer: () => Number(item.dataset.answer),
    tolerance: () => gate.tolerance,
    onChange: (evaluated) => (evaluated ? page.refresh() : page.save()),
  });
  item.replaceChildren(check.form);
  return check;
}

export function makeGate(element, page) {
  const gate = {
    element,
    name: element.dataset.gate,
    need: Number(element.dataset.need),
    tolerance: Number(element.dataset.tolerance),
    withPrediction: element.dataset.withPrediction || null,
  };
  gate.checks = [...element.querySelectorAll("li.abh-check[data-check][data-answer]")].map((item) =>
    makeCheck(item, gate, page),
  );
  const status = element.querySelector("p.abh-status") ?? element.appendChild(make("p", { className: "abh-status" }));
  status.setAttribute("aria-live", "polite");

  gate.attempts = () => gate.checks.reduce((sum, check) => sum + check.attempts(), 0);
  gate.landed = () => gate.checks.filter((check) => check.right()).length;
  /** Enough numbers have landed at some attempt: what opens the gate's worked solutions. */
  gate.solved = () => gate.checks.filter((check) => check.landed()).length >= gate.need;
  /** {state: "not chosen yet" | "right" | "not right", tries}: the prediction the gate also needs. */
  gate.reading = () => page.predictions.get(gate.withPrediction)?.final() ?? { state: "not chosen yet", tries: 0 };
  gate.met = () => gate.landed() >= gate.need && (!gate.withPrediction || gate.reading().state === "right");
  gate.restore = () => gate.checks.forEach((check) => check.restore());
  gate.render = () => {
    gate.checks.forEach((check) => check.render());
    const n = gate.checks.length;
    const numbers = n === 1 ? "number" : "numbers";
    let text = `${gate.landed()} of ${n} ${numbers} within ${asText(gate.tolerance)}, ${gate.need} needed.`;
    if (gate.withPrediction) {
      const { state, tries } = gate.reading();
      const after = tries > 1 ? ` (${plural(tries, "lock-in")})` : "";
      text += ` Reading: ${state === "not chosen yet" ? state : `locked in, ${state}${after}`}.`;
    }
    if (gate.met()) text += " Check met.";
    status.textContent = text;
    status.classList.toggle("abh-met", gate.met());
    status.hidden = false;
  };
  return gate;
}

/** The text a locked step of a ladder shows: when it opens, and the reader's count so far. */
export function opensAfter(after, count, isSolution) {
  const right = isSolution ? " or a right answer" : "";
  return `Opens after ${plural(after, "evaluated attempt")}${right} (you have ${count}).`;
}

/**
 * A gate's hint ladder: `details.abh-hint[data-after]`, each locked until the gate's evaluated
 * attempts reach its data-after, or the gate is solved. A step marked data-solution (the worked
 * solution) follows the book-wide rule, SOLUTION_AFTER attempts (the build writes the same
 * number into its data-after, for the page without scripts and for outside tools).
 */
export function makeHints(element, page) {
  const gate = page.gates.find((g) => g.name === element.dataset.attemptsOf);
  if (!gate) return null; // no such gate: leave the hints as plain details
  const steps = [...element.querySelectorAll("details.abh-hint[data-after]")].map((details) => {
    const isSolution = details.hasAttribute("data-solution");
    const after = isSolution ? SOLUTION_AFTER : Number(details.dataset.after);
    const step = lockable(details, () => !gate.solved() && gate.attempts() < after);
    return { render: () => step.render(opensAfter(after, gate.attempts(), isSolution)) };
  });
  return { render: () => steps.forEach((step) => step.render()) };
}

/** "1", "1 and 3", "1, 2 and 4": positions in a sentence. */
function andList(items) {
  return items.length === 1 ? `${items[0]}` : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * Worked content hidden until the reader's first evaluated attempt at a gate, with a note in
 * its place. With data-fold-checks (positions in the gate, from 1), it holds those checks'
 * answers, so it opens by the rule of worked solutions for each of them: once every one has
 * landed or had SOLUTION_AFTER evaluated attempts.
 */
export function makeFold(element, page) {
  const gate = page.gates.find((g) => g.name === element.dataset.foldUntil);
  if (!gate) return null; // no such gate: never hide content for good
  const positions = (element.dataset.foldChecks ?? "").split(/\s+/).filter(Boolean).map(Number);
  const checks = positions.map((position) => gate.checks[position - 1]);
  if (checks.some((check) => !check)) return null; // a question the gate does not have: never hide
  const settled = (check) => check.landed() || check.attempts() >= SOLUTION_AFTER;
  const text = checks.length
    ? `The worked numbers for this part open once question${positions.length > 1 ? "s" : ""} ` +
      `${andList(positions)} of the check below ${positions.length > 1 ? "have each" : "has"} ` +
      `been answered right or tried ${SOLUTION_AFTER} times.`
    : "The worked numbers for this part open after your first attempt at the check below.";
  const note = make("p", { className: "abh-fold-note" }, text);
  element.before(note);
  return {
    render() {
      const open = checks.length ? checks.every(settled) : gate.attempts() > 0;
      element.hidden = !open;
      note.hidden = open;
    },
  };
}
