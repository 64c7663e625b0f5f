/**
 * The browser twin of the numpy engine (macros/engine/): attention step by step.
 *
 * Same steps, same names and the same order as macros/engine/steps.py, so a widget that
 * recomputes a lesson after a reader edits a matrix shows what the build would have
 * shown. tests/test_js_twin.py holds the two to 1e-9 on a few hundred shared fixtures.
 *
 * Plain float64 numbers; a matrix is an array of rows. It runs in a browser and under
 * node as it is. It imports contract.js, the trace's fields as macros/engine/trace.py
 * declares them (generated, never edited by hand), from which the JSON form and the
 * overflow guard are written; matrix.js, the product and transpose every twin shares; and
 * sequence.js, the keys of chapter 3.
 *
 * Shapes: n_q queries, n_k keys, d_k the query/key width, d_v the value width, h heads.
 */

import * as contract from "./contract.js";
import { matmul, transpose } from "./matrix.js";
import { checkParams, checkSequenceKeys, SEQUENCE_FIELDS, sequenceLayer, usesSequenceKeys } from "./sequence.js";

// ---------------------------------------------------------------- matrix helpers


/** (n, n), ones on the diagonal: W_O when a fixture leaves it out. */
function identity(n) {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
}

/** f applied to each entry of a matrix, with its row and column. */
function mapEntries(M, f) {
  return M.map((row, i) => row.map((x, j) => f(x, i, j)));
}

// ---------------------------------------------------------------- the steps

/** Step 1: a head's queries, keys or values are the input rows times a projection. */
export function project(X, W) {
  return matmul(X, W); // (n, d_model) @ (d_model, d) -> (n, d)
}

/** Step 2: each query's raw dot product with every key. */
export function score(Q, K) {
  return matmul(Q, transpose(K)); // (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k)
}

/** Step 3a: 1/sqrt(d_k), kept as its own value so a lesson can show it even when it is 1. */
export function scaleFactor(d_k) {
  return 1 / Math.sqrt(d_k);
}

/** Step 3b: scaled scores; the factor keeps dot products from growing with d_k. */
export function scale(scores, factor) {
  return mapEntries(scores, (x) => x * factor); // (n_q, n_k)
}

/** Step 4: which keys each query may see; causal means position i sees positions <= i. */
export function visibility(n_q, n_k, causal) {
  // (n_q, n_k), true = visible
  return Array.from({ length: n_q }, (_, i) => Array.from({ length: n_k }, (_, j) => !causal || j <= i));
}

/** Step 5a: subtracting the row maximum makes the largest exponent exp(0) = 1, never overflow. */
export function rowShift(scaled, visible) {
  // (n_q,)
  return scaled.map((row, i) => row.reduce((max, x, j) => (visible[i][j] ? Math.max(max, x) : max), -Infinity));
}

/** Step 5b: masked entries become -Infinity so that their exponential is exactly 0. */
export function shiftScores(scaled, visible, shift) {
  return mapEntries(scaled, (x, i, j) => (visible[i][j] ? x - shift[i] : -Infinity)); // (n_q, n_k)
}

/** Step 5c: every exponent is <= 0, so each exponential lies in [0, 1]. */
export function exponentials(shifted) {
  return mapEntries(shifted, Math.exp); // (n_q, n_k)
}

/** Step 5d: the normaliser; at least 1, since the row maximum contributes exp(0). */
export function rowSums(exps) {
  return exps.map((row) => row.reduce((sum, x) => sum + x, 0)); // (n_q,)
}

/** Step 5e: the attention weights, a probability distribution over keys per query. */
export function normalise(exps, sums) {
  return mapEntries(exps, (x, i) => x / sums[i]); // (n_q, n_k)
}

/**
 * The unshifted exponentials, kept so a lesson can show that the shift cancels out.
 * They overflow to Infinity for huge scores; that is the point a lesson makes with them.
 */
export function plainExponentials(scaled, visible) {
  return mapEntries(scaled, (x, i, j) => (visible[i][j] ? Math.exp(x) : 0)); // (n_q, n_k)
}

/** Step 5: softmax over the visible keys of each row, computed without overflow. */
export function stableSoftmax(scaled, visible) {
  const shift = rowShift(scaled, visible); // (n_q,)
  const shifted = shiftScores(scaled, visible, shift); // (n_q, n_k)
  const exps = exponentials(shifted); // (n_q, n_k)
  const sums = rowSums(exps); // (n_q,)
  const plain_exps = plainExponentials(scaled, visible); // (n_q, n_k)
  const weights = normalise(exps, sums); // (n_q, n_k)
  return { shift, shifted, exps, sums, weights, plain_exps, plain_sums: rowSums(plain_exps) };
}

