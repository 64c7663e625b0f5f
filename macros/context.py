"""What a lesson template can name: its fixture, its trace and helpers bound to its decimals."""

import numpy as np

from macros import claims
from macros.engine import steps, variants
from macros.render import latex, numbers, tables

# Symbols used the same way on every page; the glossary page is generated from this too.
GLOSSARY = {
    "d_model": (r"d_{\text{model}}", "width of each input row of X"),
    "d_k": (r"d_k", "width of a head's queries and keys"),
    "d_v": (r"d_v", "width of a head's values and of its output"),
    "h": (r"h", "number of heads"),
    "W_Q": (r"W_Q", "query projection, d_model × d_k, one per head"),
    "W_K": (r"W_K", "key projection, d_model × d_k, one per head"),
    "W_V": (r"W_V", "value projection, d_model × d_v, one per head"),
    "W_O": (r"W_O", "output projection, (h · d_v) × d_model, applied after concatenation"),
}


def sym(name, head=None):
    """A glossary symbol in LaTeX, with a head superscript when given: W_Q^{(1)}."""
    tex = GLOSSARY[name][0]
    return tex if head is None else f"{tex}^{{({head})}}"


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
    }


def lesson_context(lesson):
    """Everything a lesson page's template sees, by name."""
    trace = lesson.trace
    return {
        "lesson": lesson,
        "fixture": lesson.fixture,
        "trace": trace,
        "heads": trace.heads,
        "tokens": lesson.fixture.key_labels,
        "claim": claims.make_claim(str(lesson.template)),
        **helpers(lesson.decimals),
    }


def site_context():
    """Helpers every page may use, lesson or not."""
    return {
        "argmax": claims.argmax,
        "argmin": claims.argmin,
        "roughly_equal": claims.roughly_equal,
        "differ_by_more_than": claims.differ_by_more_than,
        "dot": lambda a, b: np.dot(np.asarray(a, float), np.asarray(b, float)),
        # Variants of a computed layer (head order, W_O's row blocks, head-averaged map).
        "output_projection": steps.output_projection,
        "row_blocks": variants.row_blocks,
        "head_contributions": variants.head_contributions,
        "reorder_heads": variants.reorder_heads,
        "reorder_row_blocks": variants.reorder_row_blocks,
        "head_average": variants.head_average,
        "sym": sym,
        "glossary": GLOSSARY,
    }
