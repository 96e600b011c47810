from __future__ import annotations

import doctest
from types import ModuleType

import pytest

import companion.storage
from companion.storage import figures, paths, photos, stats


@pytest.mark.parametrize(
    "module", [companion.storage, figures, paths, photos, stats], ids=lambda m: m.__name__
)
def test_examples_in_docstrings_run(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
