/**
 * Progress across lessons, read from each lesson's stored state (state.js): "done" on the
 * home page's track map, and on an optional lesson's facts line whether the lessons it
 * requires are done.
 */

import { make } from "./dom.js";
import { readState } from "./state.js";

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
export function markPrerequisites(facts, lesson) {
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

export function markTrack() {
  for (const entry of document.querySelectorAll(".track-lesson[data-lesson]")) {
    const status = entry.querySelector(".track-status");
    if (!status) continue;
    const done = isDone(entry.dataset.lesson);
    status.textContent = done ? "done" : "";
    status.classList.toggle("abh-done", done);
  }
}
