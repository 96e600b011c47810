"""Card paper under the frame's light (``paper``): its whiteness, and its saturation."""

import cv2
import numpy as np
import pytest

from companion.vision.base.paper import (
    crop_whiteness,
    paper_saturation,
    paper_saturations,
    white_gain,
)
from companion.vision.corner_reads.reader import PAPER_MAX_SATURATION


def test_paper_under_a_warm_light_is_white_and_light_wood_is_not() -> None:
    frame = np.zeros((64, 64, 3), np.uint8)
    frame[:32] = (150, 200, 240)  # white paper under a warm light (BGR)
    frame[32:] = (75, 130, 170)  # light wood under the same light
    gain = white_gain(frame)
    assert gain == pytest.approx([240 / 150, 240 / 200, 1.0], rel=0.02)
    paper, wood = crop_whiteness(np.stack([frame[:32, :32], frame[32:, :32]]), gain)
    assert paper == pytest.approx(240, abs=3)
    assert wood < 0.6 * paper
    assert crop_whiteness(np.zeros((0, 8, 8, 3), np.uint8), gain).tolist() == []


def test_the_brighter_part_of_a_crop_is_its_paper() -> None:
    crop = np.full((56, 40, 3), 235, np.uint8)
    crop[10:40, 5:20] = (20, 20, 200)  # a red index covering a fifth of the crop
    assert crop_whiteness(crop[None], np.ones(3))[0] == pytest.approx(235)


def test_paper_is_grey_and_felt_is_not() -> None:
    rng = np.random.default_rng(0)
    paper = np.full((56, 40, 3), (225, 230, 235), np.uint8)
    cv2.putText(paper, "7", (4, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 200), 2)
    warm = (paper * np.array([0.8, 0.92, 1.0])).astype(np.uint8)  # tungsten light
    felt = np.clip(rng.normal((40, 40, 170), 18, (56, 40, 3)), 0, 255).astype(np.uint8)
    assert paper_saturation(paper) < 0.1
    assert paper_saturation(warm) < PAPER_MAX_SATURATION
    assert paper_saturation(felt) > PAPER_MAX_SATURATION


def test_paper_saturation_of_a_batch_is_each_crops_own() -> None:
    rng = np.random.default_rng(1)
    crops = rng.integers(0, 256, (5, 56, 40, 3), dtype=np.uint8)
    crops[1] = (200, 200, 200)  # flat grey: every pixel is among the brightest
    crops[2, :, :20] = (40, 40, 170)  # half red felt, half paper
    crops[2, :, 20:] = (225, 230, 235)
    batch = paper_saturations(crops)
    for crop, value in zip(crops, batch, strict=True):
        hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).reshape(-1, 3)
        bright = hsv[:, 2] >= np.percentile(hsv[:, 2], 60)
        assert value == pytest.approx(np.median(hsv[bright, 1]) / 255.0)
    assert batch[1] == 0.0 and batch[2] < 0.1
    assert paper_saturations(crops[:0]).shape == (0,)
