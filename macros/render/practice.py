"""The practice element of a lesson page, and the data file of its sets of new numbers.

The page carries the exercise on set 1 of new numbers, so that no answer is one the lesson
has shown: it reads with scripts off. Every set, computed at build time
(macros/practice/build.py), the lesson's own numbers (set 0) among them, is in a data file
beside the page, ``practice.js``, which the page's script loads on first use (New numbers,
The lesson's numbers, or an address ending in ``?variant=N``). It is a script, not JSON, so that a page
opened from a folder on disk, which may not fetch a file, can load it too.

The contract, for the script, the tests and outside tools:

- ``.abh-practice[data-practice][data-variant][data-count][data-fixture][data-decimals][data-source]``:
  the lesson's slug, the variant shown (1), how many sets of new numbers there are, the shown
  variant's numbers (the fixture's JSON form), the lesson's decimals and the data file.
- ``.abh-practice-inputs``: the numbers the questions are computed from, one table per matrix.
- ``li.abh-practice-check[data-path][data-answer][data-tolerance]`` (and ``data-low``,
  ``data-high``, ``data-whole``, ``data-why`` where the quantity has a range): one per graded
  value, its label in the reader's words, how close an answer must be, and its worked solution
  (``.abh-practice-solution``), hidden until it may open.
- The data file sets ``window.abhPractice[slug] = {count, variants: [{variant, kind, fixture,
  questions: [{path, label, stated, answer, tolerance, low, high, whole, why, solution}],
  inputs: {tables: [[caption, rows of texts]], notes: [text]}}]}``: each set's own questions
  (the sets of a lesson whose practice has several kinds of question take them in turn),
  numbers formatted as the page formats them.

Texts are plain: a matrix name is written as its symbol's letters, W_Q, d_k, and shown with
what follows the underscore as a subscript (``marked`` here, ``marked`` in practice.js), as
the page's math writes it.
"""

import html
import json

from macros.engine import positions
from macros.render import noscript, worksheets
from macros.render.numbers import ACTIVATION_NAMES, byte_count, format_rows, format_values, given, small_constant
from macros.render.subscripts import marked
from macros.sources import folders

HEADING = "## Practice on new numbers"
MARKER = 'class="abh-practice"'
DATA_FILE = folders.PRACTICE_FILE


def _attrs(**values):
    return " ".join(
        f'{name.replace("_", "-")}="{html.escape(str(value), quote=True)}"'
        for name, value in values.items()
        if value is not None
    )


# Questions whose answer is computed from the lesson's named numbers (params), not its matrices.
FROM_PARAMS = ("cost", "decode_cost", "memory", "paged", "kv_cache", "window_cost")
UNIT_PREFIXES = ("millions", "billions", "mib", "gib")


# Rows the panel gives, worked out as the lesson works them (macros.practice.build.given_rows).
GIVEN = {
    "attention": "a, the attention layer's output for each token (given: worked from X as the lesson does)",
    "output": "Y, the layer's output for each token (given: worked from X as the lesson does)",
    "stream": "x, the stream the last layer reads, one row per token (given: X plus what the layers before added)",
}


def uses_params(questions):
    """The kind of cost question a set asks (computed from the lesson's params, not its
    matrices), or None."""
    firsts = []
    for question in questions:
        parts = str(question.path).split(".")
        firsts.append(parts[1] if parts[0] in UNIT_PREFIXES and len(parts) > 1 else parts[0])
    return next((kind for kind in firsts if kind in FROM_PARAMS), None)