/** Step 6: each query's reading is its weights' average of the value rows. */
export function weighValues(weights, V) {
  return matmul(weights, V); // (n_q, n_k) @ (n_k, d_v) -> (n_q, d_v)
}

/** Step 7: the heads' readings side by side, in head order. */
export function concatenate(outputs) {
  return outputs[0].map((_, i) => outputs.flatMap((output) => output[i])); // h x (n_q, d_v) -> (n_q, h * d_v)
}

/** Step 8: W_O mixes the heads' features back into one representation. */
export function outputProjection(concat, W_O) {
  return matmul(concat, W_O); // (n_q, h * d_v) @ (h * d_v, d_out) -> (n_q, d_out)
}

// ---------------------------------------------------------------- assembled (attention.py)

/** A single head given its queries, keys and values: steps 2 to 6 (under a given mask when one is passed). */
export function attend(Q, K, V, causal = false, mask = null) {
  const scores = score(Q, K); // (n_q, n_k)
  const factor = scaleFactor(Q[0].length);
  const scaled = scale(scores, factor); // (n_q, n_k)
  const visible = mask ?? visibility(scores.length, scores[0].length, causal); // (n_q, n_k)
  const parts = stableSoftmax(scaled, visible);
  const output = weighValues(parts.weights, V); // (n_q, d_v)
  return { Q, K, V, scores, scale: factor, scaled, visible, ...parts, output };
}

/** Steps 7 and 8: concatenate the heads and apply W_O (identity when absent). */
export function combine(heads, W_O = null) {
  const concat = concatenate(heads.map((head) => head.output)); // (n_q, h * d_v)
  const projection = W_O ?? identity(concat[0].length);
  return { heads, concat, W_O: projection, output: outputProjection(concat, projection) };
}

/** Each head projects the same X with its own W_Q, W_K, W_V: step 1, then attend. */
export function selfAttention(X, projections, causal = false, W_O = null) {
  const heads = projections.map(({ W_Q, W_K, W_V }) =>
    attend(project(X, W_Q), project(X, W_K), project(X, W_V), causal),
  );
  return combine(heads, W_O);
}

/** Head i takes the i-th equal slice of the columns: multi-head attention's split. */
export function splitColumns(M, n_heads) {
  const width = M[0].length / n_heads;
  // (n, d) -> n_heads x (n, d / n_heads)
  return Array.from({ length: n_heads }, (_, h) => M.map((row) => row.slice(h * width, (h + 1) * width)));
}

/** Queries, keys and values given directly, cut into n_heads equal column slices. */
export function splitAttention(Q, K, V, n_heads = 1, causal = false, W_O = null) {
  const [qs, ks, vs] = [Q, K, V].map((M) => splitColumns(M, n_heads));
  return combine(qs.map((q, h) => attend(q, ks[h], vs[h], causal)), W_O);
}

/** A valid fixture's whole layer, whichever form it is written in. */
export function run(fixture) {
  const causal = fixture.causal ?? false;
  const W_O = fixture.W_O ?? null;
  if ("X" in fixture && usesSequenceKeys(fixture)) return sequenceLayer(fixture, { project, visibility, attend, combine });
  if ("X" in fixture) return selfAttention(fixture.X, fixture.heads, causal, W_O);
  return splitAttention(fixture.Q, fixture.K, fixture.V, fixture.n_heads ?? 1, causal, W_O);
}

// ---------------------------------------------------------------- the JSON form (trace.py)

/** Fresh rows; a non-finite value (an overflowed plain exponential) becomes null, as JSON has it. */
function rows(value) {
  return Array.isArray(value) ? value.map(rows) : Number.isFinite(value) ? value : null;
}

/** One field's JSON form by its kind in the contract (macros.engine.trace._json_form). */
function jsonForm(value, kind, visible) {
  if (kind === "masked") return mapEntries(value, (x, i, j) => (visible[i][j] && Number.isFinite(x) ? x : null));
  if (kind === "mask") return value.map((row) => row.map(Boolean));
  return rows(value);
}

/** An object with the contract's fields, in its order, each in its JSON form. */
function fieldsToDict(source, fields, visible) {
  return Object.fromEntries(fields.map(({ name, kind }) => [name, jsonForm(source[name], kind, visible)]));
}

