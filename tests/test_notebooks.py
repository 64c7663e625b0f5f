"""Every lesson's notebook: valid, reproducible, in readers' words, and running clean.

The notebooks are executed with nbclient in a kernel started from this interpreter (a
kernel spec written to a temporary folder), so they see the same numpy as the site build.
"""

import dataclasses
import functools
import json
import re
import shutil
import sys

import nbformat
import pytest

from macros import lessons
from macros.errors import LessonError
from macros.notebooks import block, extra, file_name
from macros.notebooks.build import notebook_bytes
from macros.notebooks.checks import published
from macros.notebooks.layer import describe
from macros.sources.fixture import merged_data, validate
from tests import computed
from tests.computed import SLUGS
from tests.sitebuild import build, edit

KERNEL = "attention-by-hand-python"
load = computed.lesson  # the session's shared lesson (tests/computed.py)
# The lessons whose fixture gives `upstream`: their notebooks run the backward pass.
WITH_GRADIENTS = [slug for slug in SLUGS if "upstream" in merged_data(lessons.LESSONS / slug / "fixture.yaml")]


def read(data):
    return nbformat.reads(data.decode("utf-8"), as_version=4)


@functools.cache
def parsed(slug):
    """The session's notebook of lesson ``slug`` as nbformat reads it, for tests that only look
    at it; a test that changes or runs a notebook reads its own copy."""
    return read(computed.notebook(slug))


def all_source(data):
    return "\n".join(cell.source for cell in read(data).cells)


def code_cells(nb):
    return [cell for cell in nb.cells if cell.cell_type == "code"]


@pytest.fixture(scope="session")
def kernel_specs(tmp_path_factory):
    """A kernel spec running this very interpreter, whatever else is installed on the machine."""
    from jupyter_client.kernelspec import KernelSpecManager  # imported by the slow tests alone

    folder = tmp_path_factory.mktemp("kernels") / KERNEL
    folder.mkdir()
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (folder / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "Python", "language": "python"}))
    return KernelSpecManager(kernel_dirs=[str(folder.parent)])


ANSI = re.compile(r"\x1b\[[0-9;]*m")


class NotebookError(AssertionError):
    """A cell of a lesson's notebook failed: its error in plain text (no terminal colours), with
    the name the page check reports (``err_msg``) and the cell it came from."""


def failed_cell(error, slug):
    """The CellExecutionError of nbclient as one readable message."""
    evalue = ANSI.sub("", str(getattr(error, "evalue", "") or error)).strip()
    source = ANSI.sub("", str(error)).split("------------------")
    cell = source[1].strip().splitlines()[0] if len(source) > 1 else ""
    return NotebookError(
        f"{slug}: the notebook's cell starting {cell!r} failed with {getattr(error, 'ename', 'an error')}: {evalue}\n"
        "A value that differs from the page is named above; the notebook computes it in macros/notebooks/ "
        "(a new step of the engine needs its cells there: docs/authoring.md, 'Adding a step to the engine')."
    )


def execute(nb, kernel_specs, manager=None, slug="notebook"):
    """Run every cell in a fresh kernel, or in ``manager``'s running kernel with its namespace
    cleared first (``%reset -f``, a cell run before the notebook's own and taken out again);
    a failing cell raises NotebookError, in plain words."""
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    try:
        if manager is None:
            manager = KernelManager(kernel_name=KERNEL, kernel_spec_manager=kernel_specs)
            NotebookClient(nb, km=manager, timeout=120).execute()
            return nb
        nb.cells.insert(0, nbformat.v4.new_code_cell("get_ipython().run_line_magic('reset', '-f')"))
        NotebookClient(nb, km=manager, timeout=120).execute()
        del nb.cells[0]
    except CellExecutionError as error:
        raise failed_cell(error, slug) from None
    return nb


def cell_with(nb, text):
    """The one code cell whose source holds ``text``: the page check, the torch comparison."""
    (found,) = [cell for cell in code_cells(nb) if text in cell.source]
    return found


def page_check(nb):
    return cell_with(nb, "page = {}")


def torch_cell(nb):
    """The comparison of the readings with PyTorch (a lesson with gradients has a second cell
    importing torch, for autograd: ``autograd_cell``)."""
    return cell_with(nb, "Skipped the comparison with PyTorch")


def autograd_cell(nb):
    return cell_with(nb, "Skipped autograd")


def text_output(cell):
    return "".join(output.get("text", "") for output in cell.outputs if output.output_type == "stream")


