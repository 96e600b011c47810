"""``CardDetector`` with the shipped ONNX models on scenes the project renders itself
(tests/fixtures/images): the whole read of the stages composed, its checks, its decks and the
card faces left unread. The stages' own tests are in their folders."""

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.engine.cards import Card, parse_card
from companion.errors import ModelLoadError
from companion.vision import CardDetector, Detections
from companion.vision.layouts.expect import Expect
from companion.vision.layouts.read import read_layout
from companion.vision.training.evaluate import Score, expect_of, score_cards
from tests.helpers import FIXTURES, without_indices

LABELS = json.loads((FIXTURES / "labels.json").read_text())
SCENES = [e for e in LABELS if e["cards"]]


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def _read(detector: CardDetector, name: str) -> Detections:
    return detector.detect(cv2.imread(str(FIXTURES / name)))


def _codes(detections: Detections) -> list[str]:
    return [str(card) for card in detections.cards]


def test_reads_the_cards_of_the_fixture_scenes(detector: CardDetector) -> None:
    # Fixture cards are small (50-80 px wide in 960x640 frames), the hard end of the range:
    # the shipped model reads 24 of 27 here (precision 0.92, recall 0.89).
    total = Score(0, 0, 0)
    for entry in SCENES:
        total = total + score_cards(_codes(_read(detector, entry["image"])), entry["cards"])
    assert total.precision >= 0.88, total
    assert total.recall >= 0.85, total


@pytest.mark.parametrize("entry", SCENES, ids=[e["image"] for e in SCENES])
def test_no_card_is_reported_twice(detector: CardDetector, entry: dict) -> None:
    cards = _read(detector, entry["image"]).cards
    assert max(Counter(cards).values()) == 1


def test_boxes_lie_inside_the_image_and_hold_the_card(detector: CardDetector) -> None:
    entry = SCENES[0]
    image = cv2.imread(str(FIXTURES / entry["image"]))
    det = detector.detect(image)
    assert len(det) > 0 and all(isinstance(card, Card) for card in det)
    h, w = image.shape[:2]
    assert np.all(det.xyxy[:, 0] >= 0) and np.all(det.xyxy[:, 2] <= w)
    assert np.all(det.xyxy[:, 1] >= 0) and np.all(det.xyxy[:, 3] <= h)
    assert np.all((det.confidence > 0) & (det.confidence <= 1))


def test_empty_table_gives_no_cards(detector: CardDetector) -> None:
    read = _read(detector, "empty_00.jpg")
    assert len(read) == 0 and read.cards == ()


def test_upside_down_photo_reads_the_same_cards(detector: CardDetector) -> None:
    entry = SCENES[0]
    image = cv2.imread(str(FIXTURES / entry["image"]))
    upright = set(detector.detect(image).cards)
    turned = set(detector.detect(cv2.rotate(image, cv2.ROTATE_180)).cards)
    assert len(upright ^ turned) <= 1


@pytest.mark.parametrize("bad", [np.zeros((10, 10, 3), np.uint8), np.zeros((100, 100), np.uint8)])
def test_rejects_arrays_that_are_not_bgr_images(detector: CardDetector, bad: np.ndarray) -> None:
    with pytest.raises(ValueError, match="BGR image"):
        detector.detect(bad)


def test_missing_model_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="nothing.onnx"):
        CardDetector(tmp_path / "nothing.onnx")


def test_missing_reader_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="no_reader.onnx"):
        CardDetector(reader_path=tmp_path / "no_reader.onnx")


def test_missing_face_reader_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="no_face.onnx"):
        CardDetector(face_path=tmp_path / "no_face.onnx")


def test_missing_outline_model_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="no_outlines.onnx"):
        CardDetector(outline_path=tmp_path / "no_outlines.onnx")


def test_two_decks_allow_a_card_twice(detector: CardDetector) -> None:
    """A scene pasted beside itself holds every card twice: one deck reports each card once
    (a second read elsewhere makes it one to check), two decks report both copies."""
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    double = np.concatenate([image, image], axis=1)
    one, two = detector.detect(double), detector.detect(double, decks=2)
    assert len(set(one.cards)) == len(one.cards)
    twice = [c for c, n in Counter(two.cards).items() if n == 2]
    assert len(twice) >= len(one) - 2
    assert all(
        one.check[one.cards.index(c)] and "twice" in one.doubts[one.cards.index(c)] for c in twice
    )


@pytest.mark.parametrize("expect", [None, expect_of(SCENES[0]["groups"])], ids=["loose", "told"])
def test_a_card_face_whose_index_is_not_read_is_reported_unread_where_it_lies(
    detector: CardDetector, expect: Expect | None
) -> None:
    image = cv2.imread(str(FIXTURES / SCENES[0]["image"]))
    read = detector.detect(image)
    assert read.unread.shape == (0, 4, 2)  # every face read: nothing more to say
    queen = read.quads[_codes(read).index("Qc")]
    again = read_layout(detector, without_indices(image, queen), expect).detections
    assert parse_card("Qc") not in again.cards
    assert len(again.unread) == 1
    width = float(np.linalg.norm(queen[1] - queen[0]))
    gap = np.linalg.norm(again.unread[0].mean(axis=0) - queen.mean(axis=0))
    assert gap < 0.2 * width


def test_with_no_card_read_the_lone_cards_outlines_give_the_size_of_an_unread_face(
    detector: CardDetector,
) -> None:
    # Every index of a fixture scene painted over: no card is read, the faces still show.
    image = cv2.imread(str(FIXTURES / "scene_0002.jpg"))
    for quad in detector.detect(image).quads:
        image = without_indices(image, quad)
    blank = detector.detect(image)
    assert len(blank) == 0 and len(blank.unread) >= 1
    empty = detector.detect(cv2.imread(str(FIXTURES / "empty_00.jpg")))
    assert empty.unread.shape == (0, 4, 2)
