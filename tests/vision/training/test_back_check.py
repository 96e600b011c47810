"""The back check's trainer (``training.back_check``): corner frames and their index crops,
the samples cut from labelled scenes, and a model trained and exported that the check loads."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from companion.vision.backs import (  # noqa: E402
    CROP_HEIGHT,
    CROP_WIDTH,
    BackCheck,
    back_rows,
    card_points,
)
from companion.vision.base.geometry import CROP_X, CROP_Y  # noqa: E402
from companion.vision.training import back_check  # noqa: E402
from companion.vision.training.back_eval import back_pixels  # noqa: E402
from tests.helpers import turned_card  # noqa: E402

BACKS = Path(__file__).resolve().parents[2] / "fixtures" / "images" / "backs"


def test_an_index_crop_spans_the_readers_extent_from_its_corner() -> None:
    p, u, v = np.array([10.0, 20.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0])
    quad = back_check.index_quad(p, u, v, 100.0)
    np.testing.assert_allclose(quad[0], p + 100 * np.array([CROP_X[0], CROP_Y[0]]))
    np.testing.assert_allclose(quad[2], p + 100 * np.array([CROP_X[1], CROP_Y[1]]))


def test_each_corner_of_a_card_is_framed_along_its_sides() -> None:
    card = turned_card((200, 200), 80, 25)
    frames = back_check.card_corners(card)
    assert len(frames) == 4
    for (p, u, v, width), corner in zip(frames, card, strict=True):
        np.testing.assert_allclose(p, corner)
        assert width == pytest.approx(80)
        assert abs(float(u @ v)) < 1e-9  # the short and the long side, at right angles
        # The index crop of every corner lies on the card.
        inside = cv2.pointPolygonTest(
            card.astype(np.float32), tuple(map(float, p + 20 * u + 20 * v)), False
        )
        assert inside >= 0


def test_scene_samples_are_backs_where_their_index_lies_on_backs() -> None:
    entries = json.loads((BACKS / "labels.json").read_text())
    rng = np.random.default_rng(3)
    kinds = set()
    for entry in entries:
        image = cv2.imread(str(BACKS / entry["image"]), cv2.IMREAD_COLOR)
        crops, labels = back_check.scene_samples(entry, image, rng)
        assert len(crops) == len(labels) and crops
        assert all(c.shape == (CROP_HEIGHT, CROP_WIDTH, 3) for c in crops)
        kinds |= set(labels)
        ids, _ = back_pixels(entry, image.shape[:2])
        assert ids.any()
    assert kinds == {0, 1}


def test_a_trained_check_loads_and_judges(tmp_path: Path) -> None:
    crops, labels = back_check.load_samples([BACKS / "labels.json"], seed=5, jitters=1)
    net = back_check.train(crops, labels, epochs=1, seed=5, batch=32)
    out = tmp_path / "check.onnx"
    back_check.export(net, out, {"test": True})
    check = BackCheck(out)
    image = cv2.imread(str(BACKS / "face_down_01.jpg"), cv2.IMREAD_COLOR)
    quads = np.stack([turned_card((300, 300), 40, 0), turned_card((500, 300), 40, 10)])
    chances = check.chances(image, quads)
    assert chances.shape == (2,) and ((chances >= 0) & (chances <= 1)).all()
    # The same as the network's own chances for those crops (the export kept the network).
    from companion.vision.backs import card_crop

    own = back_check.chances(net, np.stack([card_crop(image, q) for q in quads]))
    np.testing.assert_allclose(chances, own, atol=1e-4)
    assert back_rows(image, np.zeros(2, bool), quads, check).tolist() == [False, False]
    assert len(card_points(quads[0])) == 35