def inputs(fixture, places, with_params=False, given_rows=None):
    """The numbers a question is computed from, as (caption, rows of texts) and (caption, text):
    every matrix of the layer, head by head, and the settings that change what it computes."""
    if given_rows and ("output" in given_rows or "stream" in given_rows):
        return around_inputs(fixture, places, given_rows)
    tables, heads = embedding_tables(fixture, places), fixture.get("heads", [])
    for name in ("X", "Q", "K", "V", "source"):
        if name in fixture:
            caption = "the source's rows (keys and values come from them)" if name == "source" else name
            tables.append((caption, format_rows(fixture[name], places)))
    for i, head in enumerate(heads):
        for name in ("W_Q", "W_K", "W_V"):
            if name in head:  # with a latent, a head holds only W_Q
                tables.append((f"{name} of head {i + 1}" if len(heads) > 1 else name, format_rows(head[name], places)))
    tables += latent_tables(fixture, places)
    additive = fixture.get("additive")
    if additive:  # the scoring network is an input too: without it no score can be worked out
        for name in ("W_a", "U_a"):
            tables.append((name, format_rows(additive[name], places)))
        tables.append(("v_a", format_rows([additive["v_a"]], places)))
    if "W_O" in fixture:
        tables.append(("W_O", format_rows(fixture["W_O"], places)))
    if "upstream" in fixture:
        tables.append(("upstream, the loss's gradient dY", format_rows(fixture["upstream"], places)))
    notes = []
    if additive:
        notes.append(
            "The scores are additive: score = v_a · tanh(q W_a + k U_a), and the softmax takes them as they "
            "are, not divided by √d_k."
        )
    if len(heads) > 1 and "W_O" not in fixture:
        notes.append("No W_O: the heads' readings, side by side, are the attention layer's output.")
    notes += head_notes(fixture)
    if fixture.get("causal"):
        notes.append("The mask is causal: position i sees positions 1 to i.")
    if "key_length" in fixture:
        lengths = fixture["key_length"] if isinstance(fixture["key_length"], list) else [fixture["key_length"]]
        notes.append(
            "Valid lengths (keys after them are padding, hidden from every query): "
            + ", ".join(map(str, lengths))
            + "."
        )
    encoding = fixture.get("positions", {}).get("encoding")
    if encoding == "sinusoidal":
        PE = positions.sinusoidal(len(fixture["X"]), len(fixture["X"][0]))
        tables.append(("PE, the position encodings added to X before the projections", format_rows(PE, places)))
    elif encoding == "rotary":
        base = fixture["positions"].get("base", 10000)
        notes.append(
            f"Rotary positions, base {base:g}: the query and key of the token at position p turn coordinate pair i "
            "(coordinates 1 and 2 are pair 1, 3 and 4 pair 2, …) by (p − 1)·θ_i radians, with θ_i = "
            "base^(−2(i − 1)/d_k): the first token is not turned."
        )
    tables += extra_tables(fixture, places) + stack_tables(fixture, places) + unembedding_tables(fixture, places)
    for name, caption in GIVEN.items():
        if given_rows and name in given_rows:
            tables.append((caption, format_rows(given_rows[name], places)))
    notes += settings(fixture, places) + model_settings(fixture, places)
    if with_params == "paged":
        return [], paged_notes(fixture)
    if with_params:
        return [], model_notes(fixture.get("params", {}), with_params)
    return tables, notes


def head_notes(fixture):
    """How the layer's heads divide Q, K and V given directly, or share key/value heads."""
    notes, n_heads = [], fixture.get("n_heads", 1)
    if "Q" in fixture and n_heads > 1:
        width = len(fixture["Q"][0]) // n_heads
        parts = ", ".join(
            f"head {h + 1} column {h + 1}"
            if width == 1
            else f"head {h + 1} columns {h * width + 1} to {h * width + width}"
            for h in range(n_heads)
        )
        notes.append(
            f"{n_heads} heads of width {width}: each reads its own columns of Q, K and V ({parts}), and scales its "
            f"scores by 1/√{width}."
        )
    return notes


# The sizes a decode-step question reads, in the reader's words ({} is the value): one layer
# of a large model, not the small layer the page works by hand, so only these are shown.
DECODE_WORDS = {
    "d_model": "The model is d_model = {} wide,",
    "n_heads": "with {} heads",
    "d_k": "of width d_k = {},",
    "bytes_per_number": "{} a number.",
    "lengths": "The text holds n = {} tokens, the new one included.",
}


