"""The short examples in docstrings outside the engine run too (the engine's: tests/engine)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import companion

# Training needs PyTorch (an optional extra); ``__main__`` runs the command line.
_SKIPPED = ("companion.engine", "companion.vision.training", "companion.__main__")


def _modules() -> list[ModuleType]:
    names = [m.name for m in pkgutil.walk_packages(companion.__path__, prefix="companion.")]
    return [importlib.import_module(n) for n in sorted(names) if not n.startswith(_SKIPPED)]


@pytest.mark.parametrize("module", _modules(), ids=lambda m: m.__name__)
def test_docstring_examples_run(module: ModuleType) -> None:
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0
