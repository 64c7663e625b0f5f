"""The model around attention (macros/engine/embedding.py, unembedding.py, sampling.py, stack.py,
training.py): values worked by hand, with where each comes from, and identities.

Hand values:
- embedding: E = [[1, 0], [0, 1], [1, 1]], ids (2, 0, 2), P = [[1, 0], [0, 2], [0, 0], [5, 5]]:
  E[ids] = [[1, 1], [1, 0], [1, 1]], P[0:3] = [[1, 0], [0, 2], [0, 0]], so X = [[2, 1], [1, 2], [1, 1]].
- unembedding: Y = [[1, 0], [0, 1]], W_U = [[1, 0, 0], [0, 1, 0]]: logits = [[1, 0, 0], [0, 1, 0]];
  row 1's softmax is (e, 1, 1) / (e + 2); with targets (0, 2) the loss is
  (−log(e/(e + 2)) − log(1/(e + 2))) / 2 = log(e + 2) − 1/2.
- sampling: logits (2, 1, 1, 0) at T = 1, top_k = 2: ids 1 and 2 tie, the lower is kept, so
  kept = (0, 1) and the draw's vector is (e², e, 0, 0) / (e² + e) = (e/(e + 1), 1/(e + 1), 0, 0).
"""

import dataclasses
import json
import math

import numpy as np
import pytest

from macros.engine import attention, embedding, sampling, stack, training, unembedding
from macros.engine.trace import to_dict
from macros.sources import fixture
from tests import command

E = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
P = np.array([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0], [5.0, 5.0]])
IDS = (2, 0, 2)


class TestEmbedding:
    def test_the_lookup_and_the_positions_by_hand(self):
        made = embedding.embed(embedding.EmbeddingSpec(E, IDS, P))
        assert made.rows.tolist() == [[1, 1], [1, 0], [1, 1]]
        assert made.positions.tolist() == [[1, 0], [0, 2], [0, 0]]
        assert made.X.tolist() == [[2, 1], [1, 2], [1, 1]]

    def test_one_hot_rows_times_E_are_the_lookup(self):
        made = embedding.embed(embedding.EmbeddingSpec(E, IDS, P))
        assert made.one_hot.tolist() == [[0, 0, 1], [1, 0, 0], [0, 0, 1]]
        assert np.array_equal(made.one_hot @ E, made.rows)

    def test_a_token_twice_gets_one_row_without_positions_and_two_with_them(self):
        bare = embedding.embed(embedding.EmbeddingSpec(E, IDS))
        placed = embedding.embed(embedding.EmbeddingSpec(E, IDS, P))
        assert np.array_equal(bare.X[0], bare.X[2]) and not np.array_equal(placed.X[0], placed.X[2])
        assert bare.positions is None and "positions" not in bare.to_dict()


class TestUnembedding:
    Y = np.array([[1.0, 0.0], [0.0, 1.0]])
    W_U = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])

    def found(self, targets=(0, 2)):
        return unembedding.next_token(self.Y, unembedding.UnembeddingSpec(self.W_U, targets))

    def test_logits_probabilities_and_the_loss_by_hand(self):
        found = self.found()
        e = math.e
        assert found.logits.tolist() == [[1, 0, 0], [0, 1, 0]]
        assert found.probs[0] == pytest.approx([e / (e + 2), 1 / (e + 2), 1 / (e + 2)])
        assert found.loss == pytest.approx(math.log(e + 2) - 0.5)

    def test_the_gradient_is_probs_minus_one_hot_over_n(self):
        found = self.found()
        expected = found.probs.copy()
        expected[0, 0] -= 1
        expected[1, 2] -= 1
        assert np.allclose(found.d_logits, expected / 2, atol=1e-15)
        assert np.allclose(found.d_logits.sum(axis=1), 0, atol=1e-15)  # each row of probs adds up to 1

    def test_the_gradient_against_finite_differences(self):
        def loss(logits):
            return unembedding.cross_entropy(unembedding.probabilities(logits), (0, 2))

        found, h = self.found(), 1e-6
        numerical = np.zeros_like(found.logits)
        for index in np.ndindex(found.logits.shape):
            up, down = found.logits.copy(), found.logits.copy()
            up[index] += h
            down[index] -= h
            numerical[index] = (loss(up) - loss(down)) / (2 * h)
        assert np.allclose(numerical, found.d_logits, atol=1e-9)

    def test_tied_uses_E_transposed(self):
        Y = np.array([[1.0, 2.0]])
        found = unembedding.next_token(Y, unembedding.UnembeddingSpec(None), E)
        assert found.logits.tolist() == [[1, 2, 3]]  # y · each row of E
        assert found.loss is None and found.d_logits is None  # no targets, no loss


