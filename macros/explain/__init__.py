"""The shared step partials: attention's standard explanations, written once in
``steps.md.j2`` and called from a lesson by name, as ``{{ explain.softmax(head, row) }}``.

The words live in the Jinja file, next to the lessons' own prose; this module only loads it,
through the pages' own environment, and binds it to one lesson's helpers, so every number
goes through the same ``num``, ``vec`` and ``mat`` (and the same decimals) as the lesson's
text. A claim inside a partial fails the build like one in the lesson, located at the lesson
line that called the partial. Each partial names the cases of a layer it models
(``macros.vocabulary.facts.CASES``) and refuses the others.

May import: macros.errors to macros.vocabulary.
"""

from macros.errors import LessonError
from macros.vocabulary.facts import CASES, layer_cases

TEMPLATE = "macros/explain/steps.md.j2"


def cases_refused(partial, modelled, cases):
    """The mistake when a partial is called for a layer it does not model, or None."""
    extra = sorted(set(cases) - set(modelled))
    if not extra:
        return None
    knows = "plain attention" + (" with " + " or ".join(CASES[c] for c in modelled) if modelled else "")
    has = " and ".join(CASES[c] for c in extra)
    return (
        f"explain.{partial}() is written for {knows}; this lesson's layer has {has}: say it in the lesson's own words"
    )


def partials(env, names):
    """The partials bound to a lesson's names (its trace, heads and formatting helpers)."""
    heads = names["heads"]

    def head_number(head):
        """1, 2, … for a head of this lesson, or None when the layer has one head (no superscript)."""
        if len(heads) == 1:
            return None
        return next(i + 1 for i, h in enumerate(heads) if h is head)

    def projections_of(head):
        """The head's W_Q, W_K and W_V as the lesson gives them."""
        return names["fixture"].heads[next(i for i, h in enumerate(heads) if h is head)]

    cases = layer_cases(names["fixture"])

    def expects(partial, *modelled):
        """Called first in every partial: the cases it models; any other case stops the build."""
        refused = cases_refused(partial, modelled, cases)
        if refused:
            raise LessonError(refused)
        return ""

    extra = {"head_number": head_number, "projections_of": projections_of, "expects": expects}
    return env.get_template(TEMPLATE).make_module(vars={**names, **extra})
