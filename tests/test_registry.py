"""One registry of template names: a name defined twice stops the build and says where."""

import re

import numpy as np
import pytest

from macros.pages import context
from macros.vocabulary import facts
from macros.vocabulary.registry import DuplicateNameError, Registry
from tests import computed


def line_of(path, text):
    lines = open(path, encoding="utf-8").read().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_a_name_defined_twice_is_refused_with_both_places():
    registry = Registry().add(context.formatting, context.formatting(3))
    with pytest.raises(DuplicateNameError) as caught:
        registry.add(facts.names, {**facts.names(3), "argmax": None})
    first = line_of("macros/pages/context.py", '"argmax": lambda v: claims.argmax(v, places)')
    assert str(caught.value) == (
        f"the template name 'argmax' is defined twice: at macros/pages/context.py:{first} and at "
        f"macros/vocabulary/facts.py:{line_of('macros/vocabulary/facts.py', 'def names(places):')}"
    )


def test_a_front_matter_field_that_shadows_a_helper_is_refused():
    registry = Registry().add(context.formatting, context.formatting(3))
    with pytest.raises(
        DuplicateNameError, match="'num' is defined twice: at macros/pages/context.py:.* at x.md: front matter"
    ):
        registry.add("x.md: front matter", {"num": 3})


@pytest.mark.parametrize("slug", computed.SLUGS)
def test_every_lesson_sees_each_name_once(slug):
    names = computed.names(computed.lesson(slug))
    assert {"num", "mat", "shown", "claim", "explain", "lessons"} <= set(names)
    assert not any(re.search(r"chapter", name) for name in names)


def test_exp_and_log_undo_each_other_for_a_log_sum_exp():
    # FlashAttention's lesson writes lse = m + log l; log is natural, as exp's inverse
    names = context.comparisons()
    assert names["log"](np.e) == pytest.approx(1.0)
    assert names["log"](names["exp"]([0.5, 2.0])) == pytest.approx([0.5, 2.0])
