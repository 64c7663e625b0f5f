"""Every name a lesson's template sees, from one registry (``macros.vocabulary.registry``)
that refuses a name defined twice.

This module only names things; what a name does lives where its job is (numbers and
figures in ``macros.render``, claims in ``macros.vocabulary.claims``, facts in
``macros.vocabulary.facts``, a layer computed another way in ``macros.vocabulary.recomputed``).
Each group below, and each concept module's ``names``, is registered as a whole, so the
registry can say where a name is written.
"""

import numpy as np

from macros import explain
from macros.engine import decode_cost, fused, steps, variants
from macros.render import (
    arithmetic,
    cost_chart,
    figures,
    head_costs,
    latex,
    lesson_widgets,
    numbers,
    online_lab,
    practice,
    roofline,
    summaries,
    tables,
    tensors,
    widgets,
)
from macros.vocabulary import claims, costs, display, facts, glossary, model, recomputed, scaling, tiles
from macros.vocabulary import positions as encodings
from macros.vocabulary.registry import Registry


def and_list(items):
    """'1', '1 and 3', '1, 2 and 4': positions or labels in a sentence."""
    items = [str(item) for item in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def formatting(places):
    """Numbers as the page shows them, at one precision: every number in a lesson passes
    through these, and so do the relations and winners judged on the numbers as display."""
    return {
        "num": lambda x: numbers.format_number(x, places),
        "nums": lambda v: tables.joined(v, places),
        "tex": lambda x: latex.number(x, places),
        "vec": lambda v: latex.vector(v, places),
        "mat": lambda M: latex.matrix(M, places),
        # A trace field with its masked entries as its kind says: a score −∞, a weight 0.
        "shown": lambda record, name, row=None, visible=None, value=None: display.shown(
            record, name, places, row, visible, value
        ),
        "mask_added": latex.mask_added,
        "tensor": lambda T, stacked=False, visible=None: tensors.tensor(T, places, stacked, visible),
        "dots": lambda q, k: latex.dot_expansion(q, k, places),
        "score_expansions": lambda Q, K: latex.score_expansions(Q, K, places),
        "wsum": lambda w, V: latex.weighted_sum(w, V, places),
        "wterms": lambda w, v: latex.weighted_terms(w, v, places),
        "as_shown": lambda v: numbers.as_shown(v, places),
        "same_when_shown": lambda a, b: numbers.format_values(a, places) == numbers.format_values(b, places),
        "table": tables.markdown_table,
        # Shown arithmetic (macros/render/arithmetic.py): a note where rounding shows, and
        # relations judged on the numbers as shown (they fail the build when false).
        "product_note": lambda A, B, exact, operands="numbers": arithmetic.product_note(A, B, exact, places, operands),
        "wsum_note": lambda w, V, exact, operands="weights": arithmetic.product_note(w, V, exact, places, operands),
        "total_note": lambda rows, total=1.0, operands="weights": arithmetic.total_note(rows, places, total, operands),
        "rounding_note": lambda shown, exact, operands="numbers": arithmetic.note(shown, exact, places, operands),
        "shown_product": lambda A, B: arithmetic.from_shown_product(A, B, places),
        "is_sum": lambda result, a, b: arithmetic.is_sum(result, a, b, places),
        "is_difference": lambda result, a, b: arithmetic.is_difference(result, a, b, places),
        "adds_up_to": lambda values, total: arithmetic.adds_up_to(values, total, places),
        "holds_as_shown": lambda result, from_shown: arithmetic.holds_as_shown(result, from_shown, places),
        "changed_by": lambda new, old: arithmetic.changed_by(new, old, places),
        "a_an": numbers.a_an,
        "given": numbers.given,
        "paragraph": lambda text: "\n" + text if text else "",
        # Winners judged on the numbers as the page shows them.
        "argmax": lambda v: claims.argmax(v, places),
        "argmin": lambda v: claims.argmin(v, places),
        "positions": lambda v: claims.positions_of_largest(v, places),
        "step_table": lambda head, row, plain=False: tables.step_table(head, row, places, plain),
        "key_table": lambda head, row, labels=(): tables.key_table(head, row, places, labels),
    }


def lesson_widgets_of(lesson):
    """Figures and interactive parts, bound to this lesson's trace, labels and decimals."""
    return {
        "bars": lambda h, row, title: lesson_widgets.bars(lesson, h, row, title),
        "maps": lambda average=True, names=None: lesson_widgets.maps(lesson, average, names),
        "editor": lambda field, label: lesson_widgets.editor(lesson, field, label),
        "bound": lambda path: lesson_widgets.bound(lesson, path),
        "lab": lambda name, caller: lesson_widgets.lab(lesson, name, caller),
        "gate": widgets.gate,
        "check": widgets.check,
        "fold": widgets.fold,
        "solution_after": widgets.SOLUTION_AFTER,
        "why": widgets.why,
        "predict": widgets.predict,
        "takeaway": widgets.takeaway,
        # A sentence for the chapter's summary page, not shown on the lesson's own.
        "remember": summaries.marked,
        # The exercise on new numbers; placed at the page's end when a lesson does not call it.
        "practice": lambda: practice.element(lesson),
        "line_chart": cost_chart.line_chart,
        "roofline": roofline.figure,
        "numbers_table": figures.numbers_table,
        "online_lab": lambda h, row, label: online_lab.online_lab(
            h, row, lesson.fixture.generation.block_size, lesson.decimals, label
        ),
    }


def lesson_values(lesson):
    """The lesson itself: its numbers, its computed layer and the claim block."""
    return {
        "lesson": lesson,
        "fixture": lesson.fixture,
        "trace": lesson.trace,
        "heads": lesson.trace.heads,
        "tokens": lesson.fixture.key_labels,
        "claim": claims.claim,
        "head_label": lambda head: facts.head_label(head, lesson.trace.heads),  # "head 2"
        # The steps of generation: None unless the fixture asks for them.
        "generation": lesson.generation,
        "params": lesson.fixture.params,  # either form (Q, K, V given directly too)
    }


def comparisons():
    """Claims' vocabulary with an explicit tolerance, and the small sums a claim compares."""
    return {
        "roughly_equal": claims.roughly_equal,
        "differ_by_more_than": claims.differ_by_more_than,
        "each_differs_by_more_than": claims.each_differs_by_more_than,
        "equal": claims.equal,
        "dot": lambda a, b: np.dot(np.asarray(a, float), np.asarray(b, float)),
        "outer": lambda a, b: np.outer(np.asarray(a, float), np.asarray(b, float)),  # a column times a row
        "exp": lambda v: np.exp(np.asarray(v, float)),
        "log": lambda v: np.log(np.asarray(v, float)),  # natural: a log-sum-exp is m + log l
        "sum_and_difference": lambda a, b: np.concatenate([np.add(a, b), np.subtract(a, b)]),
        "visible_part": lambda values, visible: np.asarray(values)[np.asarray(visible, dtype=bool)],
    }


def layer_variants():
    """A computed layer read another way: head order, W_O's row blocks, the head average,
    fused projections and batched heads as code runs them, and what the heads and a generated
    token cost."""
    return {
        "output_projection": steps.output_projection,
        "row_blocks": variants.row_blocks,
        "head_contributions": variants.head_contributions,
        "reorder_heads": variants.reorder_heads,
        "reorder_row_blocks": variants.reorder_row_blocks,
        "head_average": variants.head_average,
        "fused_attention": fused.run,
        "torch_layout": fused.torch_layout,
        "shape": tensors.shape,
        "head_cost_table": head_costs.table,
        "head_cost_rows": head_costs.rows,
        # prefill, a decode step with the cache and one without, at a text of n tokens
        "decode_cost": decode_cost.at_length,
    }


def words():
    """The book's symbols and lists in prose."""
    return {
        "and_list": and_list,
        "sym": glossary.sym,
        "glossary": glossary.GLOSSARY,
        "glossary_table": glossary.table,
    }


def site_registry():
    """The names every page sees, lesson or not."""
    registry = Registry()
    for group in (words, comparisons, layer_variants, recomputed.names, tiles.names, costs.names, model.names):
        registry.add(group, group())
    return registry


def page_names(extra):
    """What a page that is not a lesson sees: the site's names and ``extra`` (the book's
    own: the lessons by slug, the track map), given as {group function: its names}."""
    registry = site_registry()
    for group, values in extra.items():
        registry.add(group, values)
    return registry.names


def lesson_names(lesson, env, extra=None):
    """Everything a lesson page's template sees, by name; ``env`` loads the shared partials."""
    registry = site_registry()
    places = lesson.decimals
    registry.add(formatting, formatting(places))
    for group in (facts.names, scaling.names, encodings.names):
        registry.add(group, group(places))
    registry.add(lesson_widgets_of, lesson_widgets_of(lesson))
    registry.add(lesson_values, lesson_values(lesson))
    for group, values in (extra or {}).items():
        registry.add(group, values)
    registry.add(f"lessons/{lesson.slug}/lesson.md: front matter", lesson.meta)
    registry.add(explain.partials, {"explain": explain.partials(env, registry.names)})
    return registry.names