class TestSampling:
    LOGITS = np.array([2.0, 1.0, 1.0, 0.0])

    def test_top_k_breaks_a_tie_towards_the_lower_id(self):
        drawn = sampling.sample(self.LOGITS, sampling.SamplingSpec(1.0, 2, 7))
        e = math.e
        assert drawn.kept == (0, 1)
        assert drawn.renormalised == pytest.approx([e / (e + 1), 1 / (e + 1), 0, 0])

    def test_no_top_k_keeps_every_id_largest_first(self):
        drawn = sampling.sample(self.LOGITS, sampling.SamplingSpec(1.0, None, 7))
        assert drawn.kept == (0, 1, 2, 3) and drawn.renormalised == pytest.approx(drawn.probs)

    def test_temperature_divides_the_logits(self):
        drawn = sampling.sample(self.LOGITS, sampling.SamplingSpec(2.0, None, 7))
        assert drawn.scaled.tolist() == [1.0, 0.5, 0.5, 0.0]

    @pytest.mark.parametrize("seed", range(40))
    def test_the_choice_is_numpys_draw_and_the_first_running_total_above_u(self, seed):
        spec = sampling.SamplingSpec(0.7, 3, seed)
        drawn = sampling.sample(self.LOGITS, spec)
        assert drawn.choice == int(np.random.default_rng(seed).choice(4, p=drawn.renormalised))
        assert drawn.choice == int(np.searchsorted(drawn.cumulative / drawn.cumulative[-1], drawn.u, side="right"))
        assert drawn.choice in drawn.kept

    def test_the_draw_reaches_a_token_greedy_would_not(self):
        # Control: over 40 seeds the draw is not always the largest probability.
        choices = {sampling.sample(self.LOGITS, sampling.SamplingSpec(1.0, 3, s)).choice for s in range(40)}
        assert len(choices) > 1 and choices <= {0, 1, 2}


class Head:
    def __init__(self, W_Q, W_K, W_V):
        self.W_Q, self.W_K, self.W_V = W_Q, W_K, W_V


class TestStack:
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    ONE = Head(np.eye(2), np.eye(2), np.eye(2))
    TWO = Head(np.array([[0.0, 1.0], [1.0, 0.0]]), np.eye(2), np.array([[1.0, -1.0], [0.0, 2.0]]))

    def test_a_layer_that_writes_nothing_leaves_the_stream_as_it_was(self):
        silent = Head(np.eye(2), np.eye(2), np.zeros((2, 2)))
        assert np.array_equal(stack.stack(self.X, [stack.LayerSpec((silent,))]).output, self.X)

    def test_each_layer_reads_the_stream_and_adds_its_output(self):
        found = stack.stack(self.X, [stack.LayerSpec((self.ONE,)), stack.LayerSpec((self.TWO,))], causal=True)
        first = attention.self_attention(self.X, [(np.eye(2),) * 3], causal=True)
        second = attention.self_attention(self.X + first.output, [(self.TWO.W_Q, self.TWO.W_K, self.TWO.W_V)], True)
        assert np.allclose(found.layers[0].output, first.output) and np.allclose(found.layers[1].output, second.output)
        assert np.allclose(found.output, self.X + first.output + second.output)
        assert np.allclose(stack.streams(self.X, found)[-1], found.output)

    def test_the_json_form_has_no_heads_of_its_own(self):
        data = to_dict(stack.stack(self.X, [stack.LayerSpec((self.ONE,))]))
        assert set(data) == {"output", "layers"} and set(data["layers"][0]) == {"heads", "concat", "W_O", "output"}


def tiny(tied=False):
    """A model of a vocabulary of three, ids (2, 0, 2) (one id twice, id 1 never), one causal head."""
    W_U = None if tied else np.array([[1.0, -1.0, 0.5], [0.0, 1.0, -1.0]])
    W_Q, W_K = np.array([[1.0, 0.5], [0.0, 1.0]]), np.array([[1.0, 0.0], [-1.0, 1.0]])
    return training.Parameters(E, P, (W_Q,), (W_K,), (np.eye(2),), np.array([[1.0, 1.0], [0.0, 1.0]]), W_U)


def numerical(params, name, targets=(0, 2, 0), h=1e-6):
    """The loss's slope along each entry of one matrix (head 1's for a per-head one)."""

    def loss(p):
        return training.forward(p, IDS, None, targets, True)[2].loss

    value = getattr(params, name)
    per_head = name in training.PER_HEAD
    value = value[0] if per_head else value
    slopes = np.zeros_like(value)
    for index in np.ndindex(value.shape):
        up, down = value.copy(), value.copy()
        up[index] += h
        down[index] -= h
        wrap = (lambda v: (v,)) if per_head else (lambda v: v)
        slopes[index] = (
            loss(dataclasses.replace(params, **{name: wrap(up)}))
            - loss(dataclasses.replace(params, **{name: wrap(down)}))
        ) / (2 * h)
    return slopes


