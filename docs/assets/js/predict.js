/**
 * Predictions locked in before the computation they predict, and the content they reveal.
 * The markup is macros/render/widgets.py's predict(): `.abh-predict[data-predict][data-correct]`
 * holds radio inputs (values from 1) and `[data-predict-feedback]`, a folded list with each
 * option's text (`.abh-option-text`) and its own reason (`.abh-reason`).
 *
 * - The feedback is hidden until the reader locks a choice in; then it opens with a verdict
 *   that carries the chosen option's reason, and focus moves to it. A wrong option's reason
 *   says why it fails without naming the right one (the build refuses one that does), so
 *   the reader can choose again having learnt something, not having been told.
 * - A wrong choice never blocks: the reader, having read why, may choose again and lock in
 *   again. A right choice is final. Every lock-in is recorded (state.predictions[name].tries);
 *   the last one counts, and a gate with data-with-prediction reports it.
 * - After the right choice, the other options follow the verdict, each once with its own
 *   reason: what each answer means.
 * - Enter on a radio locks it in, as the Lock in button does.
 */

import { make, newId } from "./dom.js";
import { isObject } from "./state.js";

export function makePrediction(element, page) {
  const name = element.dataset.predict;
  const correct = Number(element.dataset.correct);
  const question = element.querySelector(".abh-question");
  const radios = [...element.querySelectorAll("input[type=radio]")];
  const numbers = radios.map((radio) => Number(radio.value));
  const feedback = element.querySelector("[data-predict-feedback]");
  const items = [...(feedback?.querySelectorAll("li[data-option]") ?? [])];
  const summary = feedback?.querySelector(":scope > summary");
  const summaryText = summary?.textContent ?? "";
  const verdict = make("p", { className: "abh-verdict", tabIndex: -1, id: newId(`abh-verdict-${name}`) });
  feedback?.querySelector("ol, ul")?.before(verdict);
  const button = make("button", { type: "button", className: "abh-button abh-lock" }, "Lock in");
  const notice = make("span", { className: "abh-predict-notice", "aria-live": "polite" });
  (element.querySelector("fieldset") ?? element).after(make("div", { className: "abh-predict-actions" }, button, " ", notice));

  /** Every lock-in so far, in order; anything stored that is not an option is dropped. */
  const tries = () => {
    const stored = page.state.predictions[name];
    const list = isObject(stored) && Array.isArray(stored.tries) ? stored.tries : [];
    return list.filter((n) => numbers.includes(n));
  };
  const last = () => tries().at(-1);
  const isFinal = () => last() === correct;

  function lockIn() {
    const chosen = radios.find((radio) => radio.checked);
    if (!chosen) {
      notice.textContent = "Choose one of the options first.";
      return;
    }
    notice.textContent = "";
    const number = Number(chosen.value);
    if (!isFinal() && number !== last()) {
      page.state.predictions[name] = { tries: [...tries(), number] }; // the same choice again adds nothing
      page.refresh();
    }
    feedback.open = true;
    verdict.focus();
  }

  button.addEventListener("click", lockIn);
  element.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.matches?.("input[type=radio]")) {
      event.preventDefault();
      lockIn();
    }
  });
  element.addEventListener("change", () => (notice.textContent = ""));

  function render() {
    const chosen = last();
    const locked = chosen !== undefined;
    const final = isFinal();
    for (const radio of radios) {
      if (final) radio.checked = Number(radio.value) === correct;
      radio.disabled = final;
      radio.closest("label")?.classList.toggle("abh-chosen", final && radio.checked);
    }
    button.disabled = final;
    button.textContent = final ? "Locked in" : locked ? "Lock in another answer" : "Lock in";
    element.classList.toggle("abh-locked", final);
    if (!feedback) return;
    feedback.hidden = !locked;
    if (!locked) {
      feedback.open = false;
      return;
    }
    // The verdict carries the chosen option's reason (focus lands on it, so it is read out);
    // after the right choice, the other options' reasons show below it.
    const chosenItem = items.find((item) => Number(item.dataset.option) === chosen);
    const reason = (chosenItem?.querySelector(".abh-reason") ?? chosenItem)?.textContent.trim() ?? "";
    for (const item of items) {
      item.value = Number(item.dataset.option); // the list keeps the options' numbers when some are hidden
      item.hidden = !final || item.value === chosen;
    }
    if (summary) summary.textContent = final ? summaryText : "Why not";
    verdict.className = `abh-verdict ${final ? "abh-right" : "abh-wrong"}`;
    const count = tries().length;
    const heading = make("strong", {}, final ? "Locked in: right." : "Locked in: not right.");
    const again = final
      ? count > 1
        ? ` You found it on lock-in ${count}.`
        : ""
      : " Choose again if you like: a wrong prediction does not hold you back.";
    verdict.replaceChildren(heading, ` ${reason}${again}`);
  }

  return {
    name,
    question: question?.textContent.trim() ?? "",
    locked: () => last() !== undefined,
    /** The last lock-in, as a gate reports it: {state, tries}. */
    final() {
      const count = tries().length;
      if (!count) return { state: "not chosen yet", tries: 0 };
      return { state: isFinal() ? "right" : "not right", tries: count };
    },
    restore() {
      notice.textContent = "";
      const chosen = last();
      for (const radio of radios) radio.checked = Number(radio.value) === chosen;
      if (feedback) feedback.open = chosen !== undefined;
    },
    render,
  };
}

/** Content hidden until a prediction is locked in (right or not), with a note in its place. */
export function makeReveal(element, page) {
  const prediction = page.predictions.get(element.dataset.revealAfter);
  if (!prediction) return null; // no such prediction on the page: never hide content for good
  const note = make(
    "p",
    { className: "abh-reveal-note" },
    `This part opens when you lock in your answer to “${prediction.question}”`,
  );
  element.before(note);
  return {
    render() {
      const locked = prediction.locked();
      element.hidden = !locked;
      note.hidden = locked;
    },
  };
}
