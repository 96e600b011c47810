"""What every test module shares: no engine table outlives its module, and a property run
under ``slow`` stands for its default-sized twin."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers import clear_engine_tables


@pytest.fixture(autouse=True, scope="module")
def _engine_tables_per_module() -> Iterator[None]:
    # The tables are caches: a module rebuilds the few it uses, and the suite's memory stays that
    # of one module instead of growing with every rule set any module tried.
    yield
    clear_engine_tables()


@pytest.hookimpl(trylast=True)  # after ``-m`` and ``-k`` have chosen
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Where a property's ``_slow`` twin (the same check, five times the examples) is selected,
    its default-sized twin is left out: its examples add nothing the twin does not draw."""
    selected = {(item.module, item.name) for item in items if _is_slow_twin(item)}
    twins = [
        item
        for item in items
        if (item.module, _slow_name(item)) in selected and not _is_slow_twin(item)
    ]
    if twins:
        config.hook.pytest_deselected(items=twins)
        items[:] = [item for item in items if item not in twins]


def _is_slow_twin(item: pytest.Item) -> bool:
    return isinstance(item, pytest.Function) and item.originalname.endswith("_slow")


def _slow_name(item: pytest.Item) -> str:
    """The name the item's slow twin would have: ``test_x[p]`` -> ``test_x_slow[p]``."""
    if not isinstance(item, pytest.Function):
        return ""
    return item.name.replace(item.originalname, f"{item.originalname}_slow", 1)
