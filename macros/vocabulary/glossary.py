"""The symbols every page uses the same way: name in plain text and code, LaTeX, meaning.

The glossary page is generated from this table, and lessons write symbols through
``sym`` so that a symbol cannot drift from one page to the next.
"""

import re

from macros.render import tables

GLOSSARY = {
    "X": (r"X", "the input: one row of width d_model per position (token)"),
    "n": (r"n", "number of positions, the rows of X"),
    "i": (r"i", "a position, counted from 1: under a causal mask, position i sees positions 1 to i"),
    "j": (r"j", "a key's position, counted from 1: under a padding mask, key j is visible when j ≤ L"),
    "r": (r"r", "the row of an entry in a matrix, counted from 1"),
    "c": (r"c", "the column of an entry in a matrix, counted from 1"),
    "I": (r"I", "the identity matrix: ones on the diagonal, zeros elsewhere; multiplying by it changes nothing"),
    "d_model": (r"d_{\text{model}}", "width of each input row of X and of the layer's output"),
    "h": (r"h", "number of heads"),
    "d_k": (r"d_k", "width of a head's queries and keys"),
    "d_v": (r"d_v", "width of a head's values and of its reading"),
    "W_Q": (r"W_Q", "query projection, d_model × d_k, one per head"),
    "W_K": (r"W_K", "key projection, d_model × d_k, one per head"),
    "W_V": (r"W_V", "value projection, d_model × d_v, one per head"),
    "Q": (r"Q", "queries, X W_Q: what each position looks for"),
    "q": (r"q", "one query: a single row of Q"),
    "k": (r"k", "one key: a single row of K"),
    "v": (r"v", "one value: a single row of V"),
    "x": (r"x", "one input row: a single row of X, one token"),
    "s": (r"s", "a score: one query's score for one key, or a row of them"),
    "K": (r"K", "keys, X W_K: what each position offers to be found by"),
    "V": (r"V", "values, X W_V: what each position hands over when read"),
    "scores": (r"Q K^\top", "raw scores: every query's dot product with every key"),
    "scale": (r"1/\sqrt{d_k}", "the scale applied to the scores before the softmax"),
    "W_a": (r"W_a", "additive scoring: the query's side of its network, d_k × d_a"),
    "U_a": (r"U_a", "additive scoring: the key's side of its network, d_k × d_a"),
    "v_a": (r"v_a", "additive scoring: the d_a weights that make one score of v_a · tanh(q W_a + k U_a)"),
    "d_a": (r"d_a", "additive scoring: the width its network maps queries and keys into"),
    "mask": (r"-\infty", "what the mask adds to the score of a hidden key; e^(−∞) = 0, so its weight is exactly 0"),
    "e": (r"e", "Euler's number, the base of the softmax's exponentials"),
    "weights": (r"a", "attention weights: the softmax of one query's scaled scores; a row sums to 1"),
    "output": (r"z", "a head's reading: the weights times the value rows"),
    "S": (r"S", "scaled scores, Q K^T / sqrt(d_k): one row per query"),
    "A": (r"A", "the weight matrix: one row of weights a per query"),
    "Z": (r"Z", "a head's readings, A V: one row z per query"),
    "W_O": (r"W_O", "output projection, (h · d_v) × d_model, applied after concatenation"),
    "Y": (r"Y", "the layer's output, Concat(Z^(1), …, Z^(h)) W_O"),
    "y": (r"y", "one row of the layer's output Y"),
    "W_Q_all": (r"W_Q^{\text{all}}", "every head's W_Q side by side, d_model × (h · d_k): one product, all heads"),
    "W_K_all": (r"W_K^{\text{all}}", "every head's W_K side by side, d_model × (h · d_k)"),
    "W_V_all": (r"W_V^{\text{all}}", "every head's W_V side by side, d_model × (h · d_v)"),
    "transpose": (r"W^\top", "the transpose of W, rows made columns; PyTorch stores a projection this way, (out, in)"),
    "masked": (r"-\infty", "a hidden key's score before the softmax: its exponential, and so its weight, is 0"),
    "-inf": (r"-\infty", "what the mask writes in place of a hidden score; its exponential is exactly 0"),
    "key_length": (r"L", "valid length of a padded sequence: keys after position L are padding, hidden from all"),
    "source": (r"X_{\text{src}}", "cross-attention's source: m rows of width d_model giving the keys and values"),
    "m": (r"m", "number of source rows (keys) in cross-attention"),
    "T": (r"T", "temperature: the scores are divided by T before the softmax; T > 1 flattens, T < 1 sharpens"),
    "p": (r"p", "a position, counted from 0 in the formulas of position encodings"),
    "PE": (r"PE", "sinusoidal position encodings: one row per position, added to X before the projections"),
    "theta": (r"\theta_i", "rotary frequency of coordinate pair i: base^(−2i/d_k)"),
    "R": (r"R(\alpha)", "rotation of one coordinate pair by the angle α"),
    "slope": (r"m", "ALiBi: a head's slope; the head subtracts m times the distance back from each score"),
    "B": (r"B", "ALiBi: the bias a head adds to its scaled scores, b_ij = −m (i − j)"),
    "cap": (r"\mathit{cap}", "soft-capping: each scaled score s becomes cap · tanh(s / cap), within ±cap"),
    "rms": (r"\operatorname{rms}", "QK-norm: a row's root mean square, √(mean(x²) + ε); q and k are divided by it"),
    "pair": (r"(x, y)", "rotary: one pair of coordinates, turned together as a point of the plane"),
    "t": (r"t", "while a model writes: the step, the position of the token just added (x_t, q_t, k_t, v_t)"),
    "K_cache": (r"K_{\text{cache}}", "the keys of every token so far, kept while a model writes; one row per token"),
    "V_cache": (r"V_{\text{cache}}", "the values of every token so far, kept beside the keys"),
    "g": (r"g", "number of key/value heads shared by the h query heads; g = 1 is multi-query attention"),
    "m_max": (r"m", "online softmax: the largest scaled score read so far"),
    "l": (r"l", "online softmax: the running sum of exponentials, measured against m"),
    "acc": (r"\mathit{acc}", "online softmax: the running reading, not yet divided by l"),
    "b_q": (r"b_q", "FlashAttention: how many queries a tile holds, the size of a query block"),
    "b_k": (r"b_k", "FlashAttention: how many keys a tile holds, the size of a key block"),
    "lse": (r"\text{lse}_i", "log-sum-exp of row i, m + log l = log Σ_j e^(s_ij), which FlashAttention saves"),
    "w": (r"w", "sliding window: how many keys, itself included, a token may see"),
    "multiply-add": (r"a \times b + c", "one multiply-add: a product added to a running total; costs count these"),
    "LN": (r"\operatorname{LN}", "layer normalisation: each row minus its mean, divided by √(σ² + ε)"),
    "mu": (r"\mu", "layer norm: the mean of one row's entries"),
    "sigma2": (r"\sigma^2", "layer norm: the variance of one row's entries (dividing by d_model, not d_model − 1)"),
    "eps": (r"\varepsilon", "layer norm: a small number added to the variance before the square root"),
    "FFN": (r"\operatorname{FFN}", "the feed-forward layer, applied to each row alone: ReLU(x W_1 + b_1) W_2 + b_2"),
    "d_ff": (r"d_{\text{ff}}", "width of the feed-forward layer's hidden row; models usually take 4 · d_model"),
    "W_1": (r"W_1", "feed-forward layer: the first matrix, d_model × d_ff, which widens a row"),
    "b_1": (r"b_1", "feed-forward layer: the bias added after W_1, d_ff numbers"),
    "u": (r"u", "feed-forward layer: one row's x W_1 + b_1, before the activation (ReLU or GELU)"),
    "W_2": (r"W_2", "feed-forward layer: the second matrix, d_ff × d_model, which narrows the row back"),
    "b_2": (r"b_2", "feed-forward layer: the bias added after W_2, d_model numbers"),
    "loss": (r"L", "the loss: the one number training lowers; its gradients say how to change each projection"),
    "d": (r"dW", "the gradient of the loss with respect to W, ∂L/∂W: a matrix of W's shape (dY, dA, dW_Q...)"),
    "product": (r"P = MN", "a product of two matrices; its gradients go back as dM = dP Nᵀ and dN = Mᵀ dP"),
    "J": (r"J", "one row's softmax Jacobian, diag(a) − aᵀa: how each weight of the row moves with each score"),
    "odot": (r"\odot", "entry-by-entry product of two rows (or matrices) of the same shape"),
    "eta": (r"\eta", "the learning rate: a gradient step moves each projection W to W − η dW"),
    "C": (r"C", "latent attention: the latent rows X W_DKV, one of width d_c per token; all that its cache keeps"),
    "d_c": (r"d_c", "latent attention: the width of each token's latent row, from which every head rebuilds k and v"),
    "W_DKV": (r"W_{\text{DKV}}", "latent attention: the down-projection, d_model × d_c, that makes the latent rows"),
    "W_UK": (r"W_{\text{UK}}", "latent attention: a head's up-projection for keys, d_c × d_k: K = C W_UK"),
    "W_UV": (r"W_{\text{UV}}", "latent attention: a head's up-projection for values, d_c × d_v: V = C W_UV"),
    "s_sink": (r"s_{\text{sink}}", "a head's learned sink logit: one more entry in every row's softmax, with no value"),
    "a_sink": (r"a_{\text{sink}}", "the weight a row gives the sink; its weights on the keys add up to 1 − a_sink"),
    "n_sink": (r"n_{\text{sink}}", "StreamingLLM: how many first tokens stay visible to every later token"),
    "phi": (r"\phi", "linear attention's feature map, elu(x) + 1 on each entry: x + 1 above 0, e^x below"),
    "M": (r"M_i", "linear attention: the running state after token i, Σ φ(k_j)ᵀ v_j, d_k × d_v"),
    "N": (r"N_i", "linear attention: the running normaliser after token i, Σ φ(k_j), d_k numbers"),
    "page_size": (r"\text{page size}", "paged KV cache: how many tokens' keys and values one page holds"),
    "block_table": (r"\text{block table}", "paged KV cache: a sequence's list of its pages, in order"),
    "n_vocab": (r"n_{\text{vocab}}", "the number of tokens in the vocabulary, each with an id from 0 to n_vocab − 1"),
    "one_hot": (r"\operatorname{onehot}", "a token id as a row of n_vocab numbers: 1 in the id's column, 0 elsewhere"),
    "E": (r"E", "the embedding, n_vocab × d_model: one learned row per token of the vocabulary, looked up by its id"),
    "P_learned": (r"P", "learned positions, n_max × d_model: one learned row per position, added to each token's row"),
    "W_U": (r"W_U", "the unembedding, d_model × n_vocab: column t scores token t against an output row (Eᵀ when tied)"),
    "logit": (r"\ell", "a logit: an output row's score for one token of the vocabulary, before the softmax"),
    "p_hat": (r"\hat{p}", "the model's probability for a token: the softmax of a row of logits over the vocabulary"),
    "u_draw": (
        r"u",
        "sampling: the uniform number in [0, 1) a seeded draw compares with the running totals of probability",
    ),
    "x_l": (r"x^{(l)}", "the residual stream after layer l: the embedded rows plus what every layer so far has added"),
}


