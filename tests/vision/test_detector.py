"""The shipped ONNX model on scenes the project renders itself (tests/fixtures/images)."""

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import ModelLoadError
from companion.vision import CardDetector
from companion.vision.evaluate import Score, grouping_exact, score_cards

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "images"
LABELS = json.loads((FIXTURES / "labels.json").read_text())
SCENES = [e for e in LABELS if e["cards"]]


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def _read(detector: CardDetector, name: str):
    return detector.detect(cv2.imread(str(FIXTURES / name)))


def test_reads_the_cards_of_the_fixture_scenes(detector: CardDetector) -> None:
    total = Score(0, 0, 0)
    for entry in SCENES:
        total = total + score_cards(list(_read(detector, entry["image"]).detections.codes),
                                    entry["cards"])
    assert total.precision >= 0.95, total
    assert total.recall >= 0.9, total


@pytest.mark.parametrize("entry", SCENES, ids=[e["image"] for e in SCENES])
def test_no_card_is_reported_twice(detector: CardDetector, entry: dict) -> None:
    codes = _read(detector, entry["image"]).detections.codes
    assert max(Counter(codes).values()) == 1


def test_boxes_lie_inside_the_image_and_hold_the_card(detector: CardDetector) -> None:
    entry = SCENES[0]
    image = cv2.imread(str(FIXTURES / entry["image"]))
    det = detector.detect(image).detections
    assert len(det) > 0
    h, w = image.shape[:2]
    assert np.all(det.xyxy[:, 0] >= 0) and np.all(det.xyxy[:, 2] <= w)
    assert np.all(det.xyxy[:, 1] >= 0) and np.all(det.xyxy[:, 3] <= h)
    assert np.all((det.confidence > 0) & (det.confidence <= 1))


def test_table_scenes_are_grouped(detector: CardDetector) -> None:
    tables = [e for e in SCENES if e["groups"]]
    exact = sum(grouping_exact(_read(detector, e["image"]).groups, e["groups"]) for e in tables)
    assert tables and exact >= len(tables) - 1


def test_empty_table_gives_no_cards(detector: CardDetector) -> None:
    read = _read(detector, "empty_00.jpg")
    assert len(read.detections) == 0
    assert read.groups.river == () and read.groups.hands == ()


def test_upside_down_photo_reads_the_same_cards(detector: CardDetector) -> None:
    entry = SCENES[0]
    image = cv2.imread(str(FIXTURES / entry["image"]))
    upright = set(detector.detect(image).detections.codes)
    turned = set(detector.detect(cv2.rotate(image, cv2.ROTATE_180)).detections.codes)
    assert len(upright ^ turned) <= 1


@pytest.mark.parametrize("bad", [np.zeros((10, 10, 3), np.uint8), np.zeros((100, 100), np.uint8)])
def test_rejects_arrays_that_are_not_bgr_images(detector: CardDetector, bad: np.ndarray) -> None:
    with pytest.raises(ValueError, match="BGR image"):
        detector.detect(bad)


def test_missing_model_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="nothing.onnx"):
        CardDetector(tmp_path / "nothing.onnx")


def test_corrupt_model_is_a_model_load_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(ModelLoadError, match="broken.onnx"):
        CardDetector(broken)
