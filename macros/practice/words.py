"""The trace's fields in a reader's words, for a question about one of their entries.

Each entry names what a value is on the page ("the weight of key “mouse” for the query at
“chases”"), never a field path. A practice question can ask only for a field named here;
macros/engine/trace.py declares, for each other field, why no question asks for it.
"""

HEAD_FIELD_WORDS = {
    "scores": "the score of {key} for {query}",
    "scaled": "the scaled score of {key} for {query}",
    "biased": "the score of {key} for {query} with the bias added",
    "shift": "the largest scaled score {query} sees (the shift of its softmax)",
    "shifted": "the shifted score of {key} for {query}",
    "exps": "the exponential of {key}'s shifted score for {query}",
    "sums": "the sum of {query}'s exponentials",
    "weights": "the weight of {key} for {query}",
    "output": "coordinate {column} of the reading of {query}",
    "plain_exps": "the exponential of {key}'s scaled score for {query}, with no shift",
    "plain_sums": "the sum of {query}'s unshifted exponentials",
}
LAYER_FIELD_WORDS = {
    "concat": "coordinate {column} of the heads' readings side by side, for {query}",
    "output": "coordinate {column} of the layer's output for {query}",
}
