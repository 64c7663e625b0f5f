"""The model around attention's fixture keys (macros/sources/model_keys.py): every mistake refused
at its field with what was expected and what was found, messages asserted whole.

GOOD is a tiny model (an embedding, one causal head, an unembedding with targets) that loads;
STACK the same vocabulary through a stack of one layer, tied. Each case changes one thing."""

import pytest

from macros.sources import fixture
from tests.test_fixture import error_for, write

GOOD = """\
vocabulary: [a, b, c]
embedding:
  E: [[1, 0], [0, 1], [1, 1]]
  ids: [2, 0, 2]
  P: [[1, 0], [0, 1], [0, 0]]
causal: true
heads:
  - W_Q: [[1, 0], [0, 1]]
    W_K: [[1, 0], [0, 1]]
    W_V: [[1, 0], [0, 1]]
unembedding:
  W_U: [[1, 0, 1], [0, 1, 1]]
  targets: [0, 1, 2]
"""
STACK = """\
vocabulary: [a, b, c]
embedding:
  E: [[1, 0], [0, 1], [1, 1]]
  ids: [2, 0, 2]
causal: true
layers:
  - heads:
      - W_Q: [[1, 0], [0, 1]]
        W_K: [[1, 0], [0, 1]]
        W_V: [[1, 0], [0, 1]]
unembedding:
  W_U: tied
"""

EMBEDDED = GOOD[: GOOD.index("causal")]  # the vocabulary and the embedding, which X replaces
ONE_LAYER = STACK[STACK.index("layers:") : STACK.index("unembedding")]
TRAIN_WHY = (
    "the step is computed for one plain layer: not a stack, a transformer block's W_1 and W_2, or a changed layer"
)
STACK_WHY = "each layer is plain self-attention, causal or not, on the stream"


