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
 * sequence.js, the sequence keys (a source, padding, positions).
 *
 * Shapes: n_q queries, n_k keys, d_k the query/key width, d_v the value width, h heads.
 */

import * as contract from "./contract.js";
import { matmul, transpose } from "./matrix.js";
import { embed, nextToken } from "./model.js";
import { sequenceLayer, usesSequenceKeys } from "./sequence.js";

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

/** QK-norm's epsilon under the root mean square (macros.engine.scoring.QK_NORM_EPS). */
export const QK_NORM_EPS = 1e-6;

/** QK-norm: each row divided by its root mean square, sqrt(mean(x^2) + eps), gain 1. */
export function rmsNormalise(M, eps = QK_NORM_EPS) {
  return M.map((row) => {
    const rms = Math.sqrt(row.reduce((sum, x) => sum + x * x, 0) / row.length + eps);
    return row.map((x) => x / rms); // (d_k,)
  }); // (n, d_k)
}

/** Soft-capping: cap * tanh(s / cap), close to s while |s| is small, never beyond +-cap. */
export function softCap(scaled, cap) {
  return mapEntries(scaled, (x) => cap * Math.tanh(x / cap)); // (n_q, n_k)
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

/**
 * Step 5 with an attention sink (macros/engine/sinks.py): each row's softmax also runs over the
 * head's sink logit s, which has no value. The shift is the largest of the row's visible logits
 * and s, the sums count e^(s - shift), and the weights on the keys add up to 1 - sink_weight.
 */
export function sinkSoftmax(scaled, visible, sink) {
  const shift = rowShift(scaled, visible).map((m) => Math.max(m, sink)); // (n_q,)
  const shifted = shiftScores(scaled, visible, shift); // (n_q, n_k)
  const exps = exponentials(shifted); // (n_q, n_k)
  const sinkExps = shift.map((m) => Math.exp(sink - m)); // (n_q,)
  const sums = rowSums(exps).map((sum, i) => sum + sinkExps[i]); // (n_q,)
  const plain_exps = plainExponentials(scaled, visible); // (n_q, n_k)
  const plain_sums = rowSums(plain_exps).map((sum) => sum + Math.exp(sink)); // (n_q,)
  const weights = normalise(exps, sums); // (n_q, n_k)
  return { shift, shifted, exps, sums, weights, plain_exps, plain_sums, sink_weight: sinkExps.map((e, i) => e / sums[i]) };
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

/**
 * A single head given its queries, keys and values: steps 2 to 6 (under a given mask when
 * one is passed), with the scoring steps the fixture asks for (macros.engine.scoring):
 * QK-norm before the scores, soft-capping after the scale.
 */
export function attend(Q, K, V, causal = false, mask = null, scoring = {}) {
  const steps = {};
  const [q, k] = scoring.qk_norm ? [(steps.Q_normed = rmsNormalise(Q)), (steps.K_normed = rmsNormalise(K))] : [Q, K];
  const scores = score(q, k); // (n_q, n_k)
  const factor = scaleFactor(Q[0].length);
  const scaled = scale(scores, factor); // (n_q, n_k)
  const logits = scoring.softcap != null ? (steps.capped = softCap(scaled, scoring.softcap)) : scaled; // (n_q, n_k)
  const visible = mask ?? visibility(scores.length, scores[0].length, causal); // (n_q, n_k)
  const parts = scoring.sink != null ? sinkSoftmax(logits, visible, scoring.sink) : stableSoftmax(logits, visible);
  const output = weighValues(parts.weights, V); // (n_q, d_v)
  return { Q, K, V, scores, scale: factor, scaled, visible, ...parts, output, ...steps };
}

/** Steps 7 and 8: concatenate the heads and apply W_O (identity when absent). */
export function combine(heads, W_O = null) {
  const concat = concatenate(heads.map((head) => head.output)); // (n_q, h * d_v)
  const projection = W_O ?? identity(concat[0].length);
  return { heads, concat, W_O: projection, output: outputProjection(concat, projection) };
}

/** Each head projects the same X with its own W_Q, W_K, W_V: step 1, then attend (each head with its own sink logit, if any). */
export function selfAttention(X, projections, causal = false, W_O = null, scoring = {}) {
  const heads = projections.map(({ W_Q, W_K, W_V }, h) =>
    attend(project(X, W_Q), project(X, W_K), project(X, W_V), causal, null, headScoring(scoring, h)),
  );
  return combine(heads, W_O);
}

/**
 * Multi-head latent attention (macros/engine/latent.py): C = X W_DKV, shared by every head,
 * and each head's keys and values rebuilt from it, K = C W_UK and V = C W_UV.
 */
export function latentAttention(X, W_Qs, latent, causal = false, W_O = null, scoring = {}) {
  const C = project(X, latent.W_DKV); // (n, d_model) @ (d_model, d_c) -> (n, d_c)
  const heads = W_Qs.map((W_Q, h) => {
    const { W_UK, W_UV } = latent.heads[h];
    return attend(project(X, W_Q), matmul(C, W_UK), matmul(C, W_UV), causal, null, headScoring(scoring, h));
  });
  return combine(heads, W_O);
}

/** One head's scoring: the layer's, with that head's own sink logit. */
function headScoring(scoring, h) {
  return { ...scoring, sink: scoring.sinks?.[h] ?? null };
}

/** Head i takes the i-th equal slice of the columns: multi-head attention's split. */
export function splitColumns(M, n_heads) {
  const width = M[0].length / n_heads;
  // (n, d) -> n_heads x (n, d / n_heads)
  return Array.from({ length: n_heads }, (_, h) => M.map((row) => row.slice(h * width, (h + 1) * width)));
}

/** Queries, keys and values given directly, cut into n_heads equal column slices. */
export function splitAttention(Q, K, V, n_heads = 1, causal = false, W_O = null, scoring = {}) {
  const [qs, ks, vs] = [Q, K, V].map((M) => splitColumns(M, n_heads));
  return combine(qs.map((q, h) => attend(q, ks[h], vs[h], causal, null, headScoring(scoring, h))), W_O);
}

/** The scoring keys the twin computes, as a fixture gives them (the others refuse a lab). */
function scoringOf(fixture) {
  return { softcap: fixture.softcap ?? null, qk_norm: fixture.qk_norm ?? false, sinks: fixture.sink?.logits ?? null };
}

/**
 * Attention layers on the residual stream (macros/engine/stack.py): each adds its output to
 * the rows it read; the stack's output is the last stream, and it has no heads of its own.
 */
export function stack(X, layers, causal = false) {
  let x = X; // (n, d_model)
  const traces = layers.map(({ heads, W_O }) => {
    const layer = selfAttention(x, heads, causal, W_O ?? null);
    x = x.map((row, i) => row.map((v, j) => v + layer.output[i][j])); // (n, d_model)
    return layer;
  });
  return { layers: traces, output: x };
}

/** A valid fixture's whole layer (or stack), with the logits of its unembedding where it has one. */
export function run(fixture) {
  const rows = fixture.embedding ? { ...fixture, X: embed(fixture.embedding) } : fixture;
  const layer = rows.layers ? stack(rows.X, rows.layers, rows.causal ?? false) : runLayer(rows);
  return fixture.unembedding ? { ...layer, ...nextToken(layer.output, fixture.unembedding, fixture.embedding) } : layer;
}

/** A valid fixture's one layer, whichever form it is written in. */
function runLayer(fixture) {
  const causal = fixture.causal ?? false;
  const W_O = fixture.W_O ?? null;
  const scoring = scoringOf(fixture);
  if ("X" in fixture && usesSequenceKeys(fixture)) {
    const withScoring = (Q, K, V, c, mask, h) => attend(Q, K, V, c, mask, headScoring(scoring, h));
    return sequenceLayer(fixture, { project, visibility, attend: withScoring, combine });
  }
  if ("X" in fixture && fixture.latent) {
    return latentAttention(fixture.X, fixture.heads.map(({ W_Q }) => W_Q), fixture.latent, causal, W_O, scoring);
  }
  if ("X" in fixture) return selfAttention(fixture.X, fixture.heads, causal, W_O, scoring);
  return splitAttention(fixture.Q, fixture.K, fixture.V, fixture.n_heads ?? 1, causal, W_O, scoring);
}

// ---------------------------------------------------------------- the JSON form (trace.py)

/** Fresh rows; a non-finite value (an overflowed plain exponential) becomes null, as JSON has it. */
function rows(value) {
  return Array.isArray(value) ? value.map(rows) : Number.isFinite(value) ? value : null;
}

/** One field's JSON form by its kind in the contract (macros.engine.trace._json_form). */
function jsonForm(value, kind, visible) {
  if (kind === "layers") return value.map(toDict);
  if (kind === "masked") return mapEntries(value, (x, i, j) => (visible[i][j] && Number.isFinite(x) ? x : null));
  if (kind === "mask") return value.map((row) => row.map(Boolean));
  return rows(value);
}

/** An object with the contract's fields, in its order, each in its JSON form (an optional one only where its step made it). */
function fieldsToDict(source, fields, visible) {
  const present = fields.filter(({ name, optional }) => !optional || source[name] !== undefined);
  return Object.fromEntries(present.map(({ name, kind }) => [name, jsonForm(source[name], kind, visible)]));
}

/** The contract shared with the numpy engine (macros.engine.trace.to_dict), field by field from contract.js. */
export function toDict(layer) {
  if (layer.layers) {
    // A stack (macros.engine.trace.SINGLE_LAYER): no heads, concatenation or W_O of its own.
    return fieldsToDict(layer, contract.LAYER_FIELDS.filter(({ name }) => name !== "concat" && name !== "W_O"));
  }
  return {
    heads: layer.heads.map((head) => fieldsToDict(head, contract.HEAD_FIELDS, head.visible)),
    ...fieldsToDict(layer, contract.LAYER_FIELDS),
  };
}

/**
 * A fixture's whole trace, in the shape `python -m macros trace` prints. The fixture is
 * trusted: it is a lesson's own, checked by the build, with a lab's edits in place, and a
 * lab's editors hand over only finite numbers in the shape of the cells they replace.
 */
export function trace(fixture) {
  return toDict(run(fixture));
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
  const guarded = (fields) => fields.filter((field) => field.finite && field.kind !== "mask" && field.kind !== "layers");
  for (const [i, head] of (data.heads ?? []).entries()) {
    const field = guarded(contract.HEAD_FIELDS).find(
      ({ name, kind }) => name in head && !finite(head[name], kind, head.visible),
    );
    if (field) return `heads[${i}].${field.name}`;
  }
  const own = guarded(contract.LAYER_FIELDS).find(({ name, kind }) => name in data && !finite(data[name], kind));
  if (own) return own.name;
  for (const [l, layer] of (data.layers ?? []).entries()) {
    const found = overflowed(layer);
    if (found) return `layers[${l}].${found}`;
  }
  return null;
}

/**
 * The attention map averaged over heads, as inspection tools often draw it
 * (macros.engine.variants.head_average). No head computes this map.
 */
export function headAverage(data) {
  if (!data.heads) return null; // a stack of layers has no heads of its own
  const n = data.heads.length;
  const first = data.heads[0].weights;
  // h x (n_q, n_k) -> (n_q, n_k)
  return first.map((row, i) => row.map((_, j) => data.heads.reduce((sum, head) => sum + head.weights[i][j], 0) / n));
}
