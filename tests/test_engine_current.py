"""Attention as current models run it (macros/engine/latent.py, sinks.py, linear.py, paging.py),
against values worked by hand from the papers' equations and the identities that must hold:
the absorbed latent form gives the same scores and output; a sink of −∞ is plain attention;
linear attention's two ways agree; pages are handed out first free in request order."""

import math

import numpy as np
import pytest

from macros.engine import attention, latent, linear, paging, sinks
from macros.engine.scoring import LayerScoring, Scoring
from macros.errors import FixtureError
from macros.sources.fixture import validate
from macros.vocabulary import recomputed

RNG = np.random.default_rng(34)


class TestLatent:
    def test_by_hand(self):
        # DeepSeek-V2 (2024), eqs. 9 to 11, rows for columns: c = x W_DKV, k = c W_UK, v = c W_UV.
        # x = [1, 2]: c = [1, 2, 1 + 2] = [1, 2, 3]; k = [1 + 3, 2 + 3] = [4, 5]; v = [1 + 2·3] = [7].
        c = latent.compress(np.array([[1.0, 2.0]]), np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]))
        assert np.array_equal(c, [[1, 2, 3]])
        assert np.array_equal(latent.rebuild(c, np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])), [[4, 5]])
        assert np.array_equal(latent.rebuild(c, np.array([[1.0], [0.0], [2.0]])), [[7]])

    def layer(self, causal=True, W_O=None):
        X = RNG.normal(size=(4, 5))
        spec = latent.LatentSpec(
            RNG.normal(size=(5, 3)), tuple(RNG.normal(size=(2, 3, 2))), tuple(RNG.normal(size=(2, 3, 2)))
        )
        W_Qs = list(RNG.normal(size=(2, 5, 2)))
        return X, spec, W_Qs, latent.latent_attention(X, W_Qs, spec, causal, W_O)

    def test_the_absorbed_form_gives_the_same_scores_and_output(self):
        # q kᵀ = q (c W_UK)ᵀ = (q W_UKᵀ) cᵀ; and A (C W_UV) W_O^(h) = A C (W_UV W_O^(h)).
        _, _, _, (trace, record) = self.layer(W_O=RNG.normal(size=(4, 5)))
        for head, absorbed in zip(trace.heads, record.heads, strict=True):
            assert np.allclose(absorbed.scores, head.scores, atol=1e-12)
        assert np.allclose(record.output, trace.output, atol=1e-12)

    def test_the_scale_stays_one_over_root_d_k(self):
        _, spec, _, (trace, _) = self.layer()
        assert spec.d_c == 3 and all(head.scale == 1 / math.sqrt(2) for head in trace.heads)

    def test_it_is_multi_head_attention_with_the_projections_folded(self):
        # W_K = W_DKV W_UK and W_V = W_DKV W_UV give the same keys, values and readings.
        X, spec, W_Qs, (trace, _) = self.layer()
        folded = [(W_Q, W_K, W_V) for W_Q, (W_K, W_V) in zip(W_Qs, spec.folded(), strict=True)]
        plain = attention.self_attention(X, folded, causal=True)
        assert np.allclose(plain.output, trace.output, atol=1e-12)

    def test_deepseek_v2s_cache_per_token(self):
        # DeepSeek-V2, Table 1, with its sizes: 128 heads of d_h = 128, d_c = 4 d_h = 512 and
        # d_h^R = d_h / 2 = 64: MHA 2·128·128, GQA (8 groups) 2·8·128, MQA 2·128, MLA 512 + 64 = 4.5 d_h.
        rows = dict(latent.cache_per_token(128, 128, 8, 512, 64))
        assert rows == {"multi-head": 32768, "grouped-query": 2048, "multi-query": 256, "multi-head latent": 576}
        assert rows["multi-head latent"] == 4.5 * 128


