"""The shipped spot model, run for real on rendered tables it was not trained on."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import ModelLoadError
from companion.vision.detector import CardDetector
from companion.vision.sessions import DEFAULT_MODEL
from companion.vision.spots import SpotModel
from companion.vision.training.outline_data import index_corners
from companion.vision.training.scenes import DeckStore, Hard, make_scene
from tests.helpers import FIXTURES, draw_plain_deck


@pytest.fixture(scope="module")
def model() -> SpotModel:
    return SpotModel()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> DeckStore:
    return DeckStore(draw_plain_deck(tmp_path_factory.mktemp("cards")), held_out=False)


@pytest.mark.parametrize("seed", [3, 4, 5, 6, 7])
def test_spots_frame_the_index_corners_of_a_hard_table(
    model: SpotModel, store: DeckStore, seed: int
) -> None:
    # The project's plain deck on the held-out stone floor: neither was trained on.
    scene = make_scene(np.random.default_rng(seed), store, ("stone",), hard=Hard())
    frames = model.frames(scene.image)
    truth = index_corners(scene.cards, 1.0)
    scales = []
    for x, y, ux, uy, width in truth.tolist():
        near = [
            q
            for q in frames
            if np.hypot(q.p[0] - x, q.p[1] - y) < 0.1 * width and float(q.u @ (ux, uy)) > 0.95
        ]
        if near:
            scales.append(near[0].s / width)
            assert abs(float(np.linalg.norm(near[0].v)) - 1.0) < 1e-9
    cases = f"scene {seed} ({', '.join(scene.cases)})"
    assert len(scales) >= 0.75 * len(truth), cases
    # Widths are rougher (seen steeply, a card's far edge is shorter than its near one): the
    # re-framing's scales and the merge's typical width take the rest.
    assert np.mean(np.abs(np.log(scales)) < np.log(1.4)) >= 0.7, cases
    assert len(frames) <= len(truth) + 12  # a few false spots, not the hundreds of corners


def test_a_plain_floor_has_no_spot(model: SpotModel) -> None:
    noise = np.random.default_rng(0).integers(40, 90, (720, 1280, 3), np.uint8)
    assert model.frames(cv2.GaussianBlur(noise, (5, 5), 0), level=0.3) == []


def test_a_missing_or_wrong_model_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="file not found"):
        SpotModel(tmp_path / "none.onnx")
    with pytest.raises(ModelLoadError, match="not a spot model"):
        SpotModel(DEFAULT_MODEL)


def test_the_spots_alone_read_the_fixture_table() -> None:
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    quick = CardDetector(spots_only=True, complete=False, outline_path=None)
    full = CardDetector()
    assert sorted(map(str, quick.detect(image).cards)) == sorted(map(str, full.detect(image).cards))
