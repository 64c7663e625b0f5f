"""The layer with the sequence keys (macros/engine/sequence.py), the scale study and the
helpers their lessons use (macros/vocabulary/recomputed.py, macros/vocabulary/positions.py, macros/render/latex.py,
macros/render/rotary_widget.py): hand-worked values with their source, identities, and
Hypothesis for the rest."""

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from macros.engine import attention, positions, scale_study, sequence
from macros.render import rotary_widget
from macros.vocabulary import positions as encodings
from macros.vocabulary import recomputed, scaling

# Drawing matrices is slow on a busy machine; the inputs are small and the check is not.
relaxed = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
finite = st.floats(-3, 3, allow_nan=False, allow_infinity=False)


def matrix(rows, cols):
    return arrays(np.float64, (rows, cols), elements=finite)


@st.composite
def layers(draw, even=False):
    n, m, d_model = draw(st.integers(1, 5)), draw(st.integers(1, 5)), draw(st.integers(1, 4))
    d_k = 2 * draw(st.integers(1, 2)) if even else draw(st.integers(1, 3))
    heads = [
        (draw(matrix(d_model, d_k)), draw(matrix(d_model, d_k)), draw(matrix(d_model, 2)))
        for _ in range(draw(st.integers(1, 2)))
    ]
    return draw(matrix(n, d_model)), draw(matrix(m, d_model)), heads


class TestScaleStudy:
    def test_softmax_at_temperature_by_hand(self):
        # softmax([0, ln 2]) = [1, 2] / 3; at T = 2, [0, 2 ln 3] / 2 = [0, ln 3] gives [1, 3] / 4.
        assert np.allclose(scale_study.softmax([0.0, math.log(2)]), [1 / 3, 2 / 3], atol=1e-15)
        assert np.allclose(scale_study.softmax([0.0, 2 * math.log(3)], 2.0), [1 / 4, 3 / 4], atol=1e-15)

    def test_the_table_is_reproduced_by_the_same_seed_and_loop(self):
        table = scale_study.variance_table([1, 4], 500, 7)
        rng = np.random.default_rng(7)
        dots = [np.einsum("sd,sd->s", rng.standard_normal((500, d)), rng.standard_normal((500, d))) for d in (1, 4)]
        assert [row[1] for row in table] == [float(np.var(x)) for x in dots]
        assert [row[3] for row in table] == [1.0, 4.0]

    def test_scaled_variance_is_the_variance_over_d_k(self):
        for d_k, var, scaled, _ in scale_study.variance_table([1, 4, 16, 64], 2000, 3):
            assert math.isclose(scaled, var / d_k, rel_tol=1e-12)

    def test_the_measured_variance_is_near_d_k(self):
        # Var(q . k) = d_k for independent standard-normal entries; 20000 samples, 5% is ample.
        assert scaling.variances_agree(scale_study.variance_table([1, 4, 16, 64], 20000, 7), 0.05)


class TestSequenceLayer:
    @relaxed
    @given(layers())
    def test_a_source_equal_to_X_is_self_attention(self, drawn):
        X, _, heads = drawn
        crossed = sequence.layer(X, heads, source=X)
        plain = attention.self_attention(X, heads)
        assert np.allclose(crossed.output, plain.output, atol=1e-12, rtol=1e-12)

    @relaxed
    @given(layers(), st.data())
    def test_the_batch_in_front_is_the_first_length_alone(self, drawn, data):
        X, source, heads = drawn
        lengths = data.draw(st.lists(st.integers(1, source.shape[0]), min_size=2, max_size=3))
        batch = sequence.sequence_attention(X, heads, source=source, key_lengths=lengths)
        for trace, length in zip(batch.batch, lengths, strict=True):
            alone = sequence.layer(X, heads, source=source, key_length=length)
            assert np.array_equal(trace.output, alone.output)
            assert all(np.all(head.weights[:, length:] == 0.0) for head in trace.heads)
        assert np.array_equal(batch.output, batch.batch[0].output)

    @relaxed
    @given(layers(), st.permutations(range(5)))
    def test_permuting_rows_permutes_readings_without_positions(self, drawn, order):
        X, _, heads = drawn
        order = [i for i in order if i < X.shape[0]]
        moved = sequence.layer(X[order], heads)
        assert np.allclose(moved.output, sequence.layer(X, heads).output[order], atol=1e-12, rtol=1e-12)

    @relaxed
    @given(layers(even=True), st.integers(0, 50))
    def test_rotary_scores_depend_only_on_the_offset(self, drawn, shift):
        X, source, heads = drawn
        q, k = (X @ heads[0][0])[0], (source @ heads[0][1])[0]
        for m, n in ((0, 0), (1, 3), (4, 2)):
            a, b = positions.rotary_score(q, k, m, n, 100.0), positions.rotary_score(q, k, m + shift, n + shift, 100.0)
            assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)

    def test_rotary_head_keeps_its_rotated_rows_by_hand(self):
        # q = [1, 0] at position 1 with theta_0 = 1 turns to [cos 1, sin 1] (the rotation matrix).
        X, W = np.array([[1.0, 0.0], [1.0, 0.0]]), np.eye(2)
        trace = sequence.layer(X, [(W, W, W)], encoding="rotary", base=100.0)
        assert np.allclose(trace.heads[0].Q[1], [math.cos(1), math.sin(1)], atol=1e-15)
        assert np.array_equal(trace.heads[0].Q_projected[1], [1.0, 0.0])


class TestHelpers:
    def test_take_rows_counts_from_one(self):
        assert recomputed.take_rows([[1], [2], [3]], [3, 1, 2]).tolist() == [[3], [1], [2]]

    def test_rotate_turns_a_pair_by_its_angle(self):
        assert np.allclose(encodings.rotate([2.0, 0.0], 5, 100.0), [2 * math.cos(5), 2 * math.sin(5)], atol=1e-15)

    def test_the_rotary_widget_reads_without_javascript(self):
        text = rotary_widget.lab([1.0, 0.0], [0.0, 1.0], 100.0, 1, 3, [(1, 3), (3, 1)], 3)
        # q . R(2) k with q = [1, 0], k = [0, 1]: -sin 2 = -0.909; the swapped offset gives sin 2.
        assert '<span data-role="score">−0.909</span>' in text
        assert "| 1 | 3 | 2 | −0.909 |" in text and "| 3 | 1 | −2 | 0.909 |" in text
        assert 'data-q="[1.0, 0.0]"' in text and "<input" not in text
