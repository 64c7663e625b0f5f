/**
 * The sequence keys in the browser twin, as macros/engine/sequence.py computes them: a
 * separate source for keys and values, valid lengths (the first sequence's trace when a
 * batch is given), and positions (sinusoidal added to the inputs, rotary turning each
 * head's q and k), in the same order of operations as the build.
 */

import { keyPadding, rotary, sinusoidal } from "./steps-extra.js";

const SEQUENCE_FIELDS = ["source", "source_tokens", "key_length", "positions"];

/** Whether a self-attention fixture uses any of the sequence keys. */
export function usesSequenceKeys(fixture) {
  return SEQUENCE_FIELDS.some((name) => name in fixture);
}

const range = (n) => Array.from({ length: n }, (_, i) => i);

function encode(M, encoding) {
  if (encoding !== "sinusoidal") return M;
  const PE = sinusoidal(M.length, M[0].length);
  return M.map((row, i) => row.map((x, j) => x + PE[i][j])); // (n, d_model)
}

/** The layer of a valid fixture with the sequence keys; `engine` gives project, visibility, attend (told the head's place) and combine. */
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
  const heads = fixture.heads.map(({ W_Q, W_K, W_V }, h) => {
    let Q = engine.project(X, W_Q); // (n, d_k)
    let K = engine.project(keys, W_K); // (m, d_k)
    if (encoding === "rotary") {
      Q = rotary(Q, range(Q.length), base);
      K = rotary(K, range(K.length), base);
    }
    return engine.attend(Q, K, engine.project(keys, W_V), false, visible, h);
  });
  return engine.combine(heads, fixture.W_O ?? null);
}