class TestSinks:
    def test_by_hand(self):
        # gpt-oss's sinks: softmax over [logits, s], the sink column dropped. [ln 2, 0] with s = 0:
        # e^(x − ln 2) gives 1, 1/2 and the sink's 1/2, over 2: weights [1/2, 1/4], sink 1/4.
        parts, sink = sinks.sink_softmax(np.array([[math.log(2), 0.0]]), np.ones((1, 2), bool), 0.0)
        assert np.allclose(parts.weights, [[0.5, 0.25]], atol=1e-15) and np.allclose(sink, [0.25], atol=1e-15)
        assert np.allclose(parts.weights.sum() + sink, 1.0, atol=1e-15)

    def test_a_sink_of_minus_infinity_is_plain_attention(self):
        Q, K, V = (RNG.normal(size=(4, 3)) for _ in range(3))
        plain = attention.attend(Q, K, V, causal=True)
        sunk = attention.attend(Q, K, V, causal=True, scoring=Scoring(sink=-np.inf))
        assert np.array_equal(sunk.weights, plain.weights) and np.array_equal(sunk.sink_weight, np.zeros(4))

    def test_a_row_that_sees_no_key_gives_the_sink_everything(self):
        weights, sink = recomputed.sink_row([3.0, -1.0], [False, False], 0.5)
        assert np.array_equal(weights, [0.0, 0.0]) and sink == 1.0

    def test_a_fully_masked_row_is_refused_without_a_sink_and_read_as_zero_with_one(self):
        Q, K, V = (RNG.normal(size=(2, 2)) for _ in range(3))
        visible = np.array([[True, False], [False, False]])
        head = attention.attend_with(Q, K, V, visible, Scoring(sink=0.0))
        assert head.sink_weight[1] == 1.0 and np.array_equal(head.output[1], [0.0, 0.0])
        with pytest.raises(ValueError, match="see no key"):
            from macros.engine import masks

            masks.attend_visible(Q, K, V, visible)

    def test_streamingllms_mask_by_hand(self):
        # Xiao et al. (2023): key j visible to query i when j ≤ i and (j < tokens or j > i − window).
        # 5 tokens, window 2, 1 sink token: row 5 (index 4) sees keys 1, 4 and 5.
        visible = sinks.streaming_window(5, 2, 1)
        assert visible[4].tolist() == [True, False, False, True, True]
        assert visible[1].tolist() == [True, True, False, False, False]
        assert np.array_equal(sinks.streaming_window(5, 5, 1), np.tril(np.ones((5, 5), bool)))  # window ≥ n: causal


class TestLinear:
    def test_the_feature_map(self):
        # elu(x) + 1: x + 1 for x > 0, e^x for x ≤ 0 (elu(0) + 1 = 1 = e^0).
        assert np.allclose(linear.elu_plus_one(np.array([1.0, 0.0, -1.0])), [2.0, 1.0, math.exp(-1)], atol=1e-15)

    def test_by_hand(self):
        # Katharopoulos et al. (2020), eq. 6, no mask: q = [1, 0] → φ = [2, 1]; keys [1, 0] and
        # [0, 1] → [2, 1] and [1, 2]: similarities 5 and 4; values [1, 0], [0, 1]: reading [5/9, 4/9].
        Q, K, V = np.array([[1.0, 0.0]]), np.eye(2), np.eye(2)
        head = linear.attend(Q, K, V, np.ones((1, 2), bool))
        assert np.allclose(head.scores, [[5, 4]]) and np.allclose(head.output, [[5 / 9, 4 / 9]], atol=1e-15)
        assert np.allclose(head.states[0], [[2, 1], [1, 2]]) and np.allclose(head.normalizers[0], [3, 3])

    def test_the_two_ways_agree_and_the_state_runs(self):
        Q, K, V = (RNG.normal(size=(5, 3)) for _ in range(3))
        head = attention.attend(Q, K, V, causal=True, scoring=Scoring(linear="elu_plus_one"))
        assert np.allclose(head.weights @ V, head.output, atol=1e-12)
        for i in range(1, 5):  # M_i = M_(i−1) + φ(k_i)ᵀ v_i
            assert np.allclose(head.states[i], head.states[i - 1] + np.outer(head.phi_K[i], V[i]), atol=1e-12)
        assert np.allclose(head.weights.sum(axis=1), 1.0) and np.all(head.weights[~head.visible] == 0)

    def test_one_more_token_from_the_state_alone(self):
        Q, K, V = (RNG.normal(size=(4, 2)) for _ in range(3))
        scoring = Scoring(linear="elu_plus_one")
        head = attention.attend(Q[:3], K[:3], V[:3], causal=True, scoring=scoring)
        whole = attention.attend(Q, K, V, causal=True, scoring=scoring)
        nxt = recomputed.linear_next(head, Q[3], K[3], V[3])
        assert np.allclose(nxt.reading, whole.output[3], atol=1e-12) and np.allclose(nxt.M, whole.states[3])

    def test_no_scale_to_change(self):
        head = attention.attend(np.eye(2), np.eye(2), np.eye(2), scoring=Scoring(linear="elu_plus_one"))
        assert head.scale == 1.0
        with pytest.raises(ValueError, match="no scale"):
            recomputed.with_scale(head, 0.5)