# The sizes a KV cache question reads: a model's, in the reader's words.
CACHE_WORDS = {
    "layers": "{} layers",
    "n_heads": "of {} heads",
    "d_k": "of width d_k = d_v = {},",
    "bytes_per_number": "{} a number.",
}


def model_notes(params, kind):
    """The sizes a cost question is computed from, as sentences (numbers written with thousands
    separators): for a decode step the model's sizes and the text's length, for a KV cache the
    model's sizes, for other kinds every named number."""
    if kind == "kv_cache":
        values = {name: given(params[name]) for name in CACHE_WORDS}
        values["bytes_per_number"] = byte_count(params["bytes_per_number"])
        notes = ["A model of " + " ".join(CACHE_WORDS[name].format(value) for name, value in values.items())]
        if "question_length" in params:
            notes.append(f"The text holds {given(params['question_length'])} tokens.")
        if "budget_gib" in params:
            notes.append(f"The memory set aside for the cache: {params['budget_gib']:g} GiB.")
        return notes
    if kind in ("window_cost", "cost") and all(name in params for name in ("n_heads", "d_k", "lengths")):
        said = f"A layer of {given(params['n_heads'])} heads of width d_k = {given(params['d_k'])}"
        said += f" (d_model = {given(params['d_model'])})" if "d_model" in params else ""
        said += f", on a text of n = {' and '.join(map(given, as_list(params['lengths'])))} tokens."
        if "long_window" in params:
            said += f" The sliding window: {given(params['long_window'])} keys (each token sees itself and the "
            said += "tokens before it, at most that many)."
        return [said]
    if kind != "decode_cost":
        return [f"{name} = {', '.join(map(given, as_list(value)))}" for name, value in params.items()]
    values = {name: " and ".join(map(given, as_list(params[name]))) for name in DECODE_WORDS}
    values["bytes_per_number"] = byte_count(params["bytes_per_number"])
    return [" ".join(DECODE_WORDS[name].format(value) for name, value in values.items())]


def paged_notes(fixture):
    """The requests a paged-cache question counts, in words: their lengths in order, the page size,
    the contiguous cache's reservation, and the prompt two sequences share."""
    params, size = fixture["params"], fixture["paged"]["page_size"]
    lengths = [given(n) for n in params["lengths"]]
    notes = [
        f"Requests, in the order they arrive: {', '.join(lengths[:-1])} and {lengths[-1]} tokens.",
        f"A page holds {given(size)} tokens; a contiguous cache reserves {given(params['max_length'])} token slots "
        "for each request.",
    ]
    if "prompt_length" in params:
        first, second = (given(n) for n in params["continuations"])
        notes.append(
            f"Two sequences continue one prompt of {given(params['prompt_length'])} tokens, by {first} and {second} "
            "tokens; the first writes all of its tokens, then the second."
        )
    return notes


def as_list(value):
    return value if isinstance(value, list) else [value]


def latent_tables(fixture, places):
    """Latent attention's projections: the down-projection, then each head's up-projections."""
    latent = fixture.get("latent")
    if not latent:
        return []
    many = len(latent["heads"]) > 1
    tables = [("W_DKV, the latent's down-projection", format_rows(latent["W_DKV"], places))]
    for i, up in enumerate(latent["heads"]):
        for name in ("W_UK", "W_UV"):
            tables.append((f"{name} of head {i + 1}" if many else name, format_rows(up[name], places)))
    return tables


def extra_tables(fixture, places):
    """The matrices of a transformer block."""
    tables = []
    block = fixture.get("transformer")
    if block:
        tables += [(f"{name}, the feed-forward layer", format_rows(block[name], places)) for name in ("W_1", "W_2")]
        tables += [(f"{name}, its biases", format_rows([block[name]], places)) for name in ("b_1", "b_2")]
    return tables