/** The contract shared with the numpy engine (macros.engine.trace.to_dict), field by field from contract.js. */
export function toDict(layer) {
  return {
    heads: layer.heads.map((head) => fieldsToDict(head, contract.HEAD_FIELDS, head.visible)),
    ...fieldsToDict(layer, contract.LAYER_FIELDS),
  };
}

// ---------------------------------------------------------------- guard and variants (lessons.py, variants.py)

/** Whether a field in its JSON form is finite wherever it is shown (masked entries of a masked field are null by design). */
function finite(value, kind, visible) {
  if (kind === "masked") return value.every((row, i) => row.every((x, j) => !visible[i][j] || Number.isFinite(x)));
  return [value].flat(Infinity).every((x) => Number.isFinite(x));
}

/**
 * The first field of a trace (its JSON form) that is not finite, named as the build names it
 * when it refuses such a fixture (macros.lessons.overflowed), e.g. "heads[0].scores"; or null.
 * Fields the contract marks as allowed to overflow (the plain exponentials) are not checked.
 */
export function overflowed(data) {
  const guarded = (fields) => fields.filter((field) => field.finite && field.kind !== "mask");
  for (const [i, head] of data.heads.entries()) {
    const field = guarded(contract.HEAD_FIELDS).find(({ name, kind }) => !finite(head[name], kind, head.visible));
    if (field) return `heads[${i}].${field.name}`;
  }
  return guarded(contract.LAYER_FIELDS).find(({ name, kind }) => !finite(data[name], kind))?.name ?? null;
}

/**
 * The attention map averaged over heads, as inspection tools often draw it
 * (macros.engine.variants.head_average). No head computes this map.
 */
export function headAverage(data) {
  const n = data.heads.length;
  const first = data.heads[0].weights;
  // h x (n_q, n_k) -> (n_q, n_k)
  return first.map((row, i) => row.map((_, j) => data.heads.reduce((sum, head) => sum + head.weights[i][j], 0) / n));
}

/**
 * A fixture's whole trace, in the shape `python -m macros trace` prints.
 * Throws an Error listing the problems (error.problems) when the fixture is not valid;
 * a widget calls validate() first to show them inline instead.
 */
export function trace(fixture) {
  const problems = validate(fixture);
  if (problems.length) {
    const error = new Error(problems.join("\n"));
    error.problems = problems;
    throw error;
  }
  return toDict(run(fixture));
}

// ---------------------------------------------------------------- validation (fixture.py)

// The JSON form has `extends` resolved already, so it is not a field here.
// The generation keys (macros/sources/keys_chapter4.py) are named so that a misspelt field is
// reported in the same words; the JSON form a lab edits never carries them.
const SELF_FIELDS = ["tokens", "X", "causal", "heads", "W_O", "params", ...SEQUENCE_FIELDS, "kv_heads", "window", "block_size"];
const DIRECT_FIELDS = ["Q", "K", "V", "n_heads", "causal", "W_O", "query_labels", "key_labels", "params"];
const HEAD_FIELDS = ["W_Q", "W_K", "W_V"];

/** Characters of a found value a message quotes, as macros/sources/found.py's LONGEST. */
const LONGEST = 40;

/** Text cut to LONGEST characters, counted as Python counts them (code points, not UTF-16 units). */
function shortened(text) {
  const characters = Array.from(text);
  return characters.length <= LONGEST ? text : `${characters.slice(0, LONGEST - 1).join("")}…`;
}

const ESCAPES = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const UNPRINTABLE = /[\p{C}\p{Z}]/u; // what Python's str.isprintable() refuses, bar the space

/** A string as Python's repr() writes it: single quotes unless the text has one and no
 * double quote, backslashes and the chosen quote escaped, unprintable characters as codes. */
function pythonRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const escaped = Array.from(text, (c) => {
    if (c === quote) return `\\${c}`;
    if (Object.hasOwn(ESCAPES, c)) return ESCAPES[c];
    if (c === " " || !UNPRINTABLE.test(c)) return c;
    const code = c.codePointAt(0);
    const [prefix, width] = code < 0x100 ? ["x", 2] : code < 0x10000 ? ["u", 4] : ["U", 8];
    return `\\${prefix}${code.toString(16).padStart(width, "0")}`;
  });
  return quote + escaped.join("") + quote;
}

/** A short description of a value for a message, worded as the Python checker words it. */
function describe(value) {
  if (value === null || value === undefined) return "nothing";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "string") return shortened(pythonRepr(value));
  if (Array.isArray(value)) return value.length ? `a list of ${value.length}` : "an empty list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "number" && !Number.isFinite(value)) {
    return Number.isNaN(value) ? ".nan" : value > 0 ? ".inf" : "-.inf";
  }
  return String(value);
}