class TestPaging:
    def test_by_hand(self):
        # vLLM (Kwon et al., 2023): ceil(length / page size) pages each; with pages of 4,
        # 10, 3 and 7 tokens take 3, 1 and 2 pages, numbered first free in request order.
        cache = paging.paged_cache([10, 3, 7], 4, 16)
        assert cache.pages == (3, 1, 2) and cache.block_tables == ((0, 1, 2), (3,), (4, 5))
        assert cache.paged_wasted == (2, 1, 1) and cache.contiguous_wasted == (6, 13, 9)

    def test_first_free(self):
        pool = paging.Pool()
        assert [pool.take() for _ in range(3)] == [0, 1, 2]
        pool.release(1)
        assert pool.take() == 1 and pool.take() == 3

    def test_a_shared_prompt_copies_its_partly_filled_page_on_write(self):
        # 9 tokens, pages of 4: pages 0 and 1 full, page 2 holds 1. The first sequence's write
        # goes to a copy (page 3); the second writes into page 2, now its own: 4 pages, not 6.
        fork = paging.fork(9, (2, 2), 4)
        assert fork.copied and fork.block_tables == ((0, 1, 3), (0, 1, 2))
        assert (fork.pages, fork.separate_pages, fork.shared_pages, fork.fresh_pages) == (4, 6, 2, 5)

    def test_a_prompt_that_fills_its_pages_is_not_copied(self):
        fork = paging.fork(8, (1, 1), 4)
        assert not fork.copied and fork.block_tables == ((0, 1, 2), (0, 1, 3)) and fork.pages == 4


GOOD = {
    "X": [[1, 0], [0, 1], [1, 1]],
    "causal": True,
    "heads": [{"W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]]}],
}
LATENT = {
    "X": [[1, 0], [0, 1], [1, 1]],
    "heads": [{"W_Q": [[1, 0], [0, 1]]}],
    "latent": {"W_DKV": [[1, 0, 1], [0, 1, 1]], "heads": [{"W_UK": [[1, 0], [0, 1], [1, 1]], "W_UV": [[1], [0], [1]]}]},
}


def refused(changes, base=GOOD):
    with pytest.raises(FixtureError) as caught:
        validate("F", {**base, **changes})
    return str(caught.value)


class TestKeys:
    def test_each_key_reads_back_from_its_json_form(self):
        for plain in (
            LATENT,
            {**GOOD, "window": 2, "sink": {"tokens": 1, "logits": [0.5]}},
            {**GOOD, "linear": {"feature": "elu_plus_one"}},
            {**GOOD, "paged": {"page_size": 2}, "params": {"lengths": [3, 1], "max_length": 4}},
        ):
            assert validate("F", validate("F", plain).to_plain()).to_plain() == validate("F", plain).to_plain()

    @pytest.mark.parametrize(
        ("changes", "base", "message"),
        [
            (
                {"kv_heads": [{"W_K": [[1], [0]], "W_V": [[1], [0]]}]},
                LATENT,
                "latent: expected no kv_heads alongside it",
            ),
            ({"positions": {"encoding": "rotary"}}, LATENT, "latent: expected no positions alongside it"),
            (
                {"heads": [{"W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]]}]},
                LATENT,
                "heads[0].W_K: expected only W_Q",
            ),
            (
                {"latent": {"W_DKV": [[1, 0, 1], [0, 1, 1]], "heads": [{"W_UK": [[1, 0]], "W_UV": [[1]]}]}},
                LATENT,
                "latent.heads[0].W_UK: expected a 3×2 matrix",
            ),
            ({"sink": {"logits": [0.5, 1.0]}}, GOOD, "sink.logits: expected a list of 1 numbers"),
            ({"sink": {"tokens": 1}}, GOOD, "sink.tokens: expected window alongside it"),
            ({"sink": {"tokens": 3}, "window": 2}, GOOD, "sink.tokens: expected a whole number from 1 to 2"),
            ({"sink": {"count": 1}}, GOOD, "sink.count: expected one of the fields logits, tokens"),
            ({"linear": {"feature": "relu"}}, GOOD, "linear.feature: expected one of elu_plus_one"),
            ({"linear": {"feature": "elu_plus_one"}, "softcap": 2.0}, GOOD, "linear: expected no softcap alongside"),
            ({"paged": {"page_size": 2}}, GOOD, "paged: expected params.lengths alongside it"),
            (
                {"paged": {"page_size": 2}, "params": {"lengths": [3, 9], "max_length": 4}},
                GOOD,
                "params.lengths[1]: expected a whole number from 1 to 4",
            ),
            ({"paged": {"page_size": 0}}, GOOD, "paged.page_size: expected a whole number of at least 1"),
        ],
    )
    def test_a_mistake_is_refused_at_its_key(self, changes, base, message):
        assert message in refused(changes, base)

    def test_sink_logits_are_per_head_in_the_scoring(self):
        data = validate("F", {**GOOD, "sink": {"logits": [0.5]}})
        assert data.scoring == LayerScoring(sink=(0.5,)) and data.scorings(1)[0].sink == 0.5
