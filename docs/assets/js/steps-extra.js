/**
 * Browser twins of the engine's newer steps that labs recompute: key padding masks
 * (macros/engine/masks.py), rotary rotation and score (positions.py) and online softmax by
 * key blocks (online.py). Same names (in camelCase), same order of operations and the
 * same error messages as numpy; tests/test_engine_js_extra.py holds them together.
 *
 * Plain float64 numbers; a matrix is an array of rows.
 */

import { matmul, transpose } from "./matrix.js";

// ---------------------------------------------------------------- helpers

/** Each query's raw dot product with every key: (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k). */
function score(Q, K) {
  return matmul(Q, transpose(K));
}

// ---------------------------------------------------------------- key padding (masks.py)

/** Keys at index >= keyLength are padding: hidden from every query. (n_q, n_k), true = visible. */
export function keyPadding(n_q, n_k, keyLength) {
  if (!(keyLength >= 1 && keyLength <= n_k)) {
    throw new RangeError(`key_length must be between 1 and the number of keys (${n_k}), got ${keyLength}`);
  }
  return Array.from({ length: n_q }, () => Array.from({ length: n_k }, (_, j) => j < keyLength));
}

// ---------------------------------------------------------------- sinusoidal (positions.py)

/** PE[p, 2i] = sin(p / 10000^(2i/d_model)), PE[p, 2i+1] = cos(p / 10000^(2i/d_model)): (n, d_model). */
export function sinusoidal(n, d_model) {
  const frequencies = Array.from({ length: Math.ceil(d_model / 2) }, (_, i) => 1 / 10000 ** ((2 * i) / d_model));
  return Array.from({ length: n }, (_, p) =>
    Array.from({ length: d_model }, (_, c) => (c % 2 === 0 ? Math.sin : Math.cos)(p * frequencies[c >> 1])),
  );
}

// ---------------------------------------------------------------- rotary (positions.py)

/** theta_i = base^(-2i/d_k), one per pair (2i, 2i+1). */
export function rotaryFrequencies(d_k, base = 10000) {
  if (d_k < 2 || d_k % 2) {
    throw new RangeError(`rotary needs an even d_k (coordinates are rotated in pairs), got d_k = ${d_k}`);
  }
  return Array.from({ length: d_k / 2 }, (_, i) => base ** (-(2 * i) / d_k)); // (d_k/2,)
}

/** The angle p * theta_i by which pair i of the row at position p turns: (n, d_k/2). */
export function rotaryAngles(positions, d_k, base = 10000) {
  const thetas = rotaryFrequencies(d_k, base);
  return positions.map((p) => thetas.map((theta) => p * theta));
}

/** Turn each pair (x, y) by its angle a: (x cos a - y sin a, x sin a + y cos a). (n, d_k) */
export function rotatePairs(M, angles) {
  return M.map((row, r) =>
    row.map((_, c) => {
      const a = angles[r][c >> 1];
      const x = row[c & ~1];
      const y = row[c | 1];
      return c % 2 === 0 ? x * Math.cos(a) - y * Math.sin(a) : x * Math.sin(a) + y * Math.cos(a);
    }),
  );
}

/** A head's q or k rows, each rotated by its own position. */
export function rotary(M, positions, base = 10000) {
  return rotatePairs(M, rotaryAngles(positions, M[0].length, base));
}

/** The raw score of one query and one key after rotation: depends on kPosition - qPosition only. */
export function rotaryScore(q, k, qPosition, kPosition, base = 10000) {
  const [qRot] = rotary([q], [qPosition], base);
  const [kRot] = rotary([k], [kPosition], base);
  return score([qRot], [kRot])[0][0]; // (1, d_k) @ (d_k, 1) -> (1, 1)
}

// ---------------------------------------------------------------- online softmax (online.py)

/** Consecutive [start, stop) ranges of blockSize keys; the last may be shorter. */
export function keyBlocks(n_k, blockSize) {
  if (!(Number.isInteger(blockSize) && blockSize >= 1 && blockSize <= n_k)) {
    throw new RangeError(`block_size must be between 1 and the number of keys (${n_k}), got ${blockSize}`);
  }
  const blocks = [];
  for (let start = 0; start < n_k; start += blockSize) blocks.push([start, Math.min(start + blockSize, n_k)]);
  return blocks;
}

/** exp(m_old - m_new), 1 while m_new is still -Infinity (nothing to rescale). */
function rescaleFactor(mOld, mNew) {
  return Number.isFinite(mNew) ? Math.exp(mOld - mNew) : 1;
}

/**
 * Attention read block by block with a running max m, sum l and reading acc per query.
 * Returns the same record as OnlineTrace.to_dict(): every block's values, the output
 * acc / l and the count of score entries never stored.
 */
export function onlineAttention(Q, K, V, blockSize, visible = null) {
  const n_q = Q.length;
  const n_k = K.length;
  const d_v = V[0].length;
  const seeAll = visible ?? Q.map(() => K.map(() => true));
  const factor = 1 / Math.sqrt(Q[0].length);
  let m = new Array(n_q).fill(-Infinity);
  let l = new Array(n_q).fill(0);
  let acc = Q.map(() => new Array(d_v).fill(0));
  const blocks = [];
  for (const [start, stop] of keyBlocks(n_k, blockSize)) {
    const scaled = score(Q, K.slice(start, stop)).map((row) => row.map((x) => x * factor)); // (n_q, b)
    const seen = seeAll.map((row) => row.slice(start, stop)); // (n_q, b)
    const mNew = scaled.map((row, i) =>
      row.reduce((max, x, j) => (seen[i][j] ? Math.max(max, x) : max), m[i]),
    ); // (n_q,)
    const rescale = m.map((mOld, i) => rescaleFactor(mOld, mNew[i])); // (n_q,)
    const exps = scaled.map((row, i) =>
      row.map((x, j) => (seen[i][j] ? Math.exp(x - (Number.isFinite(mNew[i]) ? mNew[i] : 0)) : 0)),
    ); // (n_q, b)
    l = l.map((sum, i) => sum * rescale[i] + exps[i].reduce((s, x) => s + x, 0));
    const weighted = matmul(exps, V.slice(start, stop)); // (n_q, b) @ (b, d_v) -> (n_q, d_v)
    acc = acc.map((row, i) => row.map((x, c) => x * rescale[i] + weighted[i][c]));
    m = mNew;
    const shown = scaled.map((row, i) => row.map((x, j) => (seen[i][j] ? x : null)));
    blocks.push({ start, stop, scaled: shown, m: rows(m), rescale, exps, l: [...l], acc: acc.map((r) => [...r]) });
  }
  const empty = l.flatMap((sum, i) => (sum === 0 ? [i] : []));
  if (empty.length) throw new RangeError(`query row(s) ${empty.join(", ")} see no key: the softmax is 0/0`);
  const output = acc.map((row, i) => row.map((x) => x / l[i])); // (n_q, d_v)
  return { block_size: blockSize, blocks, output, never_stored: n_q * n_k };
}

/** A non-finite value becomes null, as JSON has it. */
function rows(value) {
  return Array.isArray(value) ? value.map(rows) : Number.isFinite(value) ? value : null;
}
