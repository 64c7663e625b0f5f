"""The symbols every page uses the same way: name in plain text and code, LaTeX, meaning.

The glossary page is generated from this table, and lessons write symbols through
``sym`` so that a symbol cannot drift from one page to the next.
"""

from macros.render import tables

GLOSSARY = {
    "X": (r"X", "the input: one row of width d_model per position (token)"),
    "n": (r"n", "number of positions, the rows of X"),
    "d_model": (r"d_{\text{model}}", "width of each input row of X and of the layer's output"),
    "h": (r"h", "number of heads"),
    "d_k": (r"d_k", "width of a head's queries and keys"),
    "d_v": (r"d_v", "width of a head's values and of its reading"),
    "W_Q": (r"W_Q", "query projection, d_model × d_k, one per head"),
    "W_K": (r"W_K", "key projection, d_model × d_k, one per head"),
    "W_V": (r"W_V", "value projection, d_model × d_v, one per head"),
    "Q": (r"Q", "queries, X W_Q: what each position looks for"),
    "K": (r"K", "keys, X W_K: what each position offers to be found by"),
    "V": (r"V", "values, X W_V: what each position hands over when read"),
    "scores": (r"Q K^\top", "raw scores: every query's dot product with every key"),
    "scale": (r"1/\sqrt{d_k}", "the scale applied to the scores before the softmax"),
    "weights": (r"a", "attention weights: the softmax of one query's scaled scores; a row sums to 1"),
    "output": (r"z", "a head's reading: the weights times the value rows"),
    "S": (r"S", "scaled scores, Q K^T / sqrt(d_k): one row per query"),
    "A": (r"A", "the weight matrix: one row of weights a per query"),
    "Z": (r"Z", "a head's readings, A V: one row z per query"),
    "W_O": (r"W_O", "output projection, (h · d_v) × d_model, applied after concatenation"),
    "Y": (r"Y", "the layer's output, Concat(Z^(1), …, Z^(h)) W_O"),
    "K_cache": (r"K_{\text{cache}}", "the keys of every token so far, kept while a model writes; one row per token"),
    "V_cache": (r"V_{\text{cache}}", "the values of every token so far, kept beside the keys"),
    "g": (r"g", "number of key/value heads shared by the h query heads; g = 1 is multi-query attention"),
    "m": (r"m", "online softmax: the largest scaled score read so far"),
    "l": (r"l", "online softmax: the running sum of exponentials, measured against m"),
    "acc": (r"\mathit{acc}", "online softmax: the running reading, not yet divided by l"),
    "w": (r"w", "sliding window: how many keys, itself included, a token may see"),
}


def table():
    """The glossary as a Markdown table: symbol, name in plain text and code, meaning."""
    rows = [[f"${tex}$", f"`{name}`", meaning] for name, (tex, meaning) in GLOSSARY.items()]
    return tables.markdown_table(["symbol", "in plain text and code", "meaning"], rows)


def sym(name, head=None):
    """A glossary symbol in LaTeX, with a head superscript when given: W_Q^{(1)}."""
    tex = GLOSSARY[name][0]
    return tex if head is None else f"{tex}^{{({head})}}"
