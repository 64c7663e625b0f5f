"""The glossary lists every symbol a lesson's math uses, named the way the lessons write it."""

import pytest

from macros.vocabulary import glossary
from tests import computed


class TestSymbolsIn:
    def test_naming_subscripts_belong_to_the_symbol_and_indices_do_not(self):
        text = r"$W_Q^{(1)}$, $d_{\text{model}} = 4$ and $$a_3^{(2)} \approx [0.5, 0.5]$$ and $z_{\text{ mouse }}$"
        assert glossary.symbols_in(text) == {"W_Q", "d_model", "a", "z"}
        assert glossary.symbols_in(r"$d_{\text{ff}} = 4 d_{\text{model}}$") == {"d_ff", "d_model"}

    def test_a_label_after_a_closing_brace_is_not_a_symbol(self):
        text = r"$S^{(1)}_{\text{masked}}$ and $\underbrace{32}_{\text{layers}} \times \underbrace{128}_{d_k}$"
        assert glossary.symbols_in(text) == {"S", "d_k"}

    def test_commands_and_text_are_not_symbols(self):
        assert glossary.symbols_in(r"$\operatorname{softmax}\left(S\right) \approx \infty \cdot \text{swap}$") == {"S"}

    def test_a_letter_outside_the_glossary_is_found(self):
        # negative control for the test below: a symbol no glossary entry defines
        assert glossary.symbols_in("$f = 3$") - glossary.glossary_symbols() == {"f"}


@pytest.mark.parametrize("slug", computed.SLUGS)
def test_the_glossary_defines_every_symbol_a_lesson_uses(slug):
    used = glossary.symbols_in(computed.page(slug))
    assert used, f"{slug}: no math found, so the scan found nothing to check"
    assert used - glossary.glossary_symbols() == set(), f"{slug} uses symbols the glossary does not define"


def test_every_symbol_is_in_one_section_of_the_page():
    listed = [name for names in glossary.SECTIONS.values() for name in names]
    assert sorted(listed) == sorted(glossary.GLOSSARY) and len(listed) == len(set(listed))


def test_the_abbreviations_a_reader_searches_for_are_defined():
    terms = " ".join(term for term, _, _ in glossary.TERMS)
    assert all(word in terms for word in ("GQA", "MQA", "RoPE", "KV cache"))
