// The trace contract, generated from macros/engine/trace.py by `make contract`: do not edit.
// Each field the twin computes: its name, its kind (how the JSON form writes it), whether
// the overflow guard requires it finite, and whether it is optional (present only where its
// step is). engine.js follows it; tests/test_js_twin.py checks this file.

/** The fields of heads[i], in the order a lesson teaches them. */
export const HEAD_FIELDS = [
  {"name": "Q", "kind": "matrix", "finite": true},
  {"name": "K", "kind": "matrix", "finite": true},
  {"name": "V", "kind": "matrix", "finite": true},
  {"name": "scores", "kind": "matrix", "finite": true},
  {"name": "scale", "kind": "scalar", "finite": true},
  {"name": "scaled", "kind": "masked", "finite": true},
  {"name": "visible", "kind": "mask", "finite": true},
  {"name": "shift", "kind": "vector", "finite": true},
  {"name": "shifted", "kind": "masked", "finite": false},
  {"name": "exps", "kind": "matrix", "finite": true},
  {"name": "sums", "kind": "vector", "finite": true},
  {"name": "weights", "kind": "matrix", "finite": true},
  {"name": "output", "kind": "matrix", "finite": true},
  {"name": "plain_exps", "kind": "matrix", "finite": false},
  {"name": "plain_sums", "kind": "vector", "finite": false},
  {"name": "Q_normed", "kind": "matrix", "finite": true, "optional": true},
  {"name": "K_normed", "kind": "matrix", "finite": true, "optional": true},
  {"name": "capped", "kind": "masked", "finite": true, "optional": true},
  {"name": "sink_weight", "kind": "vector", "finite": true, "optional": true},
];

/** The layer's own fields, after "heads". */
export const LAYER_FIELDS = [
  {"name": "concat", "kind": "matrix", "finite": true},
  {"name": "W_O", "kind": "matrix", "finite": true},
  {"name": "output", "kind": "matrix", "finite": true},
  {"name": "logits", "kind": "matrix", "finite": true, "optional": true},
  {"name": "probs", "kind": "matrix", "finite": true, "optional": true},
  {"name": "loss", "kind": "scalar", "finite": true, "optional": true},
  {"name": "d_logits", "kind": "matrix", "finite": true, "optional": true},
  {"name": "layers", "kind": "layers", "finite": true, "optional": true},
];
