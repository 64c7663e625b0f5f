/**
 * Chapter 3's keys in the browser twin, as macros/engine/sequence.py and
 * macros/sources/keys_chapter3.py (and params.py) have them: a separate source for keys
 * and values, valid lengths (the first sequence's trace when a batch is given), and
 * positions (sinusoidal added to the inputs, rotary turning each head's q and k).
 * The same order of operations and the same messages as the build.
 */

import { keyPadding, rotary, sinusoidal } from "./steps-extra.js";

export const SEQUENCE_FIELDS = ["source", "source_tokens", "key_length", "positions"];
const ENCODINGS = ["sinusoidal", "rotary"];

/** Whether a self-attention fixture uses any of chapter 3's keys. */
export function usesSequenceKeys(fixture) {
  return SEQUENCE_FIELDS.some((name) => name in fixture);
}

const range = (n) => Array.from({ length: n }, (_, i) => i);

function encode(M, encoding) {
  if (encoding !== "sinusoidal") return M;
  const PE = sinusoidal(M.length, M[0].length);
  return M.map((row, i) => row.map((x, j) => x + PE[i][j])); // (n, d_model)
}

/** The layer of a valid fixture with chapter 3's keys; `engine` gives project, visibility, attend and combine. */
export function sequenceLayer(fixture, engine) {
  const encoding = fixture.positions?.encoding ?? null;
  const base = fixture.positions?.base ?? 10000;
  const X = encode(fixture.X, encoding);
  const keys = "source" in fixture ? encode(fixture.source, encoding) : X;
  let visible = engine.visibility(X.length, keys.length, fixture.causal ?? false); // (n, m)
  const [length] = [fixture.key_length ?? null].flat();
  if (length !== null) {
    const padding = keyPadding(X.length, keys.length, length);
    visible = visible.map((row, i) => row.map((v, j) => v && padding[i][j]));
  }
  const heads = fixture.heads.map(({ W_Q, W_K, W_V }) => {
    let Q = engine.project(X, W_Q); // (n, d_k)
    let K = engine.project(keys, W_K); // (m, d_k)
    if (encoding === "rotary") {
      Q = rotary(Q, range(Q.length), base);
      K = rotary(K, range(K.length), base);
    }
    return engine.attend(Q, K, engine.project(keys, W_V), false, visible);
  });
  return engine.combine(heads, fixture.W_O ?? null);
}

const isMapping = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isWhole = (value) => Number.isInteger(value);

/** The build's checks of source, source_tokens, key_length and positions, with its words. */
export function checkSequenceKeys(check, data, X, heads, describe) {
  if (!usesSequenceKeys(data) || !X) return;
  const [n, d_model] = X;
  let n_keys = n;
  if ("source" in data) {
    const source = check.matrix(data.source, "source");
    if (source && source[1] !== d_model) {
      check.fail("source", `a matrix with ${d_model} columns (d_model, as wide as X)`, `${source[0]}×${source[1]}`);
    }
    if (source) n_keys = source[0];
    if (source && data.causal === true && n_keys !== n) {
      check.fail("causal", `false when the source has not as many rows as X (${n})`, "true");
    }
    if ("source_tokens" in data) check.labels(data.source_tokens, "source_tokens", n_keys, "row of source");
  } else if ("source_tokens" in data) {
    check.fail("source_tokens", "no labels without a source (label X's rows with tokens)", "labels");
  }
  if ("key_length" in data) {
    const length = (value, path) => {
      if (!isWhole(value) || value < 1 || value > n_keys) {
        check.fail(path, `a whole number from 1 to ${n_keys} (the number of keys)`, describe(value));
      }
    };
    const value = data.key_length;
    if (Array.isArray(value) && !value.length) {
      check.fail("key_length", "a whole number, or a list with one length per sequence", "an empty list");
    } else if (Array.isArray(value)) value.forEach((x, i) => length(x, `key_length[${i}]`));
    else length(value, "key_length");
  }
  if ("positions" in data) checkPositions(check, data.positions, heads, describe);
}

function checkPositions(check, value, heads, describe) {
  if (!isMapping(value)) return check.fail("positions", "a mapping such as {encoding: sinusoidal}", describe(value));
  check.fields(value, "positions.", ["encoding", "base"], ["encoding"]);
  if (!("encoding" in value)) return;
  if (!ENCODINGS.includes(value.encoding)) {
    return check.fail("positions.encoding", `one of ${ENCODINGS.join(", ")}`, describe(value.encoding));
  }
  if (value.encoding !== "rotary") {
    if ("base" in value) check.fail("positions.base", "no base: only rotary takes one", describe(value.base));
    return;
  }
  if ("base" in value) {
    check.number(value.base, "positions.base");
    if (typeof value.base === "number" && value.base <= 0) {
      check.fail("positions.base", "a positive number", describe(value.base));
    }
  }
  (Array.isArray(heads) ? heads : []).forEach((head, i) => {
    const W_Q = head?.W_Q;
    const d_k = Array.isArray(W_Q) && Array.isArray(W_Q[0]) ? W_Q[0].length : 0;
    if (d_k % 2) {
      check.fail(
        `heads[${i}].W_Q`,
        "an even number of columns (d_k): rotary turns coordinates in pairs",
        `${W_Q.length}×${d_k}`,
      );
    }
  });
}

/** params: a mapping of names to numbers or non-empty lists of numbers (macros/sources/params.py). */
export function checkParams(check, data, describe) {
  if (!("params" in data)) return;
  const params = data.params;
  if (!isMapping(params) || !Object.keys(params).length) {
    return check.fail("params", "a mapping of names to numbers or lists of numbers", describe(params));
  }
  for (const [name, value] of Object.entries(params)) {
    const path = `params.${name}`;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      check.fail(path, "a name of letters, digits and _ (not starting with a digit)", describe(name));
    } else if (Array.isArray(value) && !value.length) {
      check.fail(path, "a number or a non-empty list of numbers", "an empty list");
    } else if (Array.isArray(value)) value.forEach((x, i) => check.number(x, `${path}[${i}]`));
    else check.number(value, path);
  }
}
