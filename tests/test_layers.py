"""The code's layers point one way (shared/DESIGN.md): a number travels from the fixture
(``sources``) through the engine to the names a template may use (``vocabulary``), then to
text (``render``) and pages, and the MkDocs wiring (``site``) and the authors' tools
(``tools``) sit on top. Each package may import only the layers below its own (LAYERS, in
order), and each package's ``__init__`` docstring says its job, lists its modules and names
what it may import, so the rule a newcomer reads is the rule this file checks.

Imports are read from the source (every ``import``/``from`` statement, inside functions
too), so an import made lazily to save start-up time counts as well.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CODE = ROOT / "macros"


def module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in CODE.rglob("*.py") if "__pycache__" not in path.parts}

# The layers, lowest first. A module may import its own layer and those listed before it; the
# layers in one inner tuple are siblings that do not import each other.
LAYERS = (
    "macros.errors",  # the located errors every layer raises
    # files written whole, old cache files removed; a shown calculation read and redone
    ("macros.caching", "macros.redo"),
    "macros.engine",  # numpy steps and the Trace (checked below: it imports nothing of ours)
    "macros.sources",  # reading what authors write
    "macros.compute",  # a validated fixture computed, guarded against overflow
    "macros.lookup",  # a value by name, and the hint when a name is not there
    "macros.render",  # numbers become text
    "macros.vocabulary",  # the names a lesson template may use
    "macros.explain",  # the shared step partials
    "macros.practice",  # seeded practice variants
    "macros.lessons",  # a lesson: fixture, trace, front matter and practice together
    "macros.notebooks",  # each lesson's notebook
    "macros.pages",  # the book rendered, its cache and its checks
    ("macros.tools", "macros.site"),  # the authors' commands; the MkDocs wiring
    ("macros.__main__", "macros"),  # the command line; mkdocs-macros' entry point
)
MAX_LOOSE = 6  # modules loose at the top of macros/, beside its packages


def layer_of(name):
    """The index in LAYERS of the layer a module belongs to, and the layer's own name."""
    for index, layer in enumerate(LAYERS):
        for member in layer if isinstance(layer, tuple) else (layer,):
            if name == member or (member != "macros" and name.startswith(member + ".")):
                return index, member
    raise AssertionError(f"{name} is in no layer: add its package to LAYERS in tests/test_layers.py")


def allowed(name, target):
    """Whether ``name`` may import ``target``: the same layer's own package, or a lower layer."""
    (mine, own), (theirs, other) = layer_of(name), layer_of(target)
    return own == other or theirs < mine


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


def test_imports_point_down_the_layers(graph):
    upward = sorted(
        f"{name} imports {target}" for name, targets in graph.items() for target in targets if not allowed(name, target)
    )
    assert upward == [], "imports against the layers (tests/test_layers.py, LAYERS):\n" + "\n".join(upward)


def test_the_layer_rule_sees_an_upward_import(graph):
    """The control: the engine importing the pages, or the site importing a tool, is refused."""
    assert not allowed("macros.engine.steps", "macros.pages.book")
    assert not allowed("macros.site.hooks", "macros.tools.golden")
    assert allowed("macros.pages.book", "macros.engine.steps")


def test_every_module_is_in_a_layer():
    for name in MODULES:
        layer_of(name)


def test_few_modules_lie_loose_at_the_top():
    loose = sorted(path.name for path in CODE.glob("*.py"))
    assert len(loose) <= MAX_LOOSE, (
        f"{len(loose)} modules loose in macros/: {loose}; put each in the package of its job"
    )


def packages():
    return sorted(path.parent for path in CODE.glob("*/__init__.py"))


@pytest.mark.parametrize("package", packages(), ids=lambda path: path.name)
def test_each_package_says_its_job_its_modules_and_what_it_may_import(package):
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))) or ""
    own = f"macros.{package.name}"
    unnamed = [
        path.name
        for path in sorted(package.iterdir())
        if path.name != "__init__.py" and (path.suffix == ".py" or (path / "__init__.py").exists())
        if path.name not in doc
    ]
    assert unnamed == [], f"{own}/__init__.py's docstring does not name {unnamed}"
    index, _ = layer_of(own)
    below = [
        member
        for layer in LAYERS[:index]
        for member in (layer if isinstance(layer, tuple) else (layer,))
        if member not in ("macros", "macros.__main__")
    ]
    said = re.search(r"May import: (.*?)\.(?:\s|$)", doc, re.S)
    assert said, f"{own}/__init__.py's docstring has no 'May import: ...' line"
    if own == "macros.engine":
        assert said[1].startswith("nothing"), "the engine imports nothing of ours"
        return
    span = re.match(r"(macros\.\w+) to (macros\.\w+)", said[1])
    named = below[below.index(span[1]) : below.index(span[2]) + 1] if span else re.findall(r"macros\.\w+", said[1])
    assert named == below, f"{own} may import {below[0]} to {below[-1]}; its docstring says {said[1]!r}"


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