@pytest.fixture(scope="session")
def executed(kernel_specs):
    """Every lesson's notebook, run once per session, one after another in one kernel: each
    starts from a cleared namespace, as in a fresh kernel (the modules a notebook imported stay
    loaded, which changes nothing it computes), so one kernel starts instead of one per lesson.
    test_a_notebook_that_disagrees_with_the_page_fails runs one in a kernel of its own."""
    from jupyter_client.manager import KernelManager

    manager = KernelManager(kernel_name=KERNEL, kernel_spec_manager=kernel_specs)
    manager.start_kernel()
    try:
        return {slug: execute(read(computed.notebook(slug)), kernel_specs, manager, slug) for slug in SLUGS}
    finally:
        manager.shutdown_kernel(now=True)


class TestGenerated:
    @pytest.mark.parametrize("slug", SLUGS)
    def test_validates_with_nbformat(self, slug):
        nbformat.validate(parsed(slug))

    @pytest.mark.parametrize("slug", SLUGS)
    def test_has_no_outputs_and_no_execution_counts(self, slug):
        for cell in code_cells(parsed(slug)):
            assert cell.outputs == [] and cell.execution_count is None

    @pytest.mark.parametrize("slug", SLUGS)
    def test_the_same_lesson_gives_the_same_bytes(self, slug):
        # Loaded and written afresh, against the session's copy made the same way. A notebook
        # holds the lesson's own numbers only, so the practice sets are not drawn again.
        assert notebook_bytes(lessons.load(lessons.LESSONS / slug, practice=False)) == computed.notebook(slug)

    @pytest.mark.parametrize("slug", SLUGS)
    def test_cell_ids_are_unique(self, slug):
        ids = [cell.id for cell in parsed(slug).cells]
        assert len(ids) == len(set(ids))

    def test_file_name_is_the_slug(self):
        assert file_name(load("tracing-two-heads")) == "tracing-two-heads.ipynb"

    @pytest.mark.parametrize("slug", SLUGS)
    def test_imports_numpy_and_torch_only(self, slug):
        source = "\n".join(cell.source for cell in code_cells(parsed(slug)))
        imported = set(re.findall(r"^\s*(?:import|from) (\w+)", source, flags=re.MULTILINE))
        assert imported == {"numpy", "torch"}

    def test_an_additive_lesson_compares_with_torch_through_scores_torch_computes(self):
        # PyTorch has no additive attention: torch's own tanh makes the scores, which reach
        # scaled_dot_product_attention as the float mask of queries of zeros.
        source = torch_cell(parsed("why-attention")).source
        assert "torch.tanh((tensor(q) @ tensor(W_a))" in source
        assert (
            "scaled_dot_product_attention(torch.zeros_like(tensor(q)), tensor(k), tensor(v), attn_mask=logits)"
            in source
        )

    @pytest.mark.parametrize("slug", SLUGS)
    def test_speaks_readers_words(self, slug):
        text = computed.notebook(slug).decode("utf-8")
        assert not re.findall(r"\b(fixture|engine|yaml|tests?)\b", text, flags=re.IGNORECASE)

    @pytest.mark.parametrize("slug", SLUGS)
    def test_title_links_to_the_lesson_page(self, slug):
        lesson = load(slug)
        title = read(notebook_bytes(lesson, page_url="https://example.org/page/")).cells[0]
        assert title.cell_type == "markdown"
        assert f"# {lesson.meta['title']}\n" in title.source
        assert f"[{lesson.meta['title']}](https://example.org/page/)" in title.source

    def test_a_downloaded_notebook_names_its_lesson_without_a_dead_link(self):
        """Published without an address of its own, the notebook names the lesson by its title:
        a relative link such as ./ leads nowhere once the file is downloaded."""
        source = read(computed.notebook("masks")).cells[0].source
        assert "the lesson *Masks* of *Attention by Hand*" in source and "](" not in source

    def test_steps_come_in_the_books_order_and_names(self):
        # Causal two-head lesson: every step of head 1, then head 2, then the layer.
        sources = [cell.source for cell in code_cells(parsed("two-heads-separate-projections"))]
        steps = ["# Project", "# Scores", "# Scale", "# Mask", "# Stable softmax, shift", "# Stable softmax, exp"]
        steps += ["# Stable softmax, sum", "# Stable softmax, divide", "# Readings"]
        order = [step for source in sources for step in steps + ["# Concatenate", "# W_O"] if source.startswith(step)]
        assert order == steps + steps + ["# Concatenate", "# W_O"]

    @pytest.mark.parametrize("order", ["pre", "post"])
    def test_every_cell_of_a_block_prints_what_it_computes(self, order):
        # (test_prints_every_step runs the lessons; this holds for the order no lesson uses too)
        fixture = load("transformer-block").fixture
        fixture = dataclasses.replace(fixture, transformer=dataclasses.replace(fixture.transformer, order=order))
        cells = [cell for cell in block.before_layer(fixture) + block.after_layer(fixture) if cell.kind == "code"]
        assert cells and all("show(" in cell.source for cell in cells)

    def test_a_lesson_given_directly_splits_its_columns_into_heads(self):
        source = "\n".join(cell.source for cell in parsed("two-heads-of-dimension-one").cells)
        assert "Q1 = Q[:, 0:1]" in source and "V2 = V[:, 1:2]" in source
        assert "X @" not in source

    def test_an_unmasked_lesson_has_no_mask_step(self):
        source = "\n".join(cell.source for cell in parsed("tracing-two-heads").cells)
        assert "# Mask" not in source and "visible" not in source

    def test_embeds_the_page_values_at_full_precision(self):
        lesson = load("tracing-two-heads")
        text = notebook_bytes(lesson).decode("utf-8")
        for values in published(lesson, describe(lesson)).values():
            for value in values.ravel():
                if not float(value).is_integer():
                    assert repr(float(value)) in text

    @pytest.mark.parametrize(
        ("slug", "compared"),
        [
            ("attention-by-hand", True),  # Q, K, V given directly, all of width 2: one head of d_model = 2
            ("two-heads-of-dimension-one", True),  # two heads of width 1, d_model = 2
            ("tracing-two-heads", True),  # d_model = 4, two heads of width 2
            ("two-heads-separate-projections", True),
            ("compare-heads-before-averaging", False),  # head 1 has d_k = 4, head 2 d_k = 1
            ("from-hand-to-code", True),  # d_model = 4, two causal heads of width 2, its own cells after
        ],
    )
    def test_multihead_attention_is_compared_where_the_heads_fit_it(self, slug, compared):
        assert ("torch.nn.MultiheadAttention(" in torch_cell(parsed(slug)).source) is compared


