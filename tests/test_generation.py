"""The generation steps as a lesson sees them: the fixture keys wired to the engine's new
steps, their identities on the chapter's own lessons, the trace command that prints them,
and the online-softmax lab's text, the same in the browser as in the build."""

import json
import re

import numpy as np
import pytest

from macros import lessons
from macros.engine import attention, cost, online
from macros.render import cost_chart, online_lab
from tests import command, computed
from tests.nodejs import run_node

ROOT = lessons.LESSONS.parent


@pytest.fixture(scope="module")
def chapter():
    return {slug: computed.lesson(slug) for slug in ("kv-cache", "online-softmax")}


def trace_json(slug, *args):
    """What ``python -m macros trace lessons/SLUG/fixture.yaml ARGS`` prints (run in process)."""
    result = command.run("trace", ROOT / "lessons" / slug / "fixture.yaml", *args)
    assert result.returncode == 0, result.stderr
    return result.stdout


class TestIdentities:
    def test_each_cached_step_reads_row_t_of_the_causal_layer(self, chapter):
        lesson = chapter["kv-cache"]
        readings = lesson.generation.decoding.heads[0].readings
        assert np.max(np.abs(readings - lesson.trace.heads[0].output)) <= 1e-12

    @pytest.mark.parametrize("block_size", [1, 2, 3, 4, 5, 6])
    def test_any_block_size_gives_the_one_pass_reading(self, chapter, block_size):
        head = chapter["online-softmax"].trace.heads[0]
        result = online.online_attention(head.Q, head.K, head.V, block_size, head.visible)
        assert np.max(np.abs(result.output - head.output)) <= 1e-12

    def test_the_trace_without_generation_keys_has_none(self):
        assert computed.lesson("attention-by-hand").generation is None


class TestHandValues:
    def test_bytes_per_token_of_the_stated_configuration(self, chapter):
        # 32 layers x 32 heads x (128 + 128) numbers x 2 bytes = 524288, by hand.
        assert chapter["kv-cache"].generation.bytes_per_token == 524288

    def test_first_block_of_the_online_lesson(self, chapter):
        # Row 3 = [1, 1] against keys [1, 0], [0, 1]: scores 1, 1, scaled 1/sqrt(2) each,
        # so m = 1/sqrt(2), l = e^0 + e^0 = 2, acc = [1, 0] + [0, 1] = [1, 1].
        block = chapter["online-softmax"].generation.online.heads[0].blocks[0]
        assert (block.m[2], block.l[2], block.acc[2].tolist()) == (pytest.approx(2**-0.5), 2.0, [1.0, 1.0])

    def test_a_window_of_n_is_plain_causal(self, tmp_path):
        lesson = chapter_with(tmp_path, "window: 4\n")
        plain = attention.self_attention(
            lesson.fixture.X, [(h.W_Q, h.W_K, h.W_V) for h in lesson.fixture.heads], causal=True
        )
        assert np.array_equal(lesson.generation.window.output, plain.output)
        assert lesson.generation.window_pairs == cost.causal_pairs(4) == 10  # 1 + 2 + 3 + 4


class TestDecodeCost:
    def test_a_row_per_length_when_the_sizes_and_bytes_are_given(self):
        # d_model 4096 = 32 x 128, 2 bytes, n = 16: the step reads 4 * 4096^2 = 67108864
        # weights and 2 * 16 * 4096 = 131072 cached numbers, one multiply-add each.
        lesson = computed.lesson("decoding-cost")
        rows = lesson.generation.decode_cost
        assert [row.n for row in rows] == list(lesson.fixture.params["lengths"])
        assert rows[0].step.macs == rows[0].step.numbers_read == 67108864 + 131072

    def test_no_rows_without_bytes_per_number(self):
        assert computed.lesson("attention-cost").generation.decode_cost == ()
        assert computed.lesson("kv-cache").generation.decode_cost == ()


def chapter_with(tmp_path, extra):
    folder = tmp_path / "lesson"
    folder.mkdir()
    text = (lessons.LESSONS / "kv-cache" / "fixture.yaml").read_text(encoding="utf-8")
    (folder / "fixture.yaml").write_text(text + extra, encoding="utf-8")
    (folder / "lesson.md").write_text("---\ntitle: T\nkind: worked example\nminutes: 1\nsummary: S.\n---\n# T\n")
    return lessons.load(folder)


class TestTraceCommand:
    def test_the_new_steps_are_printed_beside_the_layer(self):
        data = json.loads(trace_json("kv-cache"))
        assert list(data) == ["heads", "concat", "W_O", "output", "decoding", "memory"]
        step = data["decoding"]["heads"][0]["steps"][1]
        assert step["K_cache"] == [[1.0, 1.0], [0.0, 2.0]]  # k_1 = x_1 W_K, k_2 = x_2 W_K, by hand

    def test_a_block_is_selected_by_its_path(self):
        # Row 3's first block, by hand as above: l = 2.
        assert json.loads(trace_json("online-softmax", "--path", "online.heads.0.blocks.0.l"))[2] == 2.0


class TestOnlineLab:
    def test_the_browser_prints_the_blocks_as_the_build_does(self, chapter):
        head, places = chapter["online-softmax"].trace.heads[0], chapter["online-softmax"].decimals
        n = head.K.shape[0]
        calls, expected = [], []
        for block_size in range(1, n + 1):
            for row in range(n):
                payload = {"Q": head.Q.tolist(), "K": head.K.tolist(), "V": head.V.tolist()}
                calls.append(
                    payload | {"visible": head.visible.tolist(), "row": row, "blockSize": block_size, "places": places}
                )
                rows, reading = online_lab.block_rows(head, row, block_size, places)
                expected.append({"rows": rows, "reading": reading})
        assert run_node("run_online_lab.mjs", calls) == expected

    def test_every_block_size_shows_the_same_reading(self, chapter):
        head = chapter["online-softmax"].trace.heads[0]
        readings = {online_lab.block_rows(head, 2, b, 3)[1] for b in range(1, 7)}
        assert readings == {"1.447, 1.447"}


class TestCostChart:
    def test_a_square_climbs_twice_as_steeply_as_a_line(self):
        # On log-log axes n has slope 1 and n^2 slope 2: over the same x span, the n^2 line
        # rises twice as many pixels (hand reasoning, no numbers from the chart's code).
        xs = [1, 2, 4, 8]
        svg = cost_chart.line_chart(xs, [("n²", [x * x for x in xs]), ("n", xs)], "t", "n", "count")
        lines = re.findall(r'<polyline class="abh-line [^"]+" points="([^"]+)"', svg)
        rises = [float(p.split()[0].split(",")[1]) - float(p.split()[-1].split(",")[1]) for p in lines]
        assert rises[0] == pytest.approx(2 * rises[1], abs=0.2)

    def test_the_chart_has_a_title_for_screen_readers(self):
        svg = cost_chart.line_chart([1, 2], [("a", [1, 2])], "Counts & lengths", "n", "count")
        assert 'role="img" aria-label="Counts &amp; lengths"' in svg
