/**
 * The entry of the interactive layer (mkdocs.yml loads it on every page): the track map on
 * the home page, keyboard access to wide formulas, and on a lesson page its widgets. The HTML
 * contract is the module docstring of macros/render/widgets.py (and of render/practice.py for
 * the practice); every page reads fully without this script, so all it does is enhance markup
 * that is already complete, and hide what a reader should see only after trying (worked
 * content, the reveal after a prediction, a prediction's feedback).
 *
 * Modules by job: state.js (the reader's stored work), dom.js, typed-numbers.js (reading and
 * grading a typed number), checks.js (gates, hints, folds), predict.js, takeaway.js (the
 * reader's own words), track.js (progress across lessons), save-notebook.js (the notebook saved
 * from a page opened from disk), and the widgets only some pages
 * have: labs.js (with the engine's twin), practice.js, online-lab.js and rotary-lab.js, which
 * start only on a page that has them.
 * When everything is enhanced, <html> gets data-abh-ready (the browser tests wait for it).
 *
 * Pages do not load these modules: the build bundles this file and everything it imports into
 * one classic script, assets/js/book.js (macros/pages/scripts.py), because browsers refuse
 * modules from a folder on disk. The dynamic imports below stay lazy in the bundle: a widget's
 * module runs only where the page has that widget.
 */

import { makeFold, makeGate, makeHints } from "./checks.js";
import { make } from "./dom.js";
import { makePrediction, makeReveal } from "./predict.js";
import { saveNotebooksFromDisk } from "./save-notebook.js";
import { emptyState, isObject, loadState, writeState } from "./state.js";
import { makeTakeaway, makeWhy } from "./takeaway.js";
import { markPrerequisites, markTrack } from "./track.js";

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

/** "Reset this lesson", which asks first: the reader's work is gone for good once it runs. */
function resetButton(onReset) {
  const button = make("button", { type: "button", className: "abh-button abh-reset" }, "Reset this lesson");
  const yes = make("button", { type: "button", className: "abh-button abh-reset-yes" }, "Yes, clear it");
  const no = make("button", { type: "button", className: "abh-button abh-reset-no" }, "Keep it");
  const question = make(
    "span",
    { className: "abh-reset-confirm", role: "group", "aria-label": "Reset this lesson?", hidden: true },
    "Clear every answer, prediction, takeaway and edit you made on this page? ",
    yes,
    " ",
    no,
  );
  const ask = (asking) => {
    button.hidden = asking;
    question.hidden = !asking;
    (asking ? no : button).focus();
  };
  button.addEventListener("click", () => ask(true));
  no.addEventListener("click", () => ask(false));
  question.addEventListener("keydown", (event) => event.key === "Escape" && ask(false));
  yes.addEventListener("click", () => {
    onReset();
    ask(false);
  });
  return make("span", { className: "abh-reset-control" }, button, question);
}

/** Modules a page needs only when it has their widgets, loaded in parallel. */
async function optional(root, page) {
  const [labs, practice] = await Promise.all([
    root.querySelector(".abh-lab[data-lab]") ? import("./labs.js") : null,
    root.querySelector(".abh-practice[data-practice]") ? import("./practice.js") : null,
    root.querySelector(".abh-online-lab") ? import("./online-lab.js") : null, // it starts itself
    root.querySelector(".abh-rotary") ? import("./rotary-lab.js") : null, // so does this one
  ]);
  if (labs) page.labs.push(...[...root.querySelectorAll(".abh-lab[data-lab]")].map((el) => labs.makeLab(el, page)).filter(Boolean));
  if (practice) {
    const made = [...root.querySelectorAll(".abh-practice[data-practice]")].map((el) => practice.makePractice(el, page));
    page.widgets.push(...made);
    page.restorable.push(...made);
    await Promise.all(made.map((widget) => widget.started));
  }
  // Labs recompute on load only when the reader had edited them; otherwise the build's numbers stand.
  page.labs.filter((lab) => isObject(page.state.labs[lab.name])).forEach((lab) => lab.restore());
  page.refresh();
}

function enhanceLesson(root, lesson) {
  const page = { lesson, state: loadState(lesson.slug), predictions: new Map(), labs: [] };
  const all = (selector, factory) => [...root.querySelectorAll(selector)].map((el) => factory(el, page)).filter(Boolean);
  page.gates = all(".abh-gate[data-gate]", makeGate);
  for (const prediction of all(".abh-predict[data-predict]", makePrediction)) page.predictions.set(prediction.name, prediction);
  const takeaways = all(".abh-takeaway[data-takeaway]", makeTakeaway);
  page.widgets = [
    ...page.gates,
    ...page.predictions.values(),
    ...all("[data-reveal-after]", makeReveal),
    ...all(".abh-hints[data-attempts-of]", makeHints),
    ...takeaways,
    ...all(".abh-fold[data-fold-until]", makeFold),
    ...all(".abh-why[data-why]", makeWhy),
  ];
  page.restorable = [...page.gates, ...page.predictions.values(), ...takeaways];

  page.save = () => {
    page.state.visited = true;
    page.state.tracked = page.gates.length > 0;
    page.state.done = page.state.tracked && page.gates.every((gate) => gate.met());
    writeState(lesson.slug, page.state);
  };
  page.refresh = () => {
    page.widgets.forEach((widget) => widget.render());
    page.save();
  };

  const facts = root.querySelector(".lesson-facts");
  if (facts) markPrerequisites(facts, lesson);
  saveNotebooksFromDisk(root, lesson.slug);
  const interactive = page.widgets.length || root.querySelector(".abh-lab, .abh-practice");
  if (facts && interactive) {
    const reset = resetButton(() => {
      page.state = emptyState();
      page.restorable.forEach((widget) => widget.restore());
      page.labs.forEach((lab) => lab.restore());
      page.refresh();
    });
    (facts.querySelector("p") ?? facts).append(" · ", reset);
  }

  page.restorable.forEach((widget) => widget.restore());
  page.refresh();
  return optional(root, page);
}

async function start() {
  markTrack();
  focusableWideMath();
  const data = document.querySelector("script.abh-lesson");
  try {
    if (data) await enhanceLesson(document.querySelector("article") ?? document.body, JSON.parse(data.textContent));
  } finally {
    document.documentElement.dataset.abhReady = "true";
  }
}

start();