class TestTraining:
    @pytest.mark.parametrize("tied", [False, True], ids=["own W_U", "tied"])
    def test_every_gradient_agrees_with_finite_differences(self, tied):
        params = tiny(tied)
        step, _ = training.train_step(params, IDS, None, (0, 2, 0), True, 0.1)
        assert list(step.grads) == [n for n in training.ORDER if n != "W_U" or not tied]
        for name, grad in step.grads.items():
            ours = grad[0] if name in training.PER_HEAD else grad
            assert np.allclose(ours, numerical(params, name), atol=1e-8), name

    def test_an_id_the_text_never_uses_gets_no_gradient_unless_tied(self):
        own, _ = training.train_step(tiny(), IDS, None, (0, 2, 0), True, 0.1)
        tied, _ = training.train_step(tiny(True), IDS, None, (0, 2, 0), True, 0.1)
        assert (own.grads["E"][1] == 0).all()  # id 1 is in no position
        assert (tied.grads["E"][1] != 0).any()  # but its row is a column of W_U, which every logit row reads

    def test_positions_past_the_text_get_no_gradient(self):
        step, back = training.train_step(tiny(), IDS, None, (0, 2, 0), True, 0.1)
        assert (step.grads["P"][3] == 0).all() and np.array_equal(step.grads["P"][:3], back.d_X)

    def test_the_tied_gradient_is_the_sum_of_both_paths(self):
        params = tiny(True)
        step, back = training.train_step(params, IDS, None, (0, 2, 0), True, 0.1)
        _, layer, found = training.forward(params, IDS, None, (0, 2, 0), True)
        through_logits = (layer.output.T @ found.d_logits).T  # dW_Uᵀ with W_U = Eᵀ
        one_hot = embedding.one_hot(IDS, 3)
        assert np.allclose(step.grads["E"], one_hot.T @ back.d_X + through_logits, atol=1e-15)

    def test_a_small_step_lowers_the_loss_by_about_lr_times_the_squared_gradients(self):
        lr = 1e-3
        step, _ = training.train_step(tiny(), IDS, None, (0, 2, 0), True, lr)
        squares = sum(float((np.asarray(g) ** 2).sum()) for g in step.grads.values())
        assert step.loss_after < step.loss_before
        assert step.loss_after - step.loss_before == pytest.approx(-lr * squares, rel=0.01)


LESSON_FIELDS = {
    "tiny-model-step": {"embedding", "logits", "probs", "loss", "d_logits", "train"},
    "next-token": {"embedding", "logits", "probs", "loss", "d_logits", "sampling"},
    "induction-head": {"embedding", "logits", "probs", "layers"},
}


@pytest.mark.parametrize("slug", LESSON_FIELDS)
def test_the_trace_command_prints_the_steps_under_their_names(slug):
    """DESIGN.md's names: embedding, logits, probs, loss, d_logits, sampling, layers, train."""
    result = command.run("trace", f"lessons/{slug}/fixture.yaml")
    printed = json.loads(result.stdout)
    assert result.returncode == 0 and LESSON_FIELDS[slug] <= set(printed)
    assert ("heads" in printed) == ("layers" not in printed)  # a stack has no heads of its own


def test_the_trace_of_a_fixture_with_an_embedding_is_computed_from_its_ids(tmp_path):
    """X is made from the embedding when the layer runs, so a changed id changes the trace."""
    path = tmp_path / "fixture.yaml"
    path.write_text(
        "vocabulary: [a, b, c]\nembedding: {E: [[1, 0], [0, 1], [1, 1]], ids: [2, 0, 2]}\n"
        "heads: [{W_Q: [[1, 0], [0, 1]], W_K: [[1, 0], [0, 1]], W_V: [[1, 0], [0, 1]]}]\n",
        encoding="utf-8",
    )
    loaded = fixture.load(path)
    moved = dataclasses.replace(loaded, embedding=dataclasses.replace(loaded.embedding, ids=(1, 0, 2)))
    assert loaded.tokens == ("c", "a", "c") and moved.run().heads[0].Q.tolist()[0] == [0, 1]


@pytest.mark.parametrize("slug", ["induction-head", "tokens-to-vectors"])
def test_the_json_view_of_a_trace_is_its_json_form(slug):
    """Read through the view field by field, a trace gives what to_dict gives: a stack's view
    lists no "heads" (its heads are its layers'), a layer's lists them."""
    from macros.engine.trace import LAYER_FIELDS, JsonView
    from tests import computed

    trace = computed.lesson(slug).trace
    view = JsonView(trace, LAYER_FIELDS)
    plain = json.loads(json.dumps(to_dict(trace)))
    assert list(view) == list(plain) and all(name in view for name in plain) and len(view) == len(plain)
    assert ("heads" in view) == (slug != "induction-head")
