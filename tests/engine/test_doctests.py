"""The short examples in the engine's docstrings run, as ``pytest --doctest-modules`` would."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import companion.engine


def _engine_modules() -> list[ModuleType]:
    names = [m.name for m in pkgutil.iter_modules(companion.engine.__path__)]
    return [importlib.import_module(f"companion.engine.{name}") for name in sorted(names)]


@pytest.mark.parametrize("module", _engine_modules(), ids=lambda m: m.__name__)
def test_docstring_examples_run(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
