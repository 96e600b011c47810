"""The second look (``second_look.look``): where it looks, near the places a told table is
short of cards and beyond the cards read, and the contrast-stretched frame's corners."""

import json

import cv2
import numpy as np
import pytest

from companion.engine.cards import parse_card
from companion.vision import CardDetector
from companion.vision.base.paper import crop_whiteness
from companion.vision.corner_reads import CornerRead, cut
from companion.vision.proposals import Proposal
from companion.vision.second_look.look import (
    COMPLETE_PAPER,
    NEAR_SHORT,
    _away_from,
    _completion_paper_floor,
    _looked_for,
    contrasted_look,
)
from tests.helpers import FIXTURES, cards

LABELS = json.loads((FIXTURES / "labels.json").read_text())


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def _at(x: float, y: float, turn: float = 0.0, s: float = 100.0) -> Proposal:
    u = np.array([np.cos(turn), np.sin(turn)])
    return Proposal(np.array([x, y]), u, np.array([-u[1], u[0]]), s)


def test_corners_of_the_contrast_stretched_frame_are_read_as_second_looks(
    detector: CardDetector,
) -> None:
    entry = next(e for e in LABELS if e["image"] == "scene_0001.jpg")
    reads = contrasted_look(
        detector.reader, detector.first_look(cv2.imread(str(FIXTURES / entry["image"])))
    )
    assert reads and all("second_look" in r.doubts for r in reads)
    sure = {str(r.card) for r in reads if r.confidence >= 0.9}
    assert len(sure) >= len(entry["cards"]) // 2 and sure <= set(entry["cards"])


def test_the_contrasted_look_near_a_short_place_reads_there_and_beyond_the_cards(
    detector: CardDetector,
) -> None:
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    sure = detector.read_corners(image)
    width = float(np.median([r.proposal.s for r in sure]))
    place = sure[0].proposal.p
    look = detector.second_look(detector.first_look(image))
    everywhere = contrasted_look(detector.reader, look)
    near = contrasted_look(detector.reader, look, place[None])
    assert 0 < len(near) < len(everywhere)
    assert sure[0].card in {r.card for r in near}  # the place's own card, read there again
    # Each read lies near the place or beyond the cards (its frame re-framed by 0.04 at most).
    for read in near:
        close = float(np.linalg.norm(read.proposal.p - place)) < (NEAR_SHORT + 0.1) * width
        assert close or _away_from([read.proposal], sure)


def test_a_second_look_away_from_the_cards_leaves_out_frames_inside_their_outline() -> None:
    """Two cards side by side: a frame on either card or between them is left out, frames
    beyond the pair (where a stray card would lie) are kept."""
    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    reads = [
        CornerRead(parse_card("As"), 0.9, Proposal(np.array([x, 100.0]), right, down, 50.0))
        for x in (100.0, 160.0)
    ]
    inside = [Proposal(np.array(p), right, down, 50.0) for p in ((120, 130), (155, 150))]
    beyond = [Proposal(np.array(p), right, down, 50.0) for p in ((400, 130), (130, 300))]
    assert _away_from(inside + beyond, reads) == beyond
    assert _away_from(inside, []) == inside


def test_a_second_look_near_short_places_keeps_frames_near_them_or_beyond_the_cards() -> None:
    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    reads = [
        CornerRead(parse_card("As"), 0.9, Proposal(np.array([x, 100.0]), right, down, 50.0))
        for x in (100.0, 400.0)
    ]
    near_first = Proposal(np.array([150.0, 120.0]), right, down, 50.0)  # inside, near (100, 130)
    far_inside = Proposal(np.array([330.0, 120.0]), right, down, 50.0)
    beyond = Proposal(np.array([250.0, 400.0]), right, down, 50.0)
    frames = [near_first, far_inside, beyond]
    assert _looked_for(frames, reads, np.array([[100.0, 130.0]])) == [near_first, beyond]
    assert _looked_for(frames, reads, np.zeros((0, 2))) == [beyond]


def test_the_second_look_skips_crops_less_white_than_half_the_cards_read() -> None:
    image = np.full((200, 300, 3), (60, 140, 190), np.uint8)  # light wood
    image[20:160, 20:120] = 235  # a card
    card = _at(20, 20)
    read = CornerRead(cards("As")[0], 0.99, card)
    gain, floor = _completion_paper_floor(image, [read])
    assert floor == pytest.approx(COMPLETE_PAPER * 235, abs=3)
    wood = crop_whiteness(cut(image, [_at(180, 20)]), gain)[0]
    assert wood < floor
    assert _completion_paper_floor(image, []) is None
