"""The short examples in the engine's docstrings run, as ``pytest --doctest-modules`` would."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import companion.engine


def _engine_modules() -> list[ModuleType]:
    found = pkgutil.walk_packages(companion.engine.__path__, prefix="companion.engine.")
    names = ["companion.engine", *(m.name for m in found)]
    return [importlib.import_module(name) for name in sorted(names)]


@pytest.mark.parametrize("module", _engine_modules(), ids=lambda m: m.__name__)
def test_docstring_examples_run(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
