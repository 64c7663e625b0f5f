/**
 * The model around attention in the browser twin, as macros/engine/embedding.py and
 * macros/engine/unembedding.py compute it: the input rows from token ids (X = E[ids] + P[0:n]),
 * and after the layer the logits, their softmax over the vocabulary, the mean cross-entropy
 * of the true next tokens and its gradient (probs − one_hot(targets)) / n. The seeded draw
 * and the training step have no twin: labs refuse a lesson with them.
 */

import { matmul, transpose } from "./matrix.js";

/** X = E[ids] + P[0:n] (or E[ids] alone): the rows the layer reads. */
export function embed({ E, ids, P }) {
  return ids.map((id, i) => E[id].map((x, j) => (P ? x + P[i][j] : x))); // (n, d_model)
}

/** One row's stable softmax over every token. */
function softmaxRow(row) {
  const shift = Math.max(...row);
  const exps = row.map((x) => Math.exp(x - shift)); // (n_vocab,)
  const sum = exps.reduce((total, e) => total + e, 0);
  return exps.map((e) => e / sum);
}

/** The logits Y W_U (W_U = Eᵀ when tied), their softmax, and with targets the loss and its gradient. */
export function nextToken(Y, unembedding, embedding) {
  const W_U = unembedding.W_U === "tied" ? transpose(embedding.E) : unembedding.W_U; // (d_out, n_vocab)
  const logits = matmul(Y, W_U); // (n, d_out) @ (d_out, n_vocab) -> (n, n_vocab)
  const probs = logits.map(softmaxRow); // (n, n_vocab)
  const targets = unembedding.targets;
  if (!targets) return { logits, probs };
  const n = probs.length;
  const loss = -targets.reduce((total, t, i) => total + Math.log(probs[i][t]), 0) / n;
  const d_logits = probs.map((row, i) => row.map((p, t) => (p - (t === targets[i] ? 1 : 0)) / n)); // (n, n_vocab)
  return { logits, probs, loss, d_logits };
}
