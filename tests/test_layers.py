"""The package's layers: each imports only those below it, so the tree shows the architecture."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from tests.helpers import ROOT

# What each top-level part may import from the rest of the package.
ALLOWED = {
    "messages": set(),
    "errors": {"messages"},
    "bench": set(),
    "engine": {"messages", "errors"},
    "formats": {"messages", "errors", "engine"},
    "storage": {"messages", "errors"},
    "vision": {"messages", "errors", "engine", "bench"},
    # A heist drawn as a picture to share: the log's records, their deal judged again, the
    # words; no app.
    "share": {"messages", "errors", "engine", "formats", "storage"},
    "cli": {"messages", "errors", "engine", "formats", "storage", "vision", "ui", "cli", "share"},
    "ui": {"messages", "errors", "engine", "formats", "storage", "vision", "ui", "share"},
}


def _imports(part: str) -> set[tuple[str, str]]:
    """(file, imported part) for every import of ``companion.<x>`` in a part of the package."""
    folder = ROOT / "companion" / part
    files = [folder.with_suffix(".py")] if not folder.is_dir() else list(folder.rglob("*.py"))
    return _imports_of(files, part)


def _imports_of(files: list[Path], part: str) -> set[tuple[str, str]]:
    """(file, imported part) for every import of another part in ``files`` (of ``part``)."""
    found = set()
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


def test_only_the_models_training_uses_the_benchmark_kit() -> None:
    # The card reader the app loads never depends on measuring tools: only the training's
    # latency lines (``vision/training/evaluate.py``) name their CPU.
    outside = [
        path
        for path in (ROOT / "companion" / "vision").rglob("*.py")
        if "training" not in path.relative_to(ROOT / "companion" / "vision").parts
    ]
    assert [found for found in _imports_of(outside, "vision") if found[1] == "bench"] == []


# The app's own layers inside ``companion.ui``: the shared kit (``kit/``), the screens (each
# folder with a view), the app above them (``shell/``). Every folder is one of these by name, so a
# new one is placed on purpose; the ``ui/`` root holds folders only.
UI = ROOT / "companion" / "ui"
APP = "shell"
KIT = "kit"


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


@functools.cache  # the tree does not change during a run: parsed once, not once per test
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
    source = "def f():\n    from companion.ui.kit import text\n    from . import cards\n"
    known = {
        "companion.ui.kit",
        "companion.ui.kit.text",
        "companion.ui.kit.cards",
        "companion.ui.kit.widgets",
    }
    assert imported(source, "companion.ui.kit.widgets", False, known) == {
        "companion.ui.kit.text",
        "companion.ui.kit.cards",
    }


def test_no_import_cycle_anywhere_in_the_package() -> None:
    assert cycles(_graph()) == []


def _ui_layer(module: str) -> str:
    """``shared``, ``app``, or the screen's folder name, for a module of ``companion.ui``."""
    parts = module.split(".")
    if len(parts) < 3 or parts[2] == KIT:
        return "shared"  # the package itself, or the kit
    if parts[2] == APP:
        return "app"
    return parts[2]


def _screens() -> set[str]:
    return {p.name for p in UI.iterdir() if p.is_dir() and p.name not in {APP, KIT}} - {
        "__pycache__"
    }


def test_the_ui_root_holds_folders_only() -> None:
    # A loose module there would belong to no layer: it goes in the kit, the shell or a screen.
    assert sorted(p.name for p in UI.glob("*.py")) == ["__init__.py"]


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


# The card reader's stages in the pipeline's order (``models/MODEL_CARD.md``, "Pipeline"), each
# a folder of ``companion.vision``, after the base every stage shares. A stage imports only the
# base and the stages before it; the detector composes them; the layouts and the live path read
# with the detector through a protocol of their own (``layouts.read.TableLooks``,
# ``live.follower.FrameReading``), never importing it; ``evidence`` cuts a read's crops with the
# base alone. Training stands apart: nothing imports it.
STAGES = ("base", "proposals", "corner_reads", "merging", "second_look", "backs")
ABOVE_THE_STAGES = {"detector", "draw", "evidence", "layouts", "live"}
VISION = "companion.vision"


def _vision_part(module: str) -> str:
    """The stage, or the module above the stages, that a module of ``companion.vision`` is in
    ("" for the package's face)."""
    return module.removeprefix(VISION).lstrip(".").split(".")[0]


def _vision_imports() -> list[tuple[str, str]]:
    """(module, imported module) for each import between parts of ``companion.vision``,
    training left out."""
    return [
        (module, target)
        for module, targets in _graph().items()
        if module.startswith(VISION + ".") and _vision_part(module) != "training"
        for target in sorted(targets)
        if target.startswith(VISION + ".") and _vision_part(target) != _vision_part(module)
    ]


def test_every_part_of_the_card_reader_is_a_stage_or_above_them() -> None:
    parts = {_vision_part(m) for m in _graph() if m.startswith(VISION + ".")}
    assert parts == {*STAGES, *ABOVE_THE_STAGES, "training"}


def test_a_stage_imports_only_the_base_and_the_stages_before_it() -> None:
    wrong = [
        (module, target)
        for module, target in _vision_imports()
        if _vision_part(module) in STAGES
        and (
            _vision_part(target) not in STAGES
            or STAGES.index(_vision_part(target)) > STAGES.index(_vision_part(module))
        )
    ]
    assert wrong == []


def test_another_stage_is_known_by_its_face_alone() -> None:
    # ``from companion.vision.corner_reads import CornerRead``, never from its ``reads`` module:
    # a stage's ``__init__`` names what the stages after it may use. The base is shared whole.
    wrong = [
        (module, target)
        for module, target in _vision_imports()
        if _vision_part(target) in STAGES[1:] and target != f"{VISION}.{_vision_part(target)}"
    ]
    assert wrong == []


def test_the_layouts_and_the_live_path_know_the_detector_by_a_protocol() -> None:
    # One way: the layout step and the live path read with the detector, which knows no table
    # and no video; neither imports it, and no stage imports them.
    wrong = [
        (module, target)
        for module, target in _vision_imports()
        if (_vision_part(module) in {"layouts", "live"} and _vision_part(target) == "detector")
        or (
            _vision_part(module) in {*STAGES, "detector"}
            and _vision_part(target) in {"layouts", "live"}
        )
    ]
    assert wrong == []


def test_a_reads_evidence_needs_only_the_base() -> None:
    # The crops a doubt shows are cut from the photo by the quads ``Detections`` keeps: the
    # app cuts them without the stages or a model.
    wrong = [
        (module, target)
        for module, target in _vision_imports()
        if _vision_part(module) == "evidence" and _vision_part(target) != "base"
    ]
    assert wrong == []
    assert f"{VISION}.evidence" in _graph()


def test_nothing_but_training_imports_training() -> None:
    wrong = [
        (module, target)
        for module, targets in _graph().items()
        if not module.startswith(f"{VISION}.training")
        for target in targets
        if target.startswith(f"{VISION}.training")
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