class TestFixtureEdits:
    def test_a_changed_number_reaches_the_notebook(self, tmp_path):
        folder = shutil.copytree(lessons.LESSONS / "attention-by-hand", tmp_path / "attention-by-hand")
        before = lessons.load(folder)
        old = all_source(notebook_bytes(before))
        fixture = folder / "fixture.yaml"
        fixture.write_text(fixture.read_text().replace("  - [2, -1]", "  - [2.375, -1]"))
        after = lessons.load(folder)
        new = all_source(notebook_bytes(after))
        assert "    [2, -1],\n" in old and "    [2, -1],\n" not in new
        assert "    [2.375, -1],\n" in new
        old_output, new_output = repr(float(before.trace.output[0, 0])), repr(float(after.trace.output[0, 0]))
        assert old_output in old and old_output not in new and new_output in new


@pytest.mark.build
class TestPublishedWithTheSite:
    def test_every_lesson_page_links_its_notebook_published_beside_it(self, site):
        for slug in SLUGS:
            page = (site.site / "lessons" / slug / "index.html").read_text(encoding="utf-8")
            assert f'href="{slug}.ipynb">open the notebook</a>' in page, slug
            published_bytes = (site.site / "lessons" / slug / f"{slug}.ipynb").read_bytes()
            assert published_bytes == computed.notebook(slug), slug

    def test_a_fixture_edit_gives_a_notebook_with_the_new_numbers(self, project):
        # The same edit as tests/test_site.py makes to this page: the third input row.
        slug = "two-heads-separate-projections"
        edit(project / "lessons" / slug / "fixture.yaml", "- [1, 1, -1, 1]", "- [2, 1, -1, 3]")
        result = build(project)
        assert result.returncode == 0, result.output
        text = all_source((result.site / "lessons" / slug / f"{slug}.ipynb").read_bytes())
        edited = lessons.load(project / "lessons" / slug)
        assert "    [2, 1, -1, 3],\n" in text and "    [1, 1, -1, 1],\n" not in text
        assert repr(float(edited.trace.output[2, 0])) in text
        assert repr(float(load(slug).trace.output[2, 0])) not in text

    def test_a_lessons_own_cells_reach_the_published_notebook(self, project):
        slug = "attention-by-hand"
        (project / "lessons" / slug / extra.FILE).write_text("# %%\nprint('my own experiment')\n")
        result = build(project)
        assert result.returncode == 0, result.output
        cells = read((result.site / "lessons" / slug / f"{slug}.ipynb").read_bytes()).cells
        assert cells[-1].source == "print('my own experiment')"


