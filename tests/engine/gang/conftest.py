"""The reference's caches last one test: values are shared within a property run, where they pay."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.engine.gang import reference


@pytest.fixture(autouse=True)
def _reference_caches_per_test() -> Iterator[None]:
    yield
    reference.clear_caches()
