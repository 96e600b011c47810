"""Crops cut from synthetic scenes for training (``training.patches``)."""

import argparse
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
    _, sharp = patches._scene((5, False, str(cards_dir), False, 0.0, 0, patches.ALL_WIDTHS))
    _, moved = patches._scene((5, False, str(cards_dir), False, 0.02, 0, patches.ALL_WIDTHS))
    assert [c.code for c in moved.cards] == [c.code for c in sharp.cards]
    for a, b in zip(moved.cards, sharp.cards, strict=True):
        np.testing.assert_array_equal(a.quad, b.quad)
    detail = [
        float(cv2.Laplacian(cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())
        for s in (sharp, moved)
    ]
    assert detail[1] < 0.7 * detail[0]


def test_smeared_crops_keep_their_labels(cards_dir: Path) -> None:
    sharp = patches.scene_patches((5, False, str(cards_dir), False, 0.0, 0, patches.ALL_WIDTHS))
    moved = patches.scene_patches((5, False, str(cards_dir), False, 0.02, 0, patches.ALL_WIDTHS))
    assert sharp[0].shape == moved[0].shape
    np.testing.assert_array_equal(sharp[1], moved[1])
    np.testing.assert_array_equal(sharp[2], moved[2])
    assert not np.array_equal(sharp[0], moved[0])


def test_a_webcam_job_holds_the_same_scene_shrunk(cards_dir: Path) -> None:
    _, sharp = patches._scene((5, False, str(cards_dir), False, 0.0, 0, patches.ALL_WIDTHS))
    _, streamed = patches._scene((5, False, str(cards_dir), False, 0.0, 320, patches.ALL_WIDTHS))
    (h, w), (sh, sw) = streamed.image.shape[:2], sharp.image.shape[:2]
    assert 320 <= max(h, w) < max(sh, sw)
    assert [c.code for c in streamed.cards] == [c.code for c in sharp.cards]
    for a, b in zip(streamed.cards, sharp.cards, strict=True):
        np.testing.assert_allclose(a.quad, b.quad * [w / sw, h / sh])
        assert a.shown == b.shown


def test_webcam_crops_are_cut_at_the_shrunk_corners(cards_dir: Path) -> None:
    # Each index crop of the streamed scene shows its index where the sharp one does: the
    # dark ink of both lies in the same part of the crop.
    sharp, ranks, _ = patches.scene_patches(
        (5, False, str(cards_dir), False, 0.0, 0, patches.ALL_WIDTHS)
    )
    streamed, ranks2, _ = patches.scene_patches(
        (5, False, str(cards_dir), False, 0.0, 400, patches.ALL_WIDTHS)
    )
    np.testing.assert_array_equal(ranks, ranks2)
    index = ranks < patches.NO_INDEX
    ink = [np.asarray(c[index].min(axis=3) < 100, float).mean(axis=0) for c in (sharp, streamed)]
    assert float(np.corrcoef(ink[0].ravel(), ink[1].ravel())[0, 1]) > 0.6


def test_only_the_crops_of_cards_as_wide_as_asked_are_kept(cards_dir: Path) -> None:
    _, scene = patches._scene((5, False, str(cards_dir), False, 0.0, 0, patches.ALL_WIDTHS))
    widths = sorted(
        patches.corner_frame(card.quad, corner)[3] for card in scene.cards for corner in (0, 2)
    )
    middle = (widths[0] + widths[-1]) / 2
    every = patches.scene_patches((5, False, str(cards_dir), False, 0.0, 0, patches.ALL_WIDTHS))
    narrow = patches.scene_patches((5, False, str(cards_dir), False, 0.0, 0, (0.0, middle)))
    none = patches.scene_patches((5, False, str(cards_dir), False, 0.0, 0, (1e5, 2e5)))
    index = [int(np.sum(ranks < patches.NO_INDEX)) for _, ranks, _ in (every, narrow, none)]
    assert 0 < index[1] < index[0] and index[2] == 0 and len(none[0]) == 0
    # Each index crop kept is one the unfiltered job cut at a card that narrow.
    narrow_cards = sum(
        2
        * sum(
            card.visible[corner // 2]
            for corner in (0, 2)
            if patches.corner_frame(card.quad, corner)[3] <= middle
        )
        for card in scene.cards
    )
    assert index[1] == narrow_cards


@pytest.mark.parametrize("text", ["64", "64,20", "a,b", "-1,5", "1,2,3"])
def test_widths_that_are_not_a_range_are_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="--widths"):
        patches.widths_argument(text)


def test_widths_give_the_least_and_the_most() -> None:
    assert patches.widths_argument("18,66") == (18.0, 66.0)