class TestTheFusedLessonsOwnCells:
    @pytest.mark.slow
    def test_the_fused_computation_agrees_and_shows_the_layout_trap(self, executed):
        printed = "".join(text_output(cell) for cell in code_cells(executed["from-hand-to-code"]))
        assert "The fused output equals the head-by-head output to within 1e-12." in printed
        assert "forgot_the_transpose =" in printed

    def test_they_come_after_the_checks(self):
        nb = parsed("from-hand-to-code")
        cells = code_cells(nb)
        assert cells.index(torch_cell(nb)) < cells.index(cell_with(nb, "output_fused = concat_fused @ W_O"))


class TestLessonCells:
    def test_a_lessons_own_cells_come_last_in_order(self, tmp_path):
        folder = shutil.copytree(lessons.LESSONS / "attention-by-hand", tmp_path / "attention-by-hand")
        (folder / extra.FILE).write_text(
            "# %% [markdown]\n# ## Try it\n# Double the query.\n\n# %%\nprint((2 * Q) @ K.T)\n"
        )
        cells = read(notebook_bytes(lessons.load(folder))).cells
        assert [(cell.cell_type, cell.source) for cell in cells[-2:]] == [
            ("markdown", "## Try it\nDouble the query."),
            ("code", "print((2 * Q) @ K.T)"),
        ]

    def test_without_a_file_there_are_none(self, tmp_path):
        assert extra.lesson_cells(tmp_path) == []

    def test_text_before_the_first_marker_is_a_code_cell(self, tmp_path):
        cells = extra.parse("x = 1\n# %% [md]\n# note\n", tmp_path / extra.FILE)
        assert [(cell.kind, cell.source) for cell in cells] == [("code", "x = 1"), ("markdown", "note")]

    def test_an_unknown_cell_kind_names_the_file_and_line(self, tmp_path):
        with pytest.raises(LessonError) as error:
            extra.parse("# %%\nx = 1\n# %% [raw]\n", tmp_path / extra.FILE)
        assert str(error.value) == (
            f"{tmp_path / extra.FILE}:3: expected '# %%' or '# %% [markdown]' to start a cell, got '# %% [raw]'"
        )


