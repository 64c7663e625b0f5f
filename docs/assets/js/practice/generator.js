/**
 * A lesson's practice generator in the browser: twin of macros/practice/generator.py (its
 * docstring specifies the syntax, the constraints and the order of drawing).
 *
 * It reads the generator in its JSON form (generator.py's to_plain: fields already expanded,
 * ranges already in whole numbers), draws with prng.js and checks with the engine's twin,
 * so a variant's numbers are the same as the build's, bit for bit.
 */

import { trace } from "../engine.js";
import { Stream } from "./prng.js";

const SLACK = 1e-9;
const FINITE = "finite weights and outputs (no overflow)";

function at(data, path) {
  return path.reduce((value, key) => value[key], data);
}

/** The value at a dotted trace path (heads.0.weights.2.0), or null when there is none. */
export function resolveTrace(data, path) {
  let value = data;
  for (const part of String(path).split(".")) {
    if (Array.isArray(value) && /^\d+$/.test(part) && Number(part) < value.length) value = value[Number(part)];
    else if (value !== null && typeof value === "object" && !Array.isArray(value) && part in value) value = value[part];
    else return null;
  }
  return value;
}

/** One draw: the lesson's own fixture with the drawn fields replaced, from the stream's next numbers. */
export function drawFixture(spec, base, stream) {
  const fixture = structuredClone(base);
  for (const d of spec.draws) {
    const [rows, cols] = d.shape;
    const ks = Array.from({ length: rows }, () => Array.from({ length: cols }, () => stream.integer(d.lo, d.hi)));
    const matrix = ks.map((row) => row.map((k) => (d.values !== null ? d.values[k] : k / d.divide)));
    at(fixture, d.path.slice(0, -1))[d.path[d.path.length - 1]] = matrix;
  }
  return fixture;
}

const headsRows = (t, field) => t.heads.flatMap((head) => head[field]);

function finite(t) {
  const rows = [...headsRows(t, "weights"), ...headsRows(t, "output"), ...t.output];
  return rows.every((row) => row.every((x) => x !== null));
}

const CHECKS = {
  no_tied_top_weight(t, margin) {
    return headsRows(t, "weights").every((row) => {
      const ranked = [...row].sort((a, b) => b - a);
      return !(ranked.length > 1 && ranked[0] - ranked[1] <= margin + SLACK);
    });
  },
  scores_within(t, bound) {
    return headsRows(t, "scores").every((row) => row.every((x) => x !== null && Math.abs(x) <= bound + SLACK));
  },
  no_fully_masked_row(t) {
    return headsRows(t, "scaled").every((row) => row.some((x) => x !== null));
  },
};

/** The index into spec.require of the first constraint the trace fails; -1 for overflow; null if all hold. */
export function firstFailure(spec, t) {
  if (!finite(t)) return -1;
  const index = spec.require.findIndex(({ name, value }) => !CHECKS[name](t, value));
  return index === -1 ? null : index;
}

/** A number as Python's `{:g}` writes the constraint values a lesson uses (8, 0.01, 1e-06). */
function g(value) {
  if (value !== 0 && (Math.abs(value) < 1e-4 || Math.abs(value) >= 1e6)) {
    const [mantissa, exponent] = value.toExponential().split("e");
    const e = Number(exponent);
    return `${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  return String(Number(value.toPrecision(6)));
}

function label(spec, index) {
  if (index === -1) return FINITE;
  const { name, value } = spec.require[index];
  return value === null ? name : `${name}: ${g(value)}`;
}

/**
 * Variant `number`'s fixture and trace (both in their JSON forms); variant 0 is the lesson's
 * own. Throws an Error worded as the build's message when no draw satisfies the constraints.
 */
export function variant(spec, base, number) {
  if (number === 0) return { fixture: base, trace: trace(base) };
  const stream = new Stream(spec.seed, number);
  const failures = new Map();
  for (let tries = 0; tries < spec.max_tries; tries++) {
    const fixture = drawFixture(spec, base, stream);
    const t = trace(fixture);
    const failed = firstFailure(spec, t);
    if (failed === null) return { fixture, trace: t };
    failures.set(failed, (failures.get(failed) ?? 0) + 1);
  }
  let worst = null;
  for (const [index, count] of failures) {
    if (worst === null || count > failures.get(worst) || (count === failures.get(worst) && index < worst)) worst = index;
  }
  const where = worst === -1 ? "practice.draw" : `practice.require[${worst}]`;
  throw new Error(
    `${where}: expected numbers satisfying ${label(spec, worst)} within ${spec.max_tries} draws (variant ${number}), ` +
      `got ${failures.get(worst)} of ${spec.max_tries} draws failing it`,
  );
}

/** The graded values of a variant, read from its trace at the spec's paths. */
export function answers(spec, t) {
  return spec.answers.map((path) => resolveTrace(t, path));
}
