/**
 * Small DOM helpers shared by the widget modules. Everything a reader types is shown back
 * through textContent or an input's value only, never as markup: make() appends strings as
 * text nodes.
 */

import { MINUS } from "./format.js";

/** An element with properties, attributes ("aria-*", "data-*") and children. */
export function make(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name.includes("-")) element.setAttribute(name, value);
    else element[name] = value;
  }
  element.append(...children);
  return element;
}

let idCount = 0;
export const newId = (prefix) => `${prefix}-${++idCount}`;

export const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** A number as prose writes it: the typographic minus. */
export const asText = (x) => String(x).replace("-", MINUS);

/**
 * A <details> that must stay shut while `locked()` says so: a click, Enter or Space on its
 * summary, find in page or a script would open it. Returns {render(lockText)}: it closes the
 * details while locked and shows `lockText` (why, and when it opens) in the summary.
 */
export function lockable(details, locked) {
  let summary = details.querySelector(":scope > summary");
  if (!summary) details.prepend((summary = make("summary", {}, "Hint")));
  const lock = make("span", { className: "abh-hint-lock" });
  summary.append(lock);
  summary.addEventListener("click", (event) => {
    if (locked()) event.preventDefault();
  });
  details.addEventListener("toggle", () => {
    if (details.open && locked()) details.open = false;
  });
  return {
    summary,
    render(lockText) {
      const isLocked = locked();
      if (isLocked) details.open = false;
      details.classList.toggle("abh-locked", isLocked);
      summary.setAttribute("aria-disabled", String(isLocked));
      lock.textContent = isLocked ? ` ${lockText}` : "";
    },
  };
}
