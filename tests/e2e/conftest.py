"""The browser tests run one at a time."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)  # before xdist names the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests form one group: ``-n 2 --dist loadgroup`` (pyproject) runs them one after
    another on one worker, beside the other worker's CPU-bound tests, never two Chromiums at once
    (each waits on a page that a second browser would slow)."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.xdist_group("browser"))
