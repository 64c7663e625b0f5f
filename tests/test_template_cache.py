"""The compiled-template cache: a hit skips compilation, any edit misses, a bad file recompiles."""

import jinja2

from macros import template_cache


def counting_environment(tmp_path):
    environment = jinja2.Environment(undefined=jinja2.StrictUndefined)
    calls = []
    compile_source = environment.compile

    def counted(source, *args, **kwargs):
        calls.append(source)
        return compile_source(source, *args, **kwargs)

    environment.compile = counted
    template_cache.install(environment, tmp_path)
    return environment, calls


def test_second_compile_of_the_same_source_is_read_from_disk(tmp_path):
    environment, calls = counting_environment(tmp_path)
    assert environment.from_string("{{ 1 + x }}").render(x=1) == "2"
    fresh, fresh_calls = counting_environment(tmp_path)  # a new build: a new environment
    assert fresh.from_string("{{ 1 + x }}").render(x=2) == "3"
    assert len(calls) == 1 and fresh_calls == []


def test_an_edited_source_is_compiled_anew(tmp_path):
    environment, calls = counting_environment(tmp_path)
    environment.from_string("{{ x }}")
    assert environment.from_string("{{ x }} ").render(x=1) == "1 "
    assert len(calls) == 2


def test_a_damaged_entry_is_recompiled(tmp_path):
    environment, calls = counting_environment(tmp_path)
    environment.from_string("{{ x }}")
    for path in tmp_path.glob("*.code"):
        path.write_bytes(b"not code")
    fresh, fresh_calls = counting_environment(tmp_path)
    assert fresh.from_string("{{ x }}").render(x=5) == "5" and len(fresh_calls) == 1


def test_the_key_follows_the_delimiters(tmp_path):
    one = jinja2.Environment()
    other = jinja2.Environment(variable_start_string="[[", variable_end_string="]]")
    assert template_cache.compile_key(one, "x") != template_cache.compile_key(other, "x")