# The glossary page's sections, each a heading of its own: a reader's search finds a symbol
# under its topic, and the page reads in the order of a layer.
SECTIONS = {
    "Positions and shapes": ["X", "x", "n", "i", "j", "r", "c", "p", "I", "d_model", "h", "d_k", "d_v"],
    "Queries, keys and values": [
        "W_Q",
        "W_K",
        "W_V",
        "Q",
        "K",
        "V",
        "q",
        "k",
        "v",
        "W_Q_all",
        "W_K_all",
        "W_V_all",
        "transpose",
    ],
    "Scores, weights and readings": [
        "s",
        "scores",
        "scale",
        "S",
        "T",
        "rms",
        "cap",
        "e",
        "weights",
        "A",
        "output",
        "Z",
    ],
    "Additive scoring": ["W_a", "U_a", "v_a", "d_a"],
    "Masks": ["mask", "masked", "-inf", "key_length"],
    "The layer's output": ["W_O", "Y", "y"],
    "Sources and positions": ["source", "m", "PE", "theta", "R", "pair", "slope", "B"],
    "Generating text": ["t", "K_cache", "V_cache", "g", "m_max", "l", "acc", "b_q", "b_k", "lse", "w", "multiply-add"],
    "Attention in current models": [
        "C",
        "d_c",
        "W_DKV",
        "W_UK",
        "W_UV",
        "s_sink",
        "a_sink",
        "n_sink",
        "phi",
        "M",
        "N",
        "page_size",
        "block_table",
    ],
    "The model around attention": ["n_vocab", "one_hot", "E", "P_learned", "W_U", "logit", "p_hat", "u_draw", "x_l"],
    "The block and training": [
        "LN",
        "mu",
        "sigma2",
        "eps",
        "FFN",
        "d_ff",
        "W_1",
        "b_1",
        "u",
        "W_2",
        "b_2",
        "loss",
        "d",
        "product",
        "J",
        "odot",
        "eta",
    ],
}
# Terms and abbreviations, each with the lesson that explains it.
TERMS = [
    ("token id", "a token's number in the vocabulary, from 0; a text becomes a list of them", "tokens-to-vectors"),
    ("embedding", "the learned row of each token, looked up by its id: X = E[ids]", "tokens-to-vectors"),
    ("learned positions", "one learned row per position, added to each token's row (GPT-2)", "tokens-to-vectors"),
    (
        "logits",
        "an output row's score for each token of the vocabulary, y W_U; their softmax gives the probabilities",
        "next-token",
    ),
    ("tied embeddings", "the unembedding is the embedding transposed, W_U = Eᵀ", "next-token"),
    (
        "cross-entropy loss",
        "the mean over positions of −log of the probability given to the true next token",
        "next-token",
    ),
    ("greedy decoding", "always the token with the largest probability", "next-token"),
    (
        "temperature, top-k sampling",
        "logits divided by T before the softmax; only the k likeliest tokens kept, renormalised, then one drawn",
        "next-token",
    ),
    ("gradient descent", "every matrix moved a small step against its gradient, W − η dW", "tiny-model-step"),
    (
        "residual stream",
        "the rows each layer reads and adds its output to, so that later layers see what earlier ones wrote",
        "induction-head",
    ),
    ("previous-token head", "a head whose every position attends to the position before it", "induction-head"),
    (
        "induction head",
        "a head that finds the earlier copy of the current token and copies the token that followed it",
        "induction-head",
    ),
    (
        "additive attention (Bahdanau attention)",
        "keys scored by a small network, v_a · tanh(q W_a + k U_a), in place of dot products",
        "why-attention",
    ),
    (
        "multi-head attention",
        "several heads, each with its own projections, run side by side and concatenated",
        "two-heads-separate-projections",
    ),
    (
        "causal mask",
        "position i sees positions 1 to i: what a model that writes text one token at a time uses",
        "masks",
    ),
    (
        "padding mask",
        "keys after a sequence's valid length are hidden, so a batch can hold sequences of different lengths",
        "masks",
    ),
    ("cross-attention", "queries from one sequence, keys and values from another (the source)", "cross-attention"),
    (
        "sinusoidal encodings",
        "sines and cosines of each position, added to the inputs so that order matters",
        "order-and-position",
    ),
    (
        "RoPE, rotary position embedding",
        "each query and key turned by an angle proportional to its position",
        "rotary-by-hand",
    ),
    (
        "ALiBi, attention with linear biases",
        "each head's scores lowered by its slope times the distance back, in place of any position in the input",
        "alibi",
    ),
    (
        "KV cache",
        "the keys and values of the tokens written so far, kept so that a new token costs one row",
        "kv-cache",
    ),
    ("MQA, multi-query attention", "every query head shares one key/value head", "grouped-query-attention"),
    ("GQA, grouped-query attention", "query heads share g key/value heads in groups", "grouped-query-attention"),
    ("online softmax", "the softmax computed block by block, with a running maximum and sum", "online-softmax"),
    (
        "FlashAttention",
        "attention computed in tiles with the online softmax, never holding the whole score matrix",
        "flash-attention-tiles",
    ),
    (
        "log-sum-exp",
        "log Σ e^s over a row's visible scores; FlashAttention saves it so that training can recompute each weight",
        "flash-attention-tiles",
    ),
    ("sliding window", "each token sees only the last w tokens", "attention-cost"),
    (
        "paged KV cache (PagedAttention, vLLM)",
        "keys and values kept in fixed-size pages listed in a block table, handed out as a text grows",
        "paged-kv-cache",
    ),
    ("copy on write", "a shared page is copied only when one of its sequences writes into it", "paged-kv-cache"),
    (
        "MLA, multi-head latent attention",
        "every head's keys and values rebuilt from one latent row per token, which is all the cache keeps",
        "latent-attention",
    ),
    (
        "absorbed attention (latent)",
        "queries moved into the latent's coordinates by W_UK, so they score the latent rows directly",
        "latent-attention",
    ),
    (
        "attention sink",
        "a place a row can leave weight it has no use for: the first tokens kept (StreamingLLM) or a learned logit",
        "attention-sinks",
    ),
    ("StreamingLLM", "a sliding window that also keeps the first few tokens visible", "attention-sinks"),
    (
        "linear attention",
        "φ(q)·φ(k) in place of the softmax's exponentials, so a running state replaces the pairs",
        "linear-attention",
    ),
    ("feature map (elu + 1)", "the positive φ linear attention applies to queries and keys", "linear-attention"),
    ("residual connection", "a part's output added to its input, rather than put in its place", "transformer-block"),
    ("layer normalisation", "each row rescaled to mean 0 and variance 1", "transformer-block"),
    (
        "pre-norm, post-norm",
        "a block normalising what each part reads (GPT-2), or each sum after the addition (the original paper)",
        "transformer-block",
    ),
    (
        "GELU",
        "the smooth activation GPT-2 uses in place of ReLU, which lets small negative numbers through",
        "transformer-block",
    ),
]


