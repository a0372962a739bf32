"""The house's imports: twelve folders, each importing only from those below
it (in README's order, "Layout"); no module imports itself round a circle,
and none reaches into another module's private names.

Every import counts, those inside a function too (a circle hidden in a lazy
import is still a circle a reader must untie).  A failure names the circle,
or the private name and who imports it, so a new one is seen when it is
written, not found later."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cardcli"
#: The folders of the core, lowest first: each may import only from itself and those before it.
WINGS = ["kit", "contract", "words", "engine", "unseen", "records", "cpu", "terminal", "realtable", "serve",
         "cli", "testing"]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _imports(name: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, list[str]]]:
    """Each cardcli module ``name`` imports, with the names it takes from it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names if alias.name in modules]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [alias.name for alias in node.names]
            # ``from . import moved`` imports a module; ``from .cards import NAME`` a name of one.
            for alias in names:
                if f"{target}.{alias}" in modules:
                    found.append((f"{target}.{alias}", []))
            if target in modules:
                found.append((target, [n for n in names if f"{target}.{n}" not in modules]))
    return [(module, names) for module, names in found if module != name]


@cache
def _graph() -> dict[str, dict[str, list[str]]]:
    modules = _modules()
    graph: dict[str, dict[str, list[str]]] = {}
    for name, path in modules.items():
        edges: dict[str, list[str]] = {}
        for module, names in _imports(name, path, modules):
            edges.setdefault(module, []).extend(names)
        graph[name] = edges
    return graph


def _circles(graph: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, {}):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                group.append(other)
                if other == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_the_graph_is_read():
    graph = _graph()
    assert "cardcli.engine.driver" in graph and "cardcli.contract.variant" in graph["cardcli.engine.game"]
    assert "cardcli.cli.record_files" in graph["cardcli.cli.play"]
    # a lazy import inside a function is read too
    assert "cardcli.cpu.ray" in graph["cardcli.cli.common"]


def test_no_module_imports_itself_round_a_circle():
    circles = _circles(_graph())
    assert not circles, "import circles: " + "; ".join(" -> ".join(group) for group in circles)


def test_no_module_takes_another_modules_private_names():
    taken = [f"{name} takes {private} from {module}"
             for name, edges in _graph().items() for module, names in edges.items()
             for private in names if private.startswith("_") and not private.startswith("__")]
    assert not taken, "; ".join(taken)


def test_a_circle_would_be_found():
    assert _circles({"a": {"b": []}, "b": {"c": []}, "c": {"a": []}, "d": {"a": []}}) == [["a", "b", "c"]]


def test_the_core_is_twelve_folders():
    entries = {path.name for path in PACKAGE.iterdir() if not path.name.startswith(".")
               and path.name not in ("__init__.py", "__main__.py", "py.typed", "__pycache__")}
    assert entries == set(WINGS)


def test_the_readme_draws_the_folders_in_their_order():
    readme = (PACKAGE.parents[1] / "README.md").read_text(encoding="utf-8")
    drawn = [line.split("/")[2] for line in readme.splitlines() if line.startswith("src/cardcli/")]
    assert drawn == WINGS


def _wing(module: str) -> str:
    return module.split(".")[1] if module.count(".") else ""


def test_no_arrow_runs_back_up_between_the_folders():
    wrong = [f"{name} imports {module}" for name, edges in _graph().items() for module in edges
             if _wing(name) in WINGS and _wing(module) in WINGS
             and WINGS.index(_wing(module)) > WINGS.index(_wing(name))]
    assert not wrong, "; ".join(sorted(wrong))


def test_the_record_format_is_a_leaf():
    """It needs only the errors it raises and the language they are said in, which need nothing."""
    graph = _graph()
    assert set(graph["cardcli.kit.record_format"]) <= {"cardcli.kit.errors", "cardcli.kit.language"}
    assert set(graph["cardcli.kit.errors"]) <= {"cardcli.kit.language"}
    assert not set(graph["cardcli.kit.language"])
