"""Services over a real game log in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.errors import ModelLoadError
from companion.storage import SqliteGameLog
from companion.ui.kit.services import LazyDetector, Services


def no_model() -> object:
    raise ModelLoadError("models/card_corners.onnx", "file not found")


@pytest.fixture
def services(tmp_path: Path) -> Iterator[Services]:
    log = SqliteGameLog.in_folder(tmp_path)
    yield Services(log, tmp_path, LazyDetector(no_model))
    log.close()
