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
    _, sharp = patches._scene((5, False, str(cards_dir), False, 0.0, 0))
    _, moved = patches._scene((5, False, str(cards_dir), False, 0.02, 0))
    assert [c.code for c in moved.cards] == [c.code for c in sharp.cards]
    for a, b in zip(moved.cards, sharp.cards, strict=True):
        np.testing.assert_array_equal(a.quad, b.quad)
    detail = [
        float(cv2.Laplacian(cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())
        for s in (sharp, moved)
    ]
    assert detail[1] < 0.7 * detail[0]


def test_smeared_crops_keep_their_labels(cards_dir: Path) -> None:
    sharp = patches.scene_patches((5, False, str(cards_dir), False, 0.0, 0))
    moved = patches.scene_patches((5, False, str(cards_dir), False, 0.02, 0))
    assert sharp[0].shape == moved[0].shape
    np.testing.assert_array_equal(sharp[1], moved[1])
    np.testing.assert_array_equal(sharp[2], moved[2])
    assert not np.array_equal(sharp[0], moved[0])


def test_a_webcam_job_holds_the_same_scene_shrunk(cards_dir: Path) -> None:
    _, sharp = patches._scene((5, False, str(cards_dir), False, 0.0, 0))
    _, streamed = patches._scene((5, False, str(cards_dir), False, 0.0, 320))
    (h, w), (sh, sw) = streamed.image.shape[:2], sharp.image.shape[:2]
    assert 320 <= max(h, w) < max(sh, sw)
    assert [c.code for c in streamed.cards] == [c.code for c in sharp.cards]
    for a, b in zip(streamed.cards, sharp.cards, strict=True):
        np.testing.assert_allclose(a.quad, b.quad * [w / sw, h / sh])
        assert a.shown == b.shown


def test_webcam_crops_are_cut_at_the_shrunk_corners(cards_dir: Path) -> None:
    # Each index crop of the streamed scene shows its index where the sharp one does: the
    # dark ink of both lies in the same part of the crop.
    sharp, ranks, _ = patches.scene_patches((5, False, str(cards_dir), False, 0.0, 0))
    streamed, ranks2, _ = patches.scene_patches((5, False, str(cards_dir), False, 0.0, 400))
    np.testing.assert_array_equal(ranks, ranks2)
    index = ranks < patches.NO_INDEX
    ink = [np.asarray(c[index].min(axis=3) < 100, float).mean(axis=0) for c in (sharp, streamed)]
    assert float(np.corrcoef(ink[0].ravel(), ink[1].ravel())[0, 1]) > 0.6