const isMapping = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** The same checks as macros/fixture.py, every problem collected rather than the first. */
/** Levenshtein distance, as macros/fixture.py's edit_distance. */
function editDistance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}

/** The allowed name a typo most likely meant (case ignored, at most two edits), as closest_field. */
function closestField(key, names) {
  const ranked = names
    .map((name) => [editDistance(key.toLowerCase(), name.toLowerCase()), name])
    .sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
  return ranked.length && ranked[0][0] <= 2 ? ranked[0][1] : null;
}

class Checker {
  constructor() {
    this.problems = [];
  }

  fail(path, expected, found) {
    this.problems.push(`${path ? `${path}: ` : ""}expected ${expected}, got ${found}`);
  }

  fields(data, path, allowed, required) {
    const names = [...allowed].sort();
    for (const key of Object.keys(data)) {
      if (allowed.includes(key)) continue;
      const close = closestField(key, names);
      const hint = close ? ` (did you mean ${close}?)` : "";
      const expected = key === "extends" ? "the fixture with extends resolved" : `one of the fields ${names.join(", ")}`;
      this.fail(`${path}${key}`, expected, `an unknown field${hint}`);
    }
    for (const key of required) if (!(key in data)) this.fail(`${path}${key}`, "this field", "nothing: it is missing");
  }

  number(value, path) {
    if (typeof value !== "number") return this.fail(path, "a number", describe(value));
    if (!Number.isFinite(value)) this.fail(path, "a finite number", describe(value));
  }

  /** A non-empty rectangular list of rows of finite numbers; its [rows, cols], or null when it has no shape. */
  matrix(value, path, shape = null, meaning = "") {
    if (!Array.isArray(value) || !value.length) {
      this.fail(path, "a matrix written as a list of rows", describe(value));
      return null;
    }
    let cols = null;
    let rectangular = true;
    value.forEach((row, i) => {
      if (!Array.isArray(row) || !row.length) {
        rectangular = false;
        return this.fail(`${path}[${i}]`, "a row: a non-empty list of numbers", describe(row));
      }
      if (cols === null) cols = row.length;
      if (row.length !== cols) {
        rectangular = false;
        this.fail(`${path}[${i}]`, `${cols} numbers like the first row`, `${row.length}`);
      }
      row.forEach((x, j) => this.number(x, `${path}[${i}][${j}]`));
    });
    if (!rectangular) return null;
    if (shape && (value.length !== shape[0] || cols !== shape[1])) {
      const detail = meaning ? ` (${meaning})` : "";
      this.fail(path, `a ${shape[0]}×${shape[1]} matrix${detail}`, `${value.length}×${cols}`);
    }
    return [value.length, cols];
  }

  boolean(value, path) {
    if (typeof value !== "boolean") this.fail(path, "true or false", describe(value));
    return value === true;
  }

  labels(value, path, count, of) {
    const label = (x) => typeof x === "string" || Number.isInteger(x);
    if (!Array.isArray(value) || !value.every(label)) return this.fail(path, "a list of labels (text)", describe(value));
    if (count !== null && value.length !== count) this.fail(path, `${count} labels, one per ${of}`, `${value.length}`);
  }

  positiveInt(value, path) {
    if (!Number.isInteger(value) || value < 1) return this.fail(path, "a whole number of at least 1", describe(value));
    return value;
  }

  /** W_O maps the concatenated heads (rows wide) to the output: rows × cols, or any width when cols is null. */
  outputProjection(data, rows, cols = null) {
    if (!("W_O" in data)) return;
    const shape = this.matrix(data.W_O, "W_O");
    if (!shape || rows === null) return;
    const expectedCols = cols ?? shape[1];
    if (shape[0] !== rows || shape[1] !== expectedCols) {
      const meaning = cols !== null ? "heads · d_v × d_model" : "heads · d_v rows";
      this.fail("W_O", `a ${rows}×${expectedCols} matrix (${meaning})`, `${shape[0]}×${shape[1]}`);
    }
  }
}

