/**
 * The reader's own words: a takeaway per lesson (`.abh-takeaway[data-takeaway]`, holding the
 * book's takeaway as text) and one line on why beside a prediction (`.abh-why[data-why]`).
 *
 * A takeaway box starts empty: the book's own takeaway stays hidden until the reader saves
 * theirs, so it is a comparison, not a model answer to copy. Without the script the book's
 * takeaway simply shows. Text is kept in state.takeaways / state.whys as typed and only ever
 * shown back as a value.
 */

import { make, newId } from "./dom.js";
import { isObject } from "./state.js";

/** A takeaway's record, read field by field: {text, saved}. */
function takeawayRecord(stored) {
  if (typeof stored === "string") return { text: stored, saved: false }; // kept by an older page
  const record = isObject(stored) ? stored : {};
  return { text: typeof record.text === "string" ? record.text : "", saved: record.saved === true };
}

export function makeTakeaway(element, page) {
  const name = element.dataset.takeaway;
  const record = () => takeawayRecord(page.state.takeaways[name]);
  const id = newId(`abh-takeaway-${name}`);
  const textarea = make("textarea", { id, className: "abh-takeaway-text", rows: 4 });
  const save = make("button", { type: "button", className: "abh-button abh-takeaway-save" }, "Save my takeaway");
  const notice = make("span", { className: "abh-takeaway-notice", "aria-live": "polite" });
  const book = make(
    "div",
    { className: "abh-takeaway-book", tabIndex: -1 },
    make("p", { className: "abh-takeaway-book-label" }, "The book's takeaway, to compare with yours"),
    ...element.childNodes,
  );
  element.replaceChildren(
    make(
      "label",
      { htmlFor: id, className: "abh-takeaway-label" },
      "Your takeaway, in your own words (kept in this browser)",
    ),
    textarea,
    make("div", { className: "abh-takeaway-actions" }, save, " ", notice),
    book,
  );

  textarea.addEventListener("input", () => {
    page.state.takeaways[name] = { ...record(), text: textarea.value };
    notice.textContent = "";
    page.save();
  });
  save.addEventListener("click", () => {
    if (!textarea.value.trim()) {
      notice.textContent = "Write your takeaway first; then the book's shows beside it.";
      return;
    }
    const first = !record().saved;
    page.state.takeaways[name] = { text: textarea.value, saved: true };
    notice.textContent = "Saved in this browser.";
    page.refresh();
    if (first) book.focus();
  });

  return {
    render() {
      const { text, saved } = record();
      if (textarea.value !== text) textarea.value = text;
      book.hidden = !saved;
    },
    restore() {
      notice.textContent = "";
    },
  };
}

/** A one-line text box for the reader's reason; stored as text and only ever set as a value. */
export function makeWhy(element, page) {
  const name = element.dataset.why;
  const label = element.querySelector(".abh-why-label");
  const id = newId(`abh-why-${name}`);
  const input = make("input", { id, type: "text", className: "abh-why-text", autocomplete: "off" });
  const caption = make("label", { htmlFor: id, className: "abh-why-label" }, label?.textContent.trim() ?? "Why?");
  element.replaceChildren(caption, input);
  input.addEventListener("input", () => {
    page.state.whys[name] = input.value;
    page.save();
  });
  return {
    render() {
      const stored = page.state.whys[name];
      const text = typeof stored === "string" ? stored : "";
      if (input.value !== text) input.value = text;
    },
  };
}