def embedding_tables(fixture, places):
    """Where the rows come from: the embedding E, one row per token of the vocabulary, and the
    learned positions P."""
    found = fixture.get("embedding")
    if not found:
        return []
    words = fixture["vocabulary"]
    tables = [("E, the embedding: rows for " + ", ".join(words) + ", in that order", format_rows(found["E"], places))]
    if "P" in found:
        tables.append(("P, the learned positions: rows for positions 1, 2, …", format_rows(found["P"], places)))
    return tables


def stack_tables(fixture, places):
    """A stack's matrices, layer by layer."""
    tables = []
    for l, layer in enumerate(fixture.get("layers", [])):  # noqa: E741
        many = len(layer["heads"]) > 1
        for h, head in enumerate(layer["heads"]):
            for name in ("W_Q", "W_K", "W_V"):
                which = f"head {h + 1} of layer {l + 1}" if many else f"layer {l + 1}"
                tables.append((f"{name} of {which}", format_rows(head[name], places)))
        if "W_O" in layer:
            tables.append((f"W_O of layer {l + 1}", format_rows(layer["W_O"], places)))
    return tables


def unembedding_tables(fixture, places):
    found = fixture.get("unembedding")
    if not found or found["W_U"] == "tied":
        return []
    return [("W_U, the unembedding: one column per token of the vocabulary", format_rows(found["W_U"], places))]


def around_inputs(fixture, places, given_rows):
    """A question about what comes after the layers: the rows they hand on (given), and only the
    matrices that work on them (the last layer of a stack, the unembedding)."""
    tables = []
    if "stream" in given_rows:
        last = {**fixture, "layers": fixture["layers"][-1:]}
        tables += [
            (caption.replace("layer 1", f"layer {len(fixture['layers'])}"), rows)
            for caption, rows in stack_tables(last, places)
        ]
    if fixture["unembedding"]["W_U"] == "tied":
        words = ", ".join(fixture["vocabulary"])
        tables.append(
            (
                f"E, the embedding, whose rows score the tokens (tied: W_U = Eᵀ): rows for {words}",
                format_rows(fixture["embedding"]["E"], places),
            )
        )
    tables += unembedding_tables(fixture, places)
    for name, caption in GIVEN.items():
        if name in given_rows:
            tables.append((caption, format_rows(given_rows[name], places)))
    notes = (
        ["The mask is causal: position i sees positions 1 to i."]
        if fixture.get("causal") and "stream" in given_rows
        else []
    )
    return tables, notes + model_settings(fixture, places, rows_given=True)


def model_settings(fixture, places, rows_given=False):
    """The model around the layer, in words: the text's ids, the unembedding, the draw, the step.
    With the layers' output given (``rows_given``), how the input rows were made is not said:
    a reader would look for the position rows, which the question does not need."""
    notes, words = [], fixture.get("vocabulary", [])
    found = fixture.get("embedding")
    if found:
        text = " ".join(words[i] for i in found["ids"])
        ids = ", ".join(str(i) for i in found["ids"])
        added = " + P (its position's row)" if "P" in found else ""
        made = "" if rows_given else f"; each position's row is E[id]{added}"
        notes.append(f"The text “{text}” has ids {ids} (from 0){made}.")
    if fixture.get("layers"):
        notes.append("Each layer adds its output to the rows it read: x ← x + layer(x).")
    unembedding = fixture.get("unembedding")
    if unembedding:
        scored = "E's own rows (tied: W_U = Eᵀ)" if unembedding["W_U"] == "tied" else "the columns of W_U"
        notes.append(f"The logits score the output row against {scored}; their softmax gives the probabilities.")
        if "targets" in unembedding:
            nexts = ", ".join(words[t] for t in unembedding["targets"])
            notes.append(f"The true next tokens, position by position: {nexts}.")
    draw = fixture.get("sampling")
    if draw:
        kept = f", the top {draw['top_k']} kept and renormalised" if "top_k" in draw else ""
        temperature = given(draw["temperature"])
        notes.append(
            f"The next token is drawn from the last row at temperature {temperature}{kept}, seed {draw['seed']}."
        )
    if fixture.get("train"):
        lr = format_values([fixture["train"]["lr"]], places)[0]
        notes.append(f"One step of gradient descent with learning rate η = {lr}: every matrix W becomes W − η dW.")
    return notes


