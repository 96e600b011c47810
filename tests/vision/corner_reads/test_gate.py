"""The shipped gate (``models/card_gate.onnx``), run for real on the fixture scenes: it must pass
every crop the corner model finds index-like there, stop most of the others, and leave the
detector's reads as they are without it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import ModelLoadError
from companion.vision import CardDetector
from companion.vision.base.sessions import DEFAULT_MODEL
from companion.vision.corner_reads.gate import DEFAULT_GATE, Gate
from companion.vision.corner_reads.reframe import REFRAME_FLOOR
from tests.helpers import FIXTURES

# The table photos: the app's own screenshots (``app_*``) show enlarged crops, not a table.
SCENES = sorted(p.name for p in FIXTURES.glob("*.jpg") if not p.name.startswith("app_"))


@pytest.fixture(scope="module")
def ungated() -> CardDetector:
    return CardDetector(gate_path=None)


@pytest.fixture(scope="module")
def gated() -> CardDetector:
    return CardDetector(gate_path=DEFAULT_GATE)


@pytest.fixture(scope="module")
def crops(ungated: CardDetector) -> tuple[np.ndarray, np.ndarray]:
    """Every crop the corner model reads on the fixture photos, and its index probability."""
    caught: list[np.ndarray] = []
    index_p: list[np.ndarray] = []
    read = ungated.reader.classify

    def keep(batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rank, suit = read(batch)
        caught.append(batch.copy())
        index_p.append(1.0 - rank[:, -1])
        return rank, suit

    ungated.reader.classify = keep  # type: ignore[method-assign]
    try:
        for name in SCENES:
            ungated.detect(cv2.imread(str(FIXTURES / name)))
    finally:
        del ungated.reader.classify
    return np.concatenate(caught), np.concatenate(index_p)


def test_the_gate_passes_every_crop_the_corner_model_finds_index_like(
    crops: tuple[np.ndarray, np.ndarray],
) -> None:
    batch, index_p = crops
    passes = Gate().passes(batch)
    matter = index_p >= REFRAME_FLOOR
    assert matter.sum() > 50
    assert passes[matter].all(), f"stopped {int((~passes[matter]).sum())} index-like crops"


def test_the_gate_stops_most_crops_the_corner_model_rejects(
    crops: tuple[np.ndarray, np.ndarray],
) -> None:
    batch, index_p = crops
    passes = Gate().passes(batch)
    plain = index_p < 0.1
    assert plain.sum() > 100
    assert passes[plain].mean() < 0.5


@pytest.mark.parametrize("name", [n for n in SCENES if n.startswith(("scene", "crib"))])
def test_the_gated_detector_reads_as_the_ungated_one(
    gated: CardDetector, ungated: CardDetector, name: str
) -> None:
    image = cv2.imread(str(FIXTURES / name))
    mine, theirs = gated.detect(image), ungated.detect(image)
    assert [str(c) for c in mine.cards] == [str(c) for c in theirs.cards]
    np.testing.assert_allclose(mine.confidence, theirs.confidence, atol=1e-6)
    assert mine.check.tolist() == theirs.check.tolist()


def test_stopped_crops_read_as_surely_no_index(gated: CardDetector) -> None:
    texture = np.random.default_rng(0).integers(60, 90, (40, 56, 40, 3)).astype(np.uint8)
    rank, suit = gated.reader.classify(texture)
    stopped = ~Gate().passes(texture)
    assert stopped.any()
    assert (rank[stopped, -1] == 1.0).all()
    np.testing.assert_allclose(suit[stopped].sum(axis=1), 1.0)


def test_a_missing_or_wrong_gate_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="file not found"):
        Gate(tmp_path / "none.onnx")
    with pytest.raises(ModelLoadError, match="kind"):
        Gate(DEFAULT_MODEL)  # the corner model: no gate metadata
