"""Formulas set as rows that wrap (macros/render/math_rows.py), cut by hand-written cases: only
at the top level, never inside braces, environments or \\left…\\right."""

from macros.render.math_rows import items, side_by_side, steps


def test_a_list_of_formulas_is_cut_at_its_separators():
    assert items(r"W_Q = A, \quad W_K = B, \qquad W_V = C") == ["W_Q = A,", "W_K = B,", "W_V = C"]
    assert items(r"x \quad y") == [r"x \quad y"]  # a \quad after no comma is spacing, not a list
    assert items(r"\begin{bmatrix} 1 \qquad 2 \end{bmatrix}") == [r"\begin{bmatrix} 1 \qquad 2 \end{bmatrix}"]


def test_a_chain_is_cut_before_each_relation_and_plus_at_the_top_level():
    assert steps(r"X = E + P = \begin{bmatrix} a = b \end{bmatrix}") == [
        "X",
        "= E",
        "+ P",
        r"= \begin{bmatrix} a = b \end{bmatrix}",
    ]
    assert steps(r"s \approx 1 \approx 2") == ["s", r"\approx 1", r"\approx 2"]
    assert steps(r"\left( a = b \right) = d_{i+1}") == [r"\left( a = b \right)", "= d_{i+1}"]
    assert steps(r"a \leftarrow b = c") == [r"a \leftarrow b", "= c"]  # \leftarrow opens nothing
    assert steps(r"n = \frac{a}{b} \\ \approx 3") == ["n", r"= \frac{a}{b}", r"\approx 3"]


def test_only_a_display_of_several_pieces_becomes_a_row():
    one = '<div class="arithmatex">\\[x^2\\]</div>'
    assert side_by_side(one) == one
    row = side_by_side('<div class="arithmatex">\\[A = 1, \\qquad B\\]</div>')
    assert row == (
        '<div class="math-row"><div class="math-chain"><div class="arithmatex">\\[A\\]</div>'
        '<div class="arithmatex">\\[= 1,\\]</div></div>'
        '<div class="math-chain"><div class="arithmatex">\\[B\\]</div></div></div>'
    )
