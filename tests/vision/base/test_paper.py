"""Card paper's whiteness under the frame's light (``paper``), and where the detector uses it."""

import numpy as np
import pytest

from companion.vision.base.paper import crop_whiteness, white_gain
from companion.vision.detector import (
    COMPLETE_PAPER,
    _completion_paper_floor,
    _cut,
    _read_surely_elsewhere,
)
from companion.vision.merging.merge import CornerRead
from companion.vision.proposals.levels import Proposal
from tests.helpers import cards


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


def _at(x: float, y: float, turn: float = 0.0, s: float = 100.0) -> Proposal:
    u = np.array([np.cos(turn), np.sin(turn)])
    return Proposal(np.array([x, y]), u, np.array([-u[1], u[0]]), s)


def test_a_doubtful_read_is_framed_again_only_where_no_sure_read_shares_its_corner() -> None:
    frames = [_at(100, 100), _at(105, 100), _at(100, 100, np.pi / 2), _at(300, 100)]
    confidence = np.array([0.9, 0.3, 0.3, 0.3])
    # The second shares the first's corner; the third is turned a quarter; the fourth is far.
    assert _read_surely_elsewhere(frames, confidence).tolist() == [False, True, False, False]
    assert _read_surely_elsewhere(frames, np.full(4, 0.3)).tolist() == [False] * 4
    assert _read_surely_elsewhere([], np.zeros(0)).tolist() == []


def test_the_second_look_skips_crops_less_white_than_half_the_cards_read() -> None:
    image = np.full((200, 300, 3), (60, 140, 190), np.uint8)  # light wood
    image[20:160, 20:120] = 235  # a card
    card = _at(20, 20)
    read = CornerRead(cards("As")[0], 0.99, card)
    gain, floor = _completion_paper_floor(image, [read])
    assert floor == pytest.approx(COMPLETE_PAPER * 235, abs=3)
    wood = crop_whiteness(_cut(image, [_at(180, 20)]), gain)[0]
    assert wood < floor
    assert _completion_paper_floor(image, []) is None
