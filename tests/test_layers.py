"""The package's layers: each imports only those below it, so the tree shows the architecture."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import ROOT

# What each top-level part may import from the rest of the package.
ALLOWED = {
    "messages": set(),
    "errors": {"messages"},
    "machine": set(),
    "engine": {"messages", "errors"},
    "formats": {"messages", "errors", "engine"},
    "storage": {"messages", "errors"},
    "vision": {"messages", "errors", "engine", "machine"},
    "cli": {"messages", "errors", "engine", "formats", "storage", "vision", "ui", "cli"},
    "ui": {"messages", "errors", "engine", "formats", "storage", "vision", "ui"},
}


def _imports(part: str) -> set[tuple[str, str]]:
    """(file, imported part) for every import of ``companion.<x>`` in a part of the package."""
    found = set()
    folder = ROOT / "companion" / part
    files = [folder.with_suffix(".py")] if not folder.is_dir() else list(folder.rglob("*.py"))
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] == "companion" and len(parts) > 1 and parts[1] != part:
                    found.add((str(path.relative_to(ROOT)), parts[1]))
    return found


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_each_part_imports_only_the_layers_below_it(part: str) -> None:
    wrong = sorted((path, name) for path, name in _imports(part) if name not in ALLOWED[part])
    assert wrong == []


# The app's own layers inside ``companion.ui``: the shared kit, the screens (each folder with a
# view), the app above them. Every folder is one of these by name, so a new one is placed on
# purpose.
UI = ROOT / "companion" / "ui"
APP = {"shell", "app", "server"}
SHARED_FOLDERS = {"photo"}


def _module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_of(path): path for path in (ROOT / "companion").rglob("*.py")}


def imported(source: str, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The package's modules that ``source`` (the module ``module``) imports, wherever the
    import stands: at the top, inside a function, or under ``TYPE_CHECKING``."""
    package = module if is_package else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            # ``from a import b`` imports the module a.b where there is one, else a.
            names = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        found.update(name for name in names if name in known)
    return found - {module}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {
        name: imported(path.read_text(encoding="utf-8"), name, path.stem == "__init__", known)
        for name, path in modules.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's import cycles: each strongly connected set of two or more modules, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm; the graph is a few hundred modules
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            members = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                members.append(top)
                if top == node:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_the_cycle_finder_finds_a_cycle_and_only_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"d"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_imports_are_found_inside_functions_and_relative() -> None:
    source = "def f():\n    from companion.ui import text\n    from . import cards\n"
    known = {"companion.ui", "companion.ui.text", "companion.ui.cards", "companion.ui.widgets"}
    assert imported(source, "companion.ui.widgets", False, known) == {
        "companion.ui.text",
        "companion.ui.cards",
    }


def test_no_import_cycle_anywhere_in_the_package() -> None:
    assert cycles(_graph()) == []


def _ui_layer(module: str) -> str:
    """``shared``, ``app``, or the screen's folder name, for a module of ``companion.ui``."""
    parts = module.split(".")
    if len(parts) < 3:
        return "shared"  # the package itself
    top = parts[2]
    if top in APP:
        return "app"
    if (UI / top).is_dir() and top not in SHARED_FOLDERS:
        return top
    return "shared"


def _screens() -> set[str]:
    return {p.name for p in UI.iterdir() if p.is_dir() and p.name not in APP | SHARED_FOLDERS} - {
        "__pycache__"
    }


def test_every_ui_folder_is_a_screen_the_shared_kit_or_the_app() -> None:
    for folder in _screens():
        views = list((UI / folder).glob("*view.py"))
        assert views and (UI / folder / "host.py").is_file(), folder


def _ui_imports() -> list[tuple[str, str]]:
    return [
        (module, target)
        for module, targets in _graph().items()
        if module.startswith("companion.ui")
        for target in sorted(targets)
        if target.startswith("companion.ui")
    ]


def test_the_shared_ui_kit_imports_no_screen_and_not_the_app() -> None:
    wrong = [
        (module, target)
        for module, target in _ui_imports()
        if _ui_layer(module) == "shared" and _ui_layer(target) != "shared"
    ]
    assert wrong == []


def test_a_screen_imports_only_the_shared_kit_and_its_own_folder() -> None:
    wrong = [
        (module, target)
        for module, target in _ui_imports()
        if _ui_layer(module) in _screens()
        and _ui_layer(target) not in ("shared", _ui_layer(module))
    ]
    assert wrong == []


def test_the_card_reader_knows_no_table_layout() -> None:
    # One way: a layout step reads with the reader (``vision/layouts/read.py``), never back.
    graph = _graph()
    reader = [m for m in graph if m.startswith("companion.vision.") and m.count(".") == 2]
    assert "companion.vision.detector" in reader
    wrong = [
        (module, target)
        for module in sorted(reader)
        for target in sorted(graph[module])
        if target.startswith("companion.vision.layouts")
    ]
    assert wrong == []


def test_nothing_outside_the_training_code_imports_it() -> None:
    """The reader and its stages (the back finder too) run without the training extra."""
    training = "companion.vision.training"
    wrong = [
        (module, target)
        for module, targets in _graph().items()
        if not module.startswith(training)
        for target in sorted(targets)
        if target.startswith(training)
    ]
    assert wrong == []
