/**
 * Numbers a reader types, read and graded the same way everywhere (the lesson's checks, the
 * practice, the labs' cells).
 *
 * "−" (U+2212) and "–" count as a minus sign; a comma counts as the decimal point only when
 * it cannot be a thousands separator ("0,46", "12,5", "1,2345" yes; "1,376" is refused with a
 * message, since it could be 1.376 or 1376). Where the answer is a whole number (a count), commas
 * that group digits by three are thousands separators: "12,288" and "1,572,864" are read whole.
 */

import { MINUS } from "./format.js";

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;
const THOUSANDS_LOOKALIKE = /^[+-]?[1-9]\d{0,2},\d{3}$/;
const GROUPED = /^\s*[+\-\u2212]?[1-9]\d{0,2}(,\d{3})+\s*$/;

/** A count as typed, its digits grouped by commas ("12,288"), without the separators. */
export function ungrouped(raw) {
  return GROUPED.test(String(raw)) ? String(raw).replace(/,/g, "") : raw;
}

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

/** What a check says about input it did not evaluate; none of it counts as an attempt. */
export const INPUT_NOTICES = {
  empty: "Type a number first; nothing was counted.",
  "not-a-number": `That is not a number; type one such as 0.25 or ${MINUS}1. Nothing was counted.`,
  ambiguous:
    "With a comma this could be a thousands separator; write the decimal point as a point. Nothing was counted.",
  "too-large": "That number is too large to check; nothing was counted.",
};

/**
 * A typed answer graded: {notice} when it is not evaluated (not a number, or outside the
 * quantity's range: `low`, `high`, `whole`, said with `why`), else {right}.
 */
export function grade(raw, answer, tolerance, range = {}) {
  const { low = null, high = null, whole = false, why = "" } = range;
  const parsed = parseNumber(whole ? ungrouped(raw) : raw);
  if (parsed.error) return { notice: INPUT_NOTICES[parsed.error] };
  const outside = (low !== null && parsed.value < low) || (high !== null && parsed.value > high);
  if (outside || (whole && !Number.isInteger(parsed.value))) {
    const reason = why || (whole ? "the answer is a whole number" : "the answer cannot take that value");
    return { notice: `Not counted: ${reason}.` };
  }
  return { right: lands(parsed.value, answer, tolerance) };
}
