"""Crops cut from synthetic scenes for training (``training.patches``)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.training import patches
from tests.helpers import draw_plain_deck


@pytest.fixture(scope="module")
def cards_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return draw_plain_deck(tmp_path_factory.mktemp("cards"))


def test_a_smeared_job_holds_the_same_scene_blurred(cards_dir: Path) -> None:
    _, sharp = patches._scene((5, False, str(cards_dir), False, 0.0))
    _, moved = patches._scene((5, False, str(cards_dir), False, 0.02))
    assert [c.code for c in moved.cards] == [c.code for c in sharp.cards]
    for a, b in zip(moved.cards, sharp.cards, strict=True):
        np.testing.assert_array_equal(a.quad, b.quad)
    detail = [
        float(cv2.Laplacian(cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())
        for s in (sharp, moved)
    ]
    assert detail[1] < 0.7 * detail[0]


def test_smeared_crops_keep_their_labels(cards_dir: Path) -> None:
    sharp = patches.scene_patches((5, False, str(cards_dir), False, 0.0))
    moved = patches.scene_patches((5, False, str(cards_dir), False, 0.02))
    assert sharp[0].shape == moved[0].shape
    np.testing.assert_array_equal(sharp[1], moved[1])
    np.testing.assert_array_equal(sharp[2], moved[2])
    assert not np.array_equal(sharp[0], moved[0])
