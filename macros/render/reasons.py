"""The rules a prediction's reasons keep, checked when the page is rendered.

A reader who locks in a wrong option reads that option's reason and may choose again; a
reason that gave the answer away would turn the prediction into copying, and one shared by
several options would say nothing about the option chosen. So:

- every option has a reason, and no sentence of one reason appears in another's (the same
  paragraph under every option is the mistake this catches, whole or as a shared lead);
- a wrong option's reason does not contain the right option's label, its text up to the
  first colon, compared without case, surrounding quotes or a final full stop, at word
  boundaries: "Key 2" is found in "below key 2's score" but not in "key 21".

Each refusal is a ``WidgetError`` naming the prediction and the options; the page adds the
template's file and the line of the ``predict(`` call (macros/pages/located.py).
"""

import re

from macros.errors import WidgetError

QUOTES = "“”‘’\"'«»"


def label(text):
    """What a reader calls an option: its text up to the first colon, without surrounding
    quotes or a final full stop ("“cat”" → "cat", "Key 2: [0, 1]" → "Key 2")."""
    return text.split(":", 1)[0].strip().rstrip(".").strip(QUOTES + " ")


def sentences(reason):
    """A reason's sentences, with single spaces."""
    return [s for s in re.split(r"(?<=[.!?])\s+", " ".join(reason.split())) if s]


def names(reason, name):
    """Whether ``reason`` contains ``name`` as words of its own (any case)."""
    return bool(name) and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", " ".join(reason.split()), re.I) is not None


def refuse_missing(name, reasons):
    for i, reason in enumerate(reasons, 1):
        if not reason.strip():
            raise WidgetError(
                f"predict {name!r}: option {i} has no reason; every option needs one, the sentence a"
                " reader reads after locking it in"
            )


def refuse_shared(name, reasons):
    seen = {}  # a sentence without case: the first option whose reason has it
    for i, reason in enumerate(reasons, 1):
        for sentence in sentences(reason):
            if seen.get(sentence.casefold(), i) != i:
                raise WidgetError(
                    f"predict {name!r}: options {seen[sentence.casefold()]} and {i} share the sentence “{sentence}”;"
                    " give each option a reason of its own, why that option holds or fails"
                )
            seen.setdefault(sentence.casefold(), i)


def refuse_telling(name, texts, reasons, right):
    answer = label(texts[right - 1])
    for i, reason in enumerate(reasons, 1):
        if i != right and names(reason, answer):
            raise WidgetError(
                f"predict {name!r}: the reason of option {i} names the right option, “{answer}”; a wrong"
                " option's reason says why that option fails (it may say what to look at), not which one holds"
            )


def check(name, texts, reasons, right):
    """Refuses reasons that are missing, shared, or that name the right option (1-based ``right``)."""
    refuse_missing(name, reasons)
    refuse_shared(name, reasons)
    refuse_telling(name, texts, reasons, right)