def table():
    """The glossary page's body: one section per topic, each a table of symbol, name in plain
    text and code, and meaning; then the terms and abbreviations, each linked to its lesson
    (a link relative to the glossary page, which sits at the top of the site)."""
    parts = []
    for title, names in SECTIONS.items():
        rows = [[f"${GLOSSARY[name][0]}$", f"`{name}`", GLOSSARY[name][1]] for name in names]
        parts += [f"## {title}", tables.markdown_table(["symbol", "in plain text and code", "meaning"], rows)]
    rows = [[f"[{term}](lessons/{slug}/lesson.md)", meaning] for term, meaning, slug in TERMS]
    parts += ["## Terms and abbreviations", tables.markdown_table(["term (links to its lesson)", "meaning"], rows)]
    return "\n\n".join(parts)


def sym(name, head=None):
    """A glossary symbol in LaTeX, with a head superscript when given: W_Q^{(1)}."""
    tex = GLOSSARY[name][0]
    return tex if head is None else f"{tex}^{{({head})}}"


# ---------------------------------------------------------------- symbols a page's math uses

MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
# A subscript that is part of a symbol's name (W_Q, d_model, W_DKV, s_sink)...
SUBSCRIPTS = {"Q", "K", "V", "O", "U", "k", "v", "a", "model", "ff", "DKV", "UK", "UV", "sink", "vocab"}
# ... and a letter with a subscript that names a symbol with this letter only (x_c is an entry of x).
NAMED = {"d_c"}
SYMBOL = re.compile(r"([A-Za-z])(?:_(\{[^{}]*\}|[A-Za-z0-9]))?")


