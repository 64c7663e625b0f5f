"""What a lesson template can name: its fixture, its trace and helpers bound to its decimals."""

import numpy as np

from macros import claims, explain, facts, glossary
from macros.engine import steps, variants
from macros.render import figures, latex, numbers, tables, widgets


def and_list(items):
    """'1', '1 and 3', '1, 2 and 4': positions or labels in a sentence."""
    items = [str(item) for item in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def helpers(places):
    """Formatting helpers for one precision; every number in a lesson passes through these."""
    return {
        "num": lambda x: numbers.format_number(x, places),
        "nums": lambda v: tables.joined(v, places),
        "tex": lambda x: latex.number(x, places),
        "vec": lambda v: latex.vector(v, places),
        "mat": lambda M: latex.matrix(M, places),
        "dots": lambda q, k: latex.dot_expansion(q, k, places),
        "score_expansions": lambda Q, K: latex.score_expansions(Q, K, places),
        "wsum": lambda w, V: latex.weighted_sum(w, V, places),
        "wterms": lambda w, v: latex.weighted_terms(w, v, places),
        "as_shown": lambda v: numbers.as_shown(v, places),
        "same_when_shown": lambda a, b: numbers.format_values(a, places) == numbers.format_values(b, places),
        "table": tables.markdown_table,
        # Winners judged on the numbers as the page shows them.
        "argmax": lambda v: claims.argmax(v, places),
        "argmin": lambda v: claims.argmin(v, places),
        "positions": lambda v: claims.positions_of_largest(v, places),
        "step_table": lambda head, row, plain=False: tables.step_table(head, row, places, plain),
        "key_table": lambda head, row, labels=(): tables.key_table(head, row, places, labels),
    }


def resolve(data, path):
    """A dotted path into nested dicts, lists and arrays: 'heads.0.weights.2'."""
    for part in str(path).split("."):
        if part.isdigit():
            data = data[int(part)]
        elif isinstance(data, dict):
            data = data[part]
        else:
            data = getattr(data, part)
    return data


def widget_helpers(lesson):
    """Figures and interactive parts, bound to this lesson's trace, labels and decimals."""
    trace, places = lesson.trace, lesson.decimals
    keys = lesson.fixture.key_labels or [str(j + 1) for j in range(trace.heads[0].K.shape[0])]
    queries = lesson.fixture.query_labels or [str(i + 1) for i in range(trace.heads[0].Q.shape[0])]

    def bars(h, row, title):
        weights = trace.heads[h].weights[row]
        svg = figures.weight_bars(weights, keys, places, f"heads.{h}.weights.{row}", title)
        rows = [[key, text] for key, text in zip(keys, numbers.format_values(weights, places), strict=True)]
        return svg + "\n\n" + figures.numbers_table(title, ["key", "weight"], rows)

    def maps(average=True, names=None):
        names = names or [f"head {i + 1}" for i in range(trace.n_heads)]
        shown = [
            (name, head.weights, head.visible, f"heads.{i}.weights")
            for i, (name, head) in enumerate(zip(names, trace.heads, strict=True))
        ]
        if average:
            mean = variants.head_average(trace)
            shown.append(("average of the heads", mean, trace.heads[0].visible, "average"))
        svgs = [
            (name, figures.heat_map(w, seen, queries, keys, places, path, f"attention weights, {name}"))
            for name, w, seen, path in shown
        ]
        tables = "\n".join(
            figures.numbers_table(name, ["query", *keys], widgets.bound_rows(path, w, seen, places, queries))
            for name, w, seen, path in shown
        )
        return figures.maps_side_by_side(svgs) + "\n\n" + tables

    def editor(field, label):
        plain = lesson.plain_fixture
        initial = resolve(plain, field) if field != "W_O" or "W_O" in plain else trace.W_O
        return widgets.editor(field, initial, label, places)

    def bound(path):
        return widgets.bound(path, np.ravel(resolve(lesson.published, path)), places)

    def lab(name, caller):
        return (
            f'<div class="abh-lab" data-lab="{name}" markdown>\n\n{caller()}\n\n'
            '<p class="abh-lab-message" aria-live="polite" hidden></p>\n</div>'
        )

    return {
        "bars": bars,
        "maps": maps,
        "editor": editor,
        "bound": bound,
        "lab": lab,
        "gate": widgets.gate,
        "choice": widgets.choice,
        "takeaway": widgets.takeaway,
    }


def lesson_context(lesson):
    """Everything a lesson page's template sees, by name."""
    trace = lesson.trace
    names = {
        **widget_helpers(lesson),
        "lesson": lesson,
        "fixture": lesson.fixture,
        "trace": trace,
        "heads": trace.heads,
        "tokens": lesson.fixture.key_labels,
        "claim": claims.claim,
        **helpers(lesson.decimals),
    }
    # Named facts (macros/facts.py) and the shared step partials (macros/explain/).
    names.update(facts.names(lesson.decimals))
    names["explain"] = explain.partials({**site_context(), **names})
    return names


def site_context():
    """Helpers every page may use, lesson or not."""
    return {
        "argmax": claims.argmax,
        "argmin": claims.argmin,
        "roughly_equal": claims.roughly_equal,
        "differ_by_more_than": claims.differ_by_more_than,
        "each_differs_by_more_than": claims.each_differs_by_more_than,
        "equal": claims.equal,
        "dot": lambda a, b: np.dot(np.asarray(a, float), np.asarray(b, float)),
        # Variants of a computed layer (head order, W_O's row blocks, head-averaged map).
        "output_projection": steps.output_projection,
        "row_blocks": variants.row_blocks,
        "head_contributions": variants.head_contributions,
        "reorder_heads": variants.reorder_heads,
        "reorder_row_blocks": variants.reorder_row_blocks,
        "head_average": variants.head_average,
        "positions": claims.positions_of_largest,
        "and_list": and_list,
        "sym": glossary.sym,
        "glossary": glossary.GLOSSARY,
        "glossary_table": glossary.table,
    }