CASES = [
    pytest.param(
        GOOD.replace(
            EMBEDDED,
            "vocabulary: [a, b, c]\nX: [[1, 0], [0, 1], [1, 1]]\n",
        ).replace("unembedding:\n  W_U: [[1, 0, 1], [0, 1, 1]]\n  targets: [0, 1, 2]\n", ""),
        "F:1: vocabulary: expected embedding or unembedding beside it (the vocabulary they count in), got neither",
        id="vocabulary-alone",
    ),
    pytest.param(
        GOOD + "X: [[1, 0], [0, 1], [1, 1]]\n",
        "F:14: X: expected no X beside embedding (the rows are E[ids] + P), got X as well",
        id="X-beside",
    ),
    pytest.param(
        GOOD + "tokens: [x, y, z]\n",
        "F:14: tokens: expected no tokens beside embedding (the tokens are the vocabulary's words at ids), "
        "got tokens as well",
        id="tokens-beside",
    ),
    pytest.param(
        GOOD.replace("vocabulary: [a, b, c]\n", ""),
        "F: vocabulary: expected this field: the token strings embedding counts in, got nothing: it is missing",
        id="no-vocabulary",
    ),
    pytest.param(
        GOOD.replace("vocabulary: [a, b, c]", "vocabulary: [a, b, a]"),
        "F:1: vocabulary: expected each token string once, got 'a' twice",
        id="vocabulary-twice",
    ),
    pytest.param(
        GOOD.replace("vocabulary: [a, b, c]", "vocabulary: [a]"),
        "F:1: vocabulary: expected a list of at least 2 token strings, got a list of 1",
        id="vocabulary-one",
    ),
    pytest.param(
        GOOD.replace("E: [[1, 0], [0, 1], [1, 1]]", "E: [[1, 0], [0, 1]]"),
        "F:3: embedding.E: expected a matrix with 3 rows (n_vocab × d_model), got 2×2",
        id="E-rows",
    ),
    pytest.param(
        GOOD.replace("ids: [2, 0, 2]", "ids: [2, 3, 2]"),
        "F:4: embedding.ids[1]: expected a whole number from 0 to 2 (an id of the vocabulary), got 3",
        id="id-out",
    ),
    pytest.param(
        GOOD.replace("ids: [2, 0, 2]", "ids: []"),
        "F:4: embedding.ids: expected a list of token ids (one per position), got an empty list",
        id="ids-empty",
    ),
    pytest.param(
        GOOD.replace("P: [[1, 0], [0, 1], [0, 0]]", "P: [[1, 0], [0, 1]]"),
        "F:5: embedding.P: expected a matrix with at least 3 rows (one per position) and 2 columns (d_model), got 2×2",
        id="P-short",
    ),
    pytest.param(
        GOOD.replace("  P: [[1, 0], [0, 1], [0, 0]]", "  p: [[1, 0], [0, 1], [0, 0]]"),
        "F:5: embedding.p: expected one of the fields E, P, ids, got an unknown field (did you mean P?)",
        id="embedding-typo",
    ),
    pytest.param(
        GOOD.replace("W_U: [[1, 0, 1], [0, 1, 1]]", "W_U: [[1, 0], [0, 1]]"),
        "F:12: unembedding.W_U: expected a 2×3 matrix (d_out × n_vocab), got 2×2",
        id="W_U-shape",
    ),
    pytest.param(
        GOOD.replace("W_U: [[1, 0, 1], [0, 1, 1]]", "W_U: tide"),
        "F:12: unembedding.W_U: expected a 2×3 matrix (d_out × n_vocab), or the word tied, got 'tide'",
        id="W_U-word",
    ),
    pytest.param(
        GOOD.replace(
            EMBEDDED,
            "vocabulary: [a, b, c]\nX: [[1, 0], [0, 1], [1, 1]]\n",
        ).replace("W_U: [[1, 0, 1], [0, 1, 1]]", "W_U: tied"),
        "F:9: unembedding.W_U: expected a matrix: tied needs an embedding whose E it transposes, got tied",
        id="tied-no-embedding",
    ),
    pytest.param(
        GOOD.replace("targets: [0, 1, 2]", "targets: [0, 1]"),
        "F:13: unembedding.targets: expected 3 ids, one per position, got 2",
        id="targets-length",
    ),
    pytest.param(
        GOOD.replace("targets: [0, 1, 2]", "targets: [0, 1, 5]"),
        "F:13: unembedding.targets[2]: expected a whole number from 0 to 2 (an id of the vocabulary), got 5",
        id="target-out",
    ),
    pytest.param(
        GOOD + "upstream: [[1, 0], [0, 0], [0, 0]]\n",
        "F:14: upstream: expected a plain self-attention layer (X, heads, causal, W_O) around it, got also embedding",
        id="upstream-beside",
    ),
    pytest.param(
        GOOD.replace("unembedding:\n  W_U: [[1, 0, 1], [0, 1, 1]]\n  targets: [0, 1, 2]\n", "")
        + "sampling: {temperature: 1.0, seed: 1}\n",
        "F:11: sampling: expected unembedding beside it (the logits it draws from), got no unembedding",
        id="sampling-alone",
    ),
    pytest.param(
        GOOD + "sampling: {temperature: 0, seed: 1}\n",
        "F:14: sampling.temperature: expected a number above 0, got 0",
        id="temperature-zero",
    ),
    pytest.param(
        GOOD + "sampling: {temperature: 1.0, top_k: 4, seed: 1}\n",
        "F:14: sampling.top_k: expected a whole number from 1 to 3 (ids kept), got 4",
        id="top-k-large",
    ),
    pytest.param(
        GOOD + "sampling: {temperature: 1.0, seed: -1}\n",
        "F:14: sampling.seed: expected a whole number from 0 to 4294967295 (numpy default_rng's seed), got -1",
        id="seed-negative",
    ),
    pytest.param(
        GOOD + "sampling: {temperature: 1.0}\n",
        "F:14: sampling.seed: expected this field, got nothing: it is missing",
        id="sampling-no-seed",
    ),
    pytest.param(
        GOOD.replace("  targets: [0, 1, 2]\n", "") + "train: {lr: 0.1}\n",
        "F:13: train: expected unembedding with targets beside it (the loss a step lowers), got no targets",
        id="train-no-targets",
    ),
    pytest.param(
        GOOD + "train: {lr: -1}\n",
        "F:14: train.lr: expected a learning rate above 0, got -1",
        id="train-lr",
    ),
    pytest.param(
        GOOD + "train: {lr: 0.1}\npositions: {encoding: sinusoidal}\n",
        f"F:14: train: expected no positions alongside it ({TRAIN_WHY}), got positions as well",
        id="train-positions",
    ),
    pytest.param(
        STACK.replace("W_U: tied", "W_U: tied\n  targets: [0, 1, 2]") + "train: {lr: 0.1}\n",
        f"F:14: train: expected no layers alongside it ({TRAIN_WHY}), got layers as well",
        id="train-layers",
    ),
    pytest.param(
        STACK + "heads: []\n",
        f"F:6: layers: expected no heads alongside it ({STACK_WHY}), got heads as well",
        id="layers-heads",
    ),
    pytest.param(
        STACK.replace("  - heads:\n", "  - transformer: {order: pre}\n    heads:\n"),
        "F:7: layers[0].transformer: expected heads and W_O only: a transformer block is not stacked here, got a block",
        id="layers-transformer-inside",
    ),
    pytest.param(
        STACK.replace(
            "        W_V: [[1, 0], [0, 1]]\n", "        W_V: [[1, 0], [0, 1]]\n    W_O: [[1, 0, 0], [0, 1, 0]]\n"
        ),
        "F:11: layers[0].W_O: expected a 2×2 matrix (heads · d_v × d_model, back to the stream), got 2×3",
        id="layers-W_O-shape",
    ),
    pytest.param(
        STACK.replace("        W_V: [[1, 0], [0, 1]]\n", "        W_V: [[1], [0]]\n"),
        "F:7: layers[0].W_O: expected a 1×2 matrix: the heads' values are 1 wide, the stream 2, got none",
        id="layers-W_O-missing",
    ),
    pytest.param(
        STACK + "positions: {encoding: sinusoidal}\n",
        f"F:6: layers: expected no positions alongside it ({STACK_WHY}), got positions as well",
        id="layers-positions",
    ),
    pytest.param(
        STACK.replace(
            ONE_LAYER,
            "layers: []\n",
        ),
        "F:6: layers: expected a list with one entry (heads, and W_O optionally) per layer, got an empty list",
        id="layers-empty",
    ),
    pytest.param(
        "heads: [{W_Q: [[1]], W_K: [[1]], W_V: [[1]]}]\n",
        "F: X: expected this field, or embedding (token ids and their embedding matrix), got nothing: it is missing",
        id="missing-X",
    ),
]


@pytest.mark.parametrize(("text", "message"), CASES)
def test_each_mistake_is_refused_at_its_field(tmp_path, text, message):
    assert error_for(tmp_path, text) == message


def test_the_good_fixtures_load(tmp_path):
    """The control: both bases load, so each refusal above is the one change's."""
    good = fixture.load(write(tmp_path, GOOD))
    stack = fixture.load(write(tmp_path, STACK, "stack.yaml"))
    assert good.tokens == ("c", "a", "c") and good.unembedding.targets == (0, 1, 2)
    assert len(stack.layers) == 1 and stack.heads == () and stack.unembedding.tied