def symbols_in(text):
    """The symbols written in the math of ``text`` ($...$ and $$...$$), named as the glossary
    names them: a letter with its naming subscript (W_Q, d_k, d_model); an index subscript
    (a_3, z with a token) and words in text mode are not part of a symbol."""
    found = set()
    for display, inline in MATH.findall(text):
        math = display or inline
        # words under \underbrace{...} or after S^{(1)} name no symbol: S^{(1)}_{\text{masked}} is S
        math = re.sub(r"(?<=\})_\{\\text\{[^{}]*\}\}", " ", math)
        math = re.sub(r"_\{\\text\{\s*([^{}]*?)\s*\}\}", r"_{\1}", math)  # d_{\text{model}} -> d_{model}
        math = re.sub(r"\\(?:text|operatorname|begin|end)\{[^{}]*\}", " ", math)
        math = re.sub(r"\\[A-Za-z]+", " ", math)  # \approx, \sqrt, \infty, \top, \cdot ...
        for letter, sub in SYMBOL.findall(math):
            sub = sub.strip("{}").strip()
            named = f"{letter}_{sub}"
            found.add(named if sub in SUBSCRIPTS or named in NAMED else letter)
    return found


def glossary_symbols():
    """Every symbol the glossary defines, named as ``symbols_in`` names them."""
    return set().union(*(symbols_in(f"${tex}$") for tex, _ in GLOSSARY.values()))
