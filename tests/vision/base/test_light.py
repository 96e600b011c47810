"""Coloured light (``light.balanced``): a frame under a strong cast is balanced before reading."""

import json

import cv2
import numpy as np
import pytest

from companion.vision import CardDetector
from companion.vision.base import light
from companion.vision.base.light import balanced
from tests.helpers import FIXTURES

SCENE = "scene_0001.jpg"
RED_BULB = np.array([0.3, 0.35, 1.0])  # B, G, R: the paper's blue a third of its red
DIM_ROOM = np.array([0.15, 0.15, 0.15])  # the paper at about 35 of 255


def _lit(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    return np.clip(image * gains, 0, 255).astype(np.uint8)


def test_a_frame_in_ordinary_light_is_read_as_it_is() -> None:
    image = cv2.imread(str(FIXTURES / SCENE))
    warm = _lit(image, np.array([0.85, 0.95, 1.0]))
    assert balanced(image) is image
    assert balanced(warm) is warm


def test_a_frame_in_red_light_gets_grey_paper_back() -> None:
    image = _lit(cv2.imread(str(FIXTURES / SCENE)), RED_BULB)

    def spread(frame: np.ndarray) -> float:
        bright = np.percentile(frame.reshape(-1, 3), 99.5, axis=0)
        return float(bright.max() / bright.min())

    assert spread(image) > 2.5
    assert spread(balanced(image)) < 1.1


def test_a_dim_frame_is_lifted_as_far_as_a_channel_may_be() -> None:
    image = _lit(cv2.imread(str(FIXTURES / SCENE)), DIM_ROOM)
    lifted = balanced(image)
    before = np.percentile(image.reshape(-1, 3), 99.5, axis=0)
    after = np.percentile(lifted.reshape(-1, 3), 99.5, axis=0)
    assert before.max() < 50  # a lift to DIM_TARGET would take more than MOST_GAIN
    np.testing.assert_allclose(after / before, light.MOST_GAIN, rtol=0.1)


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def test_the_cards_under_a_red_bulb_are_those_in_daylight(
    detector: CardDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    labels = json.loads((FIXTURES / "labels.json").read_text())
    truth = next(entry for entry in labels if entry["image"] == SCENE)
    image = _lit(cv2.imread(str(FIXTURES / SCENE)), RED_BULB)
    read = sorted(str(card) for card in detector.detect(image).cards)
    assert read == sorted(truth["cards"])
    # Read as it is, the frame shows the readers ink and paper in colours they never saw.
    monkeypatch.setattr(light, "CAST_LIMIT", float("inf"))
    assert len(detector.detect(image)) == 0


def test_the_cards_in_a_dim_room_are_those_in_daylight(
    detector: CardDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    labels = json.loads((FIXTURES / "labels.json").read_text())
    truth = next(entry for entry in labels if entry["image"] == SCENE)
    noise = np.random.default_rng(0).normal(0, 1.5, (640, 960, 3))
    image = np.clip(cv2.imread(str(FIXTURES / SCENE)) * DIM_ROOM + noise, 0, 255)
    image = image.astype(np.uint8)
    read = sorted(str(card) for card in detector.detect(image).cards)
    assert read == sorted(truth["cards"])
    monkeypatch.setattr(light, "DIM", 0.0)
    assert len(detector.detect(image)) < len(truth["cards"]) // 2