def slope_text(m):
    """A slope as the ALiBi lesson writes it: 1/256 where it is one over a whole number."""
    inverse = 1 / m if m else 0
    if m and abs(inverse - round(inverse)) < 1e-9:
        return f"1/{round(inverse)}"
    return format_values([m], 6)[0]


def settings(fixture, places):
    """The settings that change what the layer computes, in words."""
    notes = []
    if fixture.get("qk_norm"):
        notes.append("QK-norm: each query and key row is divided by its root mean square, √(mean(x²) + 10⁻⁶).")
    if "softcap" in fixture:
        cap = format_values([fixture["softcap"]], places)[0]
        notes.append(f"Soft-capping at {cap}: each scaled score s becomes {cap} · tanh(s / {cap}).")
    if "alibi" in fixture:
        slopes = ", ".join(f"head {i + 1}: {slope_text(m)}" for i, m in enumerate(fixture["alibi"]))
        notes.append(f"ALiBi slopes m ({slopes}): each head adds −m(i − j) to the scaled score of query i for key j.")
    if "window" in fixture:
        w = fixture["window"]
        notes.append(f"A sliding window of {w}: the query at position i sees the keys at positions i − {w - 1} to i.")
    notes += current_settings(fixture, places)
    if "query_block_size" in fixture:
        b_q, b_k = fixture["query_block_size"], fixture["block_size"]
        notes.append(
            f"Tiles of {b_q} quer{'y' if b_q == 1 else 'ies'} by {b_k} key{'' if b_k == 1 else 's'}: the queries are "
            f"cut into blocks of {b_q} and the keys into blocks of {b_k}, from the first (the last block may be "
            "shorter)."
        )
    elif "block_size" in fixture:
        b_k = fixture["block_size"]
        notes.append(f"The keys are read in blocks of {b_k}, from the first (the last block may be shorter).")
    block = fixture.get("transformer")
    if block:
        order = "before each sublayer (pre-norm)" if block["order"] == "pre" else "after each residual sum (post-norm)"
        notes.append(
            f"A transformer block: layer norm {order}, ε = {small_constant(block['eps'])}, "
            f"activation {ACTIVATION_NAMES[block['activation']]}."
        )
    return notes


def current_settings(fixture, places):
    """The keys of attention as current models run it, in words: a latent, a sink, linear
    attention, a paged cache."""
    notes = []
    if "latent" in fixture:
        notes.append(
            "Latent attention: C = X W_DKV holds one latent row per token; each head's keys are C W_UK and its "
            "values C W_UV."
        )
    sink = fixture.get("sink", {})
    if "tokens" in sink:
        first = "token stays" if sink["tokens"] == 1 else f"{sink['tokens']} tokens stay"
        notes.append(f"With the window, the first {first} visible to every later query (StreamingLLM).")
    if "logits" in sink:
        logits = ", ".join(
            f"head {i + 1}: {format_values([s], places)[0]}"
            if len(sink["logits"]) > 1
            else format_values([s], places)[0]
            for i, s in enumerate(sink["logits"])
        )
        notes.append(f"Sink logit ({logits}): one more entry in each row's softmax, with no value to read.")
    if "linear" in fixture:
        notes.append(
            "Linear attention: φ(x) = elu(x) + 1 on each entry (x + 1 above 0, eˣ below); query i weighs key j "
            "by φ(q)·φ(k) over the sum of those it sees, with no scale."
        )
    if "paged" in fixture:
        notes.append(f"Pages of {fixture['paged']['page_size']} token slots, handed out lowest number first.")
    return notes