function checkSelfAttention(check, data) {
  check.fields(data, "", SELF_FIELDS, ["X", "heads"]);
  const X = "X" in data ? check.matrix(data.X, "X") : null;
  const d_model = X ? X[1] : null;
  const heads = data.heads;
  let d_v_total = null;
  if (!Array.isArray(heads) || !heads.length) {
    if ("heads" in data) check.fail("heads", "a list with one entry (W_Q, W_K, W_V) per head", describe(heads));
  } else {
    const widths = heads.map((head, i) => checkHead(check, head, `heads[${i}]`, d_model));
    if (widths.every((w) => w !== null)) d_v_total = widths.reduce((a, b) => a + b, 0);
  }
  if ("tokens" in data) check.labels(data.tokens, "tokens", X ? X[0] : null, "row of X");
  if ("causal" in data) check.boolean(data.causal, "causal");
  check.outputProjection(data, d_v_total, d_model);
  checkParams(check, data, describe);
  checkSequenceKeys(check, data, X, heads, describe);
}

/** One head's projections; returns its d_v, or null when W_V has no shape. */
function checkHead(check, head, path, d_model) {
  if (!isMapping(head)) {
    check.fail(path, "a mapping with W_Q, W_K and W_V", describe(head));
    return null;
  }
  check.fields(head, `${path}.`, HEAD_FIELDS, HEAD_FIELDS);
  const W_Q = "W_Q" in head ? check.matrix(head.W_Q, `${path}.W_Q`) : null;
  if (W_Q && d_model !== null && W_Q[0] !== d_model) {
    check.fail(`${path}.W_Q`, `a matrix with ${d_model} rows (d_model)`, `${W_Q[0]}×${W_Q[1]}`);
  }
  if ("W_K" in head) {
    const shape = W_Q && d_model !== null ? [d_model, W_Q[1]] : null;
    check.matrix(head.W_K, `${path}.W_K`, shape, "d_model × d_k");
  }
  const W_V = "W_V" in head ? check.matrix(head.W_V, `${path}.W_V`) : null;
  if (W_V && d_model !== null && W_V[0] !== d_model) {
    check.fail(`${path}.W_V`, `a matrix with ${d_model} rows (d_model × d_v)`, `${W_V[0]}×${W_V[1]}`);
  }
  return W_V ? W_V[1] : null;
}

function checkDirect(check, data) {
  check.fields(data, "", DIRECT_FIELDS, ["Q", "K", "V"]);
  const Q = "Q" in data ? check.matrix(data.Q, "Q") : null;
  const K = "K" in data ? check.matrix(data.K, "K") : null;
  if (Q && K && K[1] !== Q[1]) check.fail("K", `rows of ${Q[1]} numbers, as wide as Q (d_k)`, `${K[0]}×${K[1]}`);
  const V = "V" in data ? check.matrix(data.V, "V") : null;
  if (K && V && V[0] !== K[0]) check.fail("V", `${K[0]} rows, one value per key`, `${V[0]}×${V[1]}`);
  const n_heads = "n_heads" in data ? check.positiveInt(data.n_heads, "n_heads") : 1;
  for (const [name, shape] of [
    ["Q", Q],
    ["V", V],
  ]) {
    if (shape && n_heads && shape[1] % n_heads) {
      check.fail("n_heads", `a number of heads that divides the width of ${name} (${shape[1]})`, `${n_heads}`);
    }
  }
  const causal = "causal" in data ? check.boolean(data.causal, "causal") : false;
  if (causal && Q && K && Q[0] !== K[0]) check.fail("causal", "false when there are not as many queries as keys", "true");
  check.outputProjection(data, V ? V[1] : null);
  if ("query_labels" in data) check.labels(data.query_labels, "query_labels", Q ? Q[0] : null, "query");
  if ("key_labels" in data) check.labels(data.key_labels, "key_labels", K ? K[0] : null, "key");
  checkParams(check, data, describe);
}

/**
 * Every problem with a fixture in its JSON form, as "path: expected ..., got ..." lines
 * worded like the build's errors (e.g. "heads[0].W_K[1][2]: expected a number, got 'abc'").
 * An empty list means trace() can run it.
 */
export function validate(fixture) {
  const check = new Checker();
  if (!isMapping(fixture)) {
    check.fail("", "a mapping of fields (X, heads, ... or Q, K, V)", describe(fixture));
  } else if ("X" in fixture && "Q" in fixture) {
    check.fail("Q", "either X with heads (self-attention) or Q, K and V (given directly)", "both forms");
  } else if ("X" in fixture || "heads" in fixture) {
    checkSelfAttention(check, fixture);
  } else if ("Q" in fixture || "K" in fixture || "V" in fixture) {
    checkDirect(check, fixture);
  } else {
    check.fail("", "X with heads (self-attention), or Q, K and V (given directly)", "neither");
  }
  return check.problems;
}