@pytest.mark.slow
class TestExecuted:
    @pytest.mark.parametrize("slug", SLUGS)
    def test_agrees_with_the_page(self, slug, executed):
        assert "results agree with the lesson page" in text_output(page_check(executed[slug]))

    @pytest.mark.parametrize("slug", SLUGS)
    def test_prints_every_step(self, slug, executed):
        for cell in code_cells(executed[slug])[1:]:  # after the imports, every cell prints
            assert text_output(cell).strip(), cell.source

    def test_a_notebook_that_disagrees_with_the_page_fails(self, kernel_specs):
        # Negative control: change an input number after the page's values were written. The
        # failure names the value that moved, in plain text, and where the notebook is made.
        nb = read(computed.notebook("attention-by-hand"))
        numbers = code_cells(nb)[1]
        numbers.source = numbers.source.replace("[2, -1]", "[2, -1.5]", 1)
        with pytest.raises(NotebookError) as failed:
            execute(nb, kernel_specs, slug="attention-by-hand")
        message = str(failed.value)
        assert "AssertionError" in message and "\x1b[" not in message
        assert "\nQ\n" in message  # the page check names the value that moved: Q, given directly
        assert "macros/notebooks/" in message

    @pytest.mark.parametrize("slug", SLUGS)
    def test_without_torch_the_last_cell_says_it_skipped(self, slug, executed):
        try:
            import torch  # noqa: F401
        except ImportError:
            assert "Skipped the comparison with PyTorch" in text_output(torch_cell(executed[slug]))
        else:
            pytest.skip("torch is installed")

    @pytest.mark.parametrize("slug", WITH_GRADIENTS)
    def test_every_gradient_agrees_with_finite_differences_and_autograd(self, slug, executed):
        assert "Every gradient agrees with finite differences" in text_output(cell_with(executed[slug], "def loss("))
        try:
            import torch  # noqa: F401
        except ImportError:
            assert "Skipped autograd" in text_output(autograd_cell(executed[slug]))
        else:
            assert "PyTorch's autograd agrees with every gradient." in text_output(autograd_cell(executed[slug]))

    @pytest.mark.parametrize("slug", SLUGS)
    def test_torch_agrees_where_installed(self, slug, executed):
        pytest.importorskip("torch")
        printed = text_output(torch_cell(executed[slug]))
        layer = describe(load(slug))
        how = (
            "linear attention from its equations"
            if layer.linear
            else "torch.nn.functional.scaled_dot_product_attention"
        )
        for head in layer.heads:
            assert f"head {head.number}: {how} agrees." in printed
            if layer.latent:  # DeepSeek-V2's equations, rebuilt and absorbed
                assert f"Head {head.number}: rebuilt and absorbed, scaled_dot_product_attention agrees." in printed
            if getattr(getattr(load(slug).fixture, "generation", None), "sink_tokens", None):  # StreamingLLM's mask
                assert f"Head {head.number}, the first tokens kept: scaled_dot_product_attention agrees." in printed
        assert ("torch.nn.MultiheadAttention agrees" in printed) is bool(layer.fused_width)

    @pytest.mark.parametrize("slug", [slug for slug in SLUGS if "embedding" in computed.lesson(slug).plain_fixture])
    def test_the_model_around_attention_agrees_where_torch_is_installed(self, slug, executed):
        """The embedding, a stack's layers, the softmax and the loss, the draw and the training
        step: each part the lesson has is checked by finite differences and compared with torch."""
        plain = computed.lesson(slug).plain_fixture
        if "train" in plain:
            step = text_output(cell_with(executed[slug], "def model_loss("))
            assert "Every gradient agrees with finite differences: E, P, W_Q, W_K, W_V, W_O, W_U." in step
        pytest.importorskip("torch")
        printed = text_output(cell_with(executed[slug], "torch.nn.functional.embedding"))
        expected = {
            "torch.nn.functional.embedding agrees.": True,
            "Every layer agrees with scaled_dot_product_attention.": "layers" in plain,
            "torch.softmax and cross_entropy agree": "targets" in plain.get("unembedding", {}),
            "torch.softmax and torch.topk agree": "sampling" in plain,
            "PyTorch's autograd agrees with every gradient of the step.": "train" in plain,
        }
        assert {said: said in printed for said in expected} == expected

    def test_a_paged_cache_notebook_checks_its_counts(self, executed):
        assert "Every count agrees with the lesson page." in text_output(
            cell_with(executed["paged-kv-cache"], "assert pages ==")
        )

    def test_a_paged_cache_notebook_that_counts_otherwise_fails(self, kernel_specs):
        # Negative control: pages of another size give other counts, and the check says so.
        nb = read(computed.notebook("paged-kv-cache"))
        cell = cell_with(nb, "page_size, max_length =")
        cell.source = cell.source.replace("page_size, max_length = 4,", "page_size, max_length = 5,", 1)
        with pytest.raises(NotebookError) as failed:
            execute(nb, kernel_specs, slug="paged-kv-cache")
        assert "AssertionError" in str(failed.value)

    def test_a_sink_logit_notebook_agrees_with_the_page_and_torch(self, kernel_specs):
        """No lesson's fixture has sink logits (the sinks lesson computes them as a "what if"): a
        lesson's numbers with one logit per head, run, checked against its own values and, where
        torch is installed, against scaled_dot_product_attention with the sink as one more column."""
        own = computed.lesson("two-heads-separate-projections")
        plain = {**own.plain_fixture, "sink": {"logits": [0.5, -1.0]}}
        data = validate(own.folder / "fixture.yaml", plain)
        lesson = lessons.Lesson(own.slug, own.folder, own.meta, data, lessons.compute(data))
        nb = execute(read(notebook_bytes(lesson)), kernel_specs, slug=own.slug)
        assert "results agree with the lesson page" in text_output(page_check(nb))
        printed = text_output(torch_cell(nb))
        try:
            import torch  # noqa: F401
        except ImportError:
            assert "Skipped the comparison with PyTorch" in printed
        else:
            assert "head 1: torch.nn.functional.scaled_dot_product_attention agrees." in printed
            assert "head 2: torch.nn.functional.scaled_dot_product_attention agrees." in printed
