"""The book's own TeX reader (``macros.redo.tex``) reads every formula of the book as
pylatexenc's parser does with the same macros declared: the same nodes, kinds, names and
places, argument by argument (pylatexenc is the reference here; the build no longer uses it
to read the pages' sums). Malformed TeX of each kind below is refused by both."""

import functools

import pytest
from pylatexenc import latexwalker, macrospec

from macros.pages import shown_arithmetic
from macros.redo import latex, tex
from tests import computed

# Formulas the book writes or may write, one construct or more each (the pages hold the rest).
WRITTEN = [
    r"  a \alpha  x + \cdot\, 2",
    "\\alpha\n  x \\beta\n\n y",
    r"W_Q^{(1)} x^ 2 \left( 3 \right) \sqrt[3]{x}\sqrt {y}",
    r"\text{ab c}' \frac 1 2 \frac{a}{ b } \tfrac{1}{\sqrt{2}}",
    r"\begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}",
    "a % a comment\n + b",
    r"x^\top \left\{ a \right. \hspace{1em} \big( 2 \big)",
    r"a^\frac{1}{2} \underbrace{32}_{\text{layers}}",
    r"\begin{aligned} s &= v_a \cdot \tanh [4, -1] \\ t &\approx 0.238 \end{aligned}",
    r"\operatorname{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right) = [0.5, 0.5]",
    r"a $b$ c \sqrt[{3}]{x} \sqrt[3 \alpha]x x_{b}^{c}_d",
]
MALFORMED = [
    r"a } b",
    r"{ a",
    r"a^",
    "x^\\",
    r"\frac{1}",
    r"\begin{aligned} x \end{bmatrix}",
    r"\end{aligned}",
    r"x \)",
]


@functools.cache
def context():
    """pylatexenc's parser told the arguments ``latex.ARGUMENTS`` and ``tex.SCRIPTS`` give."""
    db = macrospec.LatexContextDb()
    db.add_context_category(
        "book",
        macros=[macrospec.MacroSpec(name, arguments) for name, arguments in latex.ARGUMENTS.items()],
        specials=[
            *(macrospec.SpecialsSpec(mark, args_parser=macrospec.MacroStandardArgsParser("{")) for mark in tex.SCRIPTS),
            macrospec.SpecialsSpec("&"),
        ],
    )
    db.set_unknown_macro_spec(macrospec.MacroSpec(""))
    db.set_unknown_environment_spec(macrospec.EnvironmentSpec(""))
    return db


def pylatexenc_read(formula):
    nodes, _, _ = latexwalker.LatexWalker(formula, latex_context=context(), tolerant_parsing=False).get_latex_nodes()
    return [_theirs(node) for node in nodes if not node.isNodeType(latexwalker.LatexCommentNode)]


def _theirs(node):
    if node is None:
        return None
    end = node.pos + node.len
    arguments = [_theirs(arg) for arg in node.nodeargd.argnlist] if getattr(node, "nodeargd", None) else []
    if node.isNodeType(latexwalker.LatexCharsNode):
        return (tex.CHARS, node.chars, node.pos, end)
    if node.isNodeType(latexwalker.LatexGroupNode):
        return (tex.GROUP, node.delimiters[0], node.pos, end, _all(node.nodelist))
    if node.isNodeType(latexwalker.LatexSpecialsNode):
        return (tex.SPECIAL, node.specials_chars, node.pos, end, arguments)
    if node.isNodeType(latexwalker.LatexEnvironmentNode):
        return (tex.ENVIRONMENT, node.environmentname, node.pos, end, _all(node.nodelist))
    if node.isNodeType(latexwalker.LatexMathNode):
        return (tex.MATH, node.delimiters[0], node.pos, end, _all(node.nodelist))
    return (tex.MACRO, node.macroname, node.pos, end, arguments)


def _all(nodes):
    return [_theirs(node) for node in nodes if not node.isNodeType(latexwalker.LatexCommentNode)]


def ours(node):
    if node is None:
        return None
    if node.kind == tex.CHARS:
        return (tex.CHARS, node.name, node.start, node.end)
    if node.kind in (tex.GROUP, tex.ENVIRONMENT, tex.MATH):
        return (node.kind, node.name, node.start, node.end, [ours(inner) for inner in node.nodes])
    return (node.kind, node.name, node.start, node.end, [ours(argument) for argument in node.arguments])


def read(formula, arguments=latex.ARGUMENTS):
    return [ours(node) for node in tex.nodes(formula, arguments)]


@pytest.mark.parametrize("formula", WRITTEN)
def test_each_construct_reads_as_pylatexenc_reads_it(formula):
    assert read(formula) == pylatexenc_read(formula)


@pytest.mark.parametrize("slug", computed.SLUGS)
def test_every_formula_of_a_page_reads_as_pylatexenc_reads_it(slug):
    for formula, _ in shown_arithmetic.formulas(computed.page(slug)):
        assert read(formula) == pylatexenc_read(formula), formula


@pytest.mark.parametrize("formula", MALFORMED)
def test_tex_either_refuses_the_other_refuses(formula):
    with pytest.raises(latexwalker.LatexWalkerError):
        pylatexenc_read(formula)
    with pytest.raises(tex.TexError):
        tex.nodes(formula, latex.ARGUMENTS)


def test_the_comparison_sees_a_difference():
    # negative control: \frac told to read one argument, not two, reads otherwise than pylatexenc
    formula = r"\frac{1}{2}"
    assert read(formula, {**latex.ARGUMENTS, "frac": "{"}) != pylatexenc_read(formula)
