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
    "engine": {"messages", "errors"},
    "formats": {"messages", "errors", "engine"},
    "storage": {"messages", "errors"},
    "vision": {"messages", "errors", "engine"},
    "cli": {"messages", "errors", "engine", "formats", "storage", "vision", "ui", "cli"},
    "ui": {"messages", "errors", "engine", "formats", "storage", "vision", "ui"},
}


def _modules(path: Path) -> set[str]:
    """Every module a source file imports (its ``from`` modules, its ``import`` names)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def _imports(part: str) -> set[tuple[str, str]]:
    """(file, imported part) for every import of ``companion.<x>`` in a part of the package."""
    found = set()
    folder = ROOT / "companion" / part
    files = [folder.with_suffix(".py")] if not folder.is_dir() else list(folder.rglob("*.py"))
    for path in files:
        for name in _modules(path):
            parts = name.split(".")
            if parts[0] == "companion" and len(parts) > 1 and parts[1] != part:
                found.add((str(path.relative_to(ROOT)), parts[1]))
    return found


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_each_part_imports_only_the_layers_below_it(part: str) -> None:
    wrong = sorted((path, name) for path, name in _imports(part) if name not in ALLOWED[part])
    assert wrong == []


def test_screens_do_not_import_each_other_s_views() -> None:
    # A screen's state and actions never reach into another screen's view.
    for path in (ROOT / "companion" / "ui").glob("*/*.py"):
        if path.stem == "view":
            continue
        source = path.read_text(encoding="utf-8")
        assert ".view import" not in source, path


def test_the_card_reader_knows_no_table_layout() -> None:
    # One way: a layout step reads with the reader (``vision/layouts/read.py``), never back.
    reader = sorted((ROOT / "companion" / "vision").glob("*.py"))
    assert ROOT / "companion" / "vision" / "detector.py" in reader
    wrong = [
        (str(path.relative_to(ROOT)), name)
        for path in reader
        for name in sorted(_modules(path))
        if name == "companion.vision.layouts" or name.startswith("companion.vision.layouts.")
    ]
    assert wrong == []
