"""The README is the map, so it is held to the tree, and its examples to what they print.

- **The Layout table is complete.** Granularity: every package under ``companion/`` (a folder
  with an ``__init__.py``, the root included) has its own row, the row's first cell being its
  path (``companion/vision/base/``); that row names, in backticks, every module of the package
  (each ``*.py`` but ``__init__.py``, private ``_io`` and ``__main__`` included) by its name
  without ``.py``. Subpackages are named by their own rows. A module or package added unnamed,
  or a row left for one removed, fails.
- **The tour's examples run as written**: the Python snippet (a ``python`` block of ``>>>``
  lines) as a doctest, and each ``$ companion ...`` line of a ``console`` block prints exactly
  the lines under it.
- **Its test command is CI's**: ``.ci/run`` ends with the README's test command, exactly.
- **Relative links resolve** in the README, ``docs/*.md`` and the model card: the file exists
  and an ``#anchor`` is one of its headings (GitHub's slugs) or the README's ``<img>`` exists.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

README = ROOT / "README.md"


def _section(text: str, title: str) -> str:
    """A Markdown text's ``## title`` section, up to the next ``## `` heading."""
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _layout_rows(readme: str) -> dict[str, str]:
    """The Layout table: its first cell (a backticked path) -> the rest of its row."""
    rows: dict[str, str] = {}
    for line in _section(readme, "Layout").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].startswith("`"):
            path = cells[0].strip("`")
            assert path not in rows, f"the Layout table has two rows for {path}"
            rows[path] = "|".join(cells[1:])
    return rows


def _packages(root: Path) -> list[Path]:
    """Every package folder under ``root/companion/``, the root package included."""
    found = (root / "companion").rglob("__init__.py")
    return sorted(p.parent for p in found if "__pycache__" not in p.parts)


def _named(cell: str) -> set[str]:
    """The names a row gives in backticks (``name``, ``name.py`` or ``name/``)."""
    return {t.removesuffix("/").removesuffix(".py") for t in re.findall(r"`([^`]+)`", cell)}


def _unnamed(root: Path, readme: str) -> list[str]:
    """The packages with no row and the modules their row leaves out; then stale rows."""
    rows = _layout_rows(readme)
    paths = {p.relative_to(root).as_posix() + "/": p for p in _packages(root)}
    missing = [f"{path} (no row)" for path in paths if path not in rows]
    for path, package in paths.items():
        named = _named(rows.get(path, ""))
        missing += [
            module.relative_to(root).as_posix()
            for module in sorted(package.glob("*.py"))
            if path in rows and module.name != "__init__.py" and module.stem not in named
        ]
    stale = [f"{p} (gone)" for p in rows if p.startswith("companion/") and p not in paths]
    return missing + stale


def test_every_package_has_its_row_and_every_module_is_named() -> None:
    unnamed = _unnamed(ROOT, README.read_text(encoding="utf-8"))
    assert not unnamed, f"the README's Layout table must name: {unnamed}"


def test_the_layout_check_sees_a_module_added_unnamed_and_a_row_gone_stale(tmp_path: Path) -> None:
    for module in ("__init__", "errors", "game/__init__", "game/rules", "game/board"):
        (tmp_path / "companion" / f"{module}.py").parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "companion" / f"{module}.py").touch()
    readme = (
        "# X\n\n## Layout\n\n| where | what |\n|---|---|\n"
        "| `companion/` | `errors` |\n| `companion/game/` | `rules` (the rules) |\n"
        "| `companion/gone/` | `old` |\n\n## Next\n"
    )
    assert _unnamed(tmp_path, readme) == ["companion/game/board.py", "companion/gone/ (gone)"]
    without_row = readme.replace("| `companion/game/` | `rules` (the rules) |\n", "")
    assert "companion/game/ (no row)" in _unnamed(tmp_path, without_row)


def _blocks(kind: str) -> list[str]:
    """The README's fenced blocks of one kind (``python``, ``console``, ``bash``)."""
    return re.findall(rf"^```{kind}\n(.*?)^```", README.read_text(encoding="utf-8"), re.M | re.S)


def test_the_python_snippet_prints_what_the_readme_says() -> None:
    (snippet,) = [b for b in _blocks("python") if ">>>" in b]
    test = doctest.DocTestParser().get_doctest(snippet, {}, "README", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert len(test.examples) >= 5


def test_the_commands_print_what_the_readme_says() -> None:
    commands = 0
    for block in _blocks("console"):
        command, *expected = block.rstrip("\n").split("\n")
        assert command.startswith("$ companion "), command
        args = command.removeprefix("$ companion ").split()
        env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        done = subprocess.run(
            [sys.executable, "-m", "companion", *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=env,
            timeout=120,
        )
        assert done.stdout.rstrip("\n").split("\n") == expected, done.stderr
        commands += 1
    assert commands >= 1


def test_ci_runs_the_readmes_test_command_exactly() -> None:
    commands = [b.strip() for b in _blocks("bash")]
    (test_command,) = [c for c in commands if "pytest" in c]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == test_command


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    return {_slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def _documents() -> list[Path]:
    return [README, ROOT / "models" / "MODEL_CARD.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("document", _documents(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(document: Path) -> None:
    text = re.sub(r"^```.*?^```", "", document.read_text(encoding="utf-8"), flags=re.M | re.S)
    targets = re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'<img src="([^"]+)"', text)
    broken = []
    for target in targets:
        if re.match(r"[a-z]+:", target):
            continue  # a web address or mailto: not checked (nothing leaves the machine)
        file, _, anchor = target.partition("#")
        linked = (document.parent / file).resolve() if file else document
        if not linked.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
            broken.append(f"{target} (no such heading)")
    assert not broken, f"{document.name}: {broken}"
