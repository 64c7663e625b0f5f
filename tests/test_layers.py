"""The code's layers point one way (shared/DESIGN.md): the engine imports nothing of ours but
itself; nothing imports the MkDocs wiring (macros/site/) but the wiring itself and the
plugin's entry point; there are no import cycles; modules are named by concept.

Imports are read from the source (every ``import``/``from`` statement, inside functions
too), so an import made lazily to save start-up time counts as well.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CODE = ROOT / "macros"


def module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in CODE.rglob("*.py") if "__pycache__" not in path.parts}


def resolve(name):
    """The project's module a dotted name lives in, or None for anything else."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(path):
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {resolve(f"{node.module}.{alias.name}") or resolve(node.module) for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {resolve(alias.name) for alias in node.names}
    return found - {None, module_name(path)}


@pytest.fixture(scope="module")
def graph():
    """Each module of macros/ with the project's modules it imports. Made when the tests run,
    not when pytest collects them: reading every module takes 0.15 to 0.2 s, and each pytest
    process collects this file."""
    return {name: frozenset(imports(path)) for name, path in MODULES.items()}


def cycles(graph):
    """Each import cycle once, as the list of modules around it (Tarjan's components)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_there_is_no_import_cycle(graph):
    assert cycles(graph) == []


def test_the_finder_sees_a_cycle(graph):
    """The control: two modules importing each other are one component."""
    looped = dict(graph)
    looped["macros.engine.steps"] |= {"macros.engine.trace"}
    looped["macros.engine.trace"] |= {"macros.engine.steps"}
    assert ["macros.engine.steps", "macros.engine.trace"] in cycles(looped)


def test_the_engine_imports_nothing_of_ours_but_itself(graph):
    outside = {
        (name, target)
        for name, targets in graph.items()
        if name.startswith("macros.engine")
        for target in targets
        if not target.startswith("macros.engine")
    }
    assert outside == set()


def test_only_the_wiring_and_the_entry_point_import_the_wiring(graph):
    importers = {
        name
        for name, targets in graph.items()
        if any(target.startswith("macros.site") for target in targets) and not name.startswith("macros.site")
    }
    assert importers == {"macros"}  # macros/__init__.py: mkdocs-macros' define_env and hook


def test_modules_are_named_by_concept_not_by_chapter():
    assert [name for name in MODULES if "chapter" in name] == []
    assert [path.name for path in (ROOT / "tests").glob("*chapter*")] == []
