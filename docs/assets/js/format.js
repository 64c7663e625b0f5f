/**
 * The number formatter of macros/render/numbers.py, in JavaScript, so that a number a
 * widget recomputes reads exactly as the build would have written it.
 *
 * The rule, for a group of values shown together (a row, a matrix, a vector): when every
 * value is whole (up to float noise) they are written as integers, otherwise every value
 * gets the lesson's number of decimals, except an exact zero, always 0. Text uses the
 * typographic minus (U+2212) and never shows "-0.000". tests/test_format_js.py holds this file to format_values.
 */

export const MINUS = "\u2212";
const WHOLE_TOLERANCE = 1e-12;

/** True when every value is an integer up to float noise, as numbers.is_whole. */
export function isWhole(values) {
  return values.every((v) => Math.abs(v - Math.round(v)) <= WHOLE_TOLERANCE);
}

/** One less in the last digit of a string of digits with an optional point: "0.0313" -> "0.0312". */
function decrementLastDigit(text) {
  const point = text.indexOf(".");
  const digits = text.replace(".", "");
  const smaller = (BigInt(digits) - 1n).toString().padStart(digits.length, "0");
  return point < 0 ? smaller : `${smaller.slice(0, point)}.${smaller.slice(point)}`;
}

/**
 * Python's f"{value:.{places}f}": the exact binary value, correctly rounded, ties to even.
 *
 * toFixed rounds the exact value too, but breaks ties away from zero and switches to
 * exponent notation from 1e21 on, so both cases are handled here.
 */
function fixed(value, places) {
  const size = Math.abs(value);
  if (size >= 1e21) {
    // Such a double is an integer, and BigInt writes it exactly, as Python does.
    return BigInt(value).toString() + (places > 0 ? `.${"0".repeat(places)}` : "");
  }
  const sign = value < 0 ? "-" : "";
  let text = size.toFixed(places);
  // An exact tie at this digit is an odd multiple of 2^-(places+1); only then can
  // "away from zero" and "to even" disagree, and they do when the last digit is odd.
  const scaled = size * 2 ** (places + 1);
  const lastDigit = Number(text[text.length - 1]);
  if (Number.isInteger(scaled) && scaled % 2 === 1 && lastDigit % 2 === 1) text = decrementLastDigit(text);
  return sign + text;
}

/** numbers._digits: fixed places, and never a minus on a number that reads as zero. */
function digits(value, places) {
  const text = fixed(value, places);
  return Number(text) === 0 ? text.replace(/^-/, "") : text;
}

/** One value as text; `whole` forces or forbids integer form (null: decide from the value). */
export function formatNumber(value, places, minus = MINUS, whole = null) {
  if (!Number.isFinite(value)) return value > 0 ? "∞" : `${minus}∞`;
  const asWhole = whole === null ? isWhole([value]) : whole;
  return digits(value, asWhole ? 0 : places).replace("-", minus);
}

/**
 * A group of values (nested arrays are flattened) as texts, all in one form. A null (how a
 * trace's JSON form writes a value that is not finite) counts as not a number, as Python's
 * float(None) -> nan does in format_values.
 */
export function formatValues(values, places, minus = MINUS) {
  const flat = [values].flat(Infinity).map((v) => v ?? NaN);
  const whole = isWhole(flat);
  // Zero (up to float noise) is always 0, as in format_values: 0.000 is a number that rounds to it.
  return flat.map((v) => formatNumber(v, places, minus, whole || Math.abs(v) <= WHOLE_TOLERANCE));
}