def inputs_html(fixture, places, with_params=False, given_rows=None):
    tables, notes = inputs(fixture, places, with_params, given_rows)
    figures = "".join(
        f'<figure><figcaption>{marked(caption)}</figcaption><table class="abh-matrix">'
        + "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
        + "</table></figure>"
        for caption, rows in tables
    )
    said = "".join(f"<p>{marked(note)}</p>" for note in notes)
    return f'<div class="abh-practice-inputs">{figures}{said}</div>'


def check_item(question):
    q = question.quantity
    attrs = _attrs(
        data_path=question.path,
        data_answer=repr(float(question.answer)),
        data_tolerance=repr(float(q.tolerance)),
        data_low=None if q.low is None else repr(float(q.low)),
        data_high=None if q.high is None else repr(float(q.high)),
        data_whole="true" if q.whole else None,
        data_why=q.why or None,
    )
    lines = "".join(f"<li>{marked(line)}</li>" for line in question.solution)
    return (
        f'<li class="abh-practice-check" {attrs}>'
        f'<span class="abh-practice-label">{marked(q.label)}.</span> '
        f'<span class="abh-practice-tolerance">{html.escape(q.stated)}</span>'
        f'<div class="abh-practice-solution" hidden><p>Worked solution</p><ol>{lines}</ol></div></li>'
    )


def element(lesson):
    """The practice element, or '' for a lesson without a practice block. It shows set 1, new
    numbers, so that its answers are ones the lesson has not shown (set 0, the lesson's own, is
    in the data file with the others)."""
    practice = lesson.practice
    if practice is None:
        return ""
    own = practice.variants[1] if len(practice.variants) > 1 else practice.variants[0]
    items = "\n".join(check_item(question) for question in own.questions)
    attrs = _attrs(
        data_practice=lesson.slug,
        data_variant=own.number,
        data_count=practice.spec.variants,
        data_fixture=json.dumps(own.fixture),
        data_decimals=lesson.decimals,
        data_source=DATA_FILE,
    )
    return (
        f'<div class="abh-practice" {attrs} data-search-exclude>\n'
        '<p class="abh-practice-intro">The same kind of question on new numbers. With scripts on, '
        "<em>New numbers</em> gives another set, and the answers are checked for you.</p>\n"
        f"{inputs_html(own.fixture, lesson.decimals, uses_params(own.questions), own.given)}\n"
        f'<ol class="abh-practice-checks">\n{items}\n</ol>\n'
        f'<p class="abh-practice-print"><a href="{worksheets.LESSON_PAGE}">A worksheet to print</a>: these questions '
        "on any set of numbers, with room to work, and its answer key on separate pages.</p>\n"
        f"{noscript.notice('Drawing new numbers and checking your answers here')}\n</div>"
    )


def placed(lesson, markdown):
    """The page's Markdown with the practice element at its end, unless the lesson placed it itself."""
    if lesson.practice is None or MARKER in markdown:
        return markdown
    return f"{markdown.rstrip()}\n\n{HEADING}\n\n{element(lesson)}\n"


def data_script(lesson):
    """The text of the lesson's practice.js: its sets of new numbers, for the page's script,
    each with the tables and notes of its numbers as the page shows them."""
    data = lesson.practice.to_data()
    for variant, own in zip(data["variants"], lesson.practice.variants, strict=True):
        tables, notes = inputs(variant["fixture"], lesson.decimals, uses_params(own.questions), own.given)
        variant["inputs"] = {"tables": [[caption, rows] for caption, rows in tables], "notes": notes}
    data = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    slug = json.dumps(lesson.slug)
    return f"(window.abhPractice = window.abhPractice || {{}})[{slug}] = {data};\n"
