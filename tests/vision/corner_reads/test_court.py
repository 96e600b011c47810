"""A court card's suit read beyond its index (``court``, ``CardDetector(courts=True)``, off by
default): where its other index corner lies on the fixture photos, how the index, the pips
and that corner decide the suit, and that reading them leaves the fixture reads as they are."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.vision import CardDetector
from companion.vision.base.detections import COURT
from companion.vision.corner_reads import CornerRead
from companion.vision.corner_reads.court import court_suit, opposite_frame
from companion.vision.merging import merge_reads
from companion.vision.proposals import Proposal
from tests.helpers import FIXTURES

SCENES = [e["image"] for e in json.loads((FIXTURES / "labels.json").read_text()) if e["cards"]]
SCENE = "scene_0001.jpg"  # a queen of clubs and a jack of hearts among its cards
SUITS = "shdc"  # the shipped models' suit classes


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


@pytest.fixture(scope="module")
def courts_detector() -> CardDetector:
    return CardDetector(courts=True)


def _sure_courts(detector: CardDetector, name: str) -> tuple[np.ndarray, list[CornerRead]]:
    look = detector.first_look(cv2.imread(str(FIXTURES / name)))
    return look.image, [r for r in look.sure if r.confidence >= 0.95]


def test_the_opposite_frame_lands_on_the_cards_other_index_corner(detector: CardDetector) -> None:
    _, reads = _sure_courts(detector, SCENE)
    pairs = 0
    for read in [r for r in reads if str(r.card)[0] in "JQK"]:
        far = opposite_frame(read.proposal)
        for other in reads:
            if other.card == read.card and float(other.proposal.u @ far.u) > 0.9:
                gap = float(np.linalg.norm(other.proposal.p - far.p)) / read.proposal.s
                assert gap < 0.3, (str(read.card), gap)
                pairs += 1
    assert pairs >= 2


def test_a_near_tie_is_broken_by_pips_that_all_read_one_suit() -> None:
    index = np.array([0.48, 0.0, 0.0, 0.46])  # spades just over clubs
    clubs = np.tile([0.01, 0.0, 0.0, 0.99], (3, 1))
    kept = court_suit(index, clubs, None)
    assert (SUITS[kept.suit], kept.disputed) == ("c", True)


def test_pips_that_differ_among_their_frames_or_a_clear_index_change_nothing() -> None:
    index = np.array([0.48, 0.0, 0.0, 0.46])
    mixed = np.array([[0.01, 0.0, 0.0, 0.99], [0.99, 0.0, 0.0, 0.01], [0.0, 0.0, 0.0, 1.0]])
    assert SUITS[court_suit(index, mixed, None).suit] == "s"
    clear = np.array([0.8, 0.0, 0.0, 0.2])
    kept = court_suit(clear, np.tile([0.0, 0.0, 0.0, 1.0], (3, 1)), None)
    assert (SUITS[kept.suit], kept.disputed) == ("s", True)  # kept, but the pip disputes it


def test_the_other_index_corner_outweighs_an_unsure_index() -> None:
    index = np.array([0.6, 0.0, 0.0, 0.4])
    pips = np.tile([0.25, 0.25, 0.25, 0.25], (3, 1))
    kept = court_suit(index, pips, np.array([0.02, 0.0, 0.0, 0.98]))
    assert (SUITS[kept.suit], kept.disputed) == ("c", True)
    agreed = court_suit(index, pips, np.array([0.98, 0.0, 0.0, 0.02]))
    assert (SUITS[agreed.suit], agreed.disputed) == ("s", False)


def test_a_court_doubt_needs_every_read_of_the_card(detector: CardDetector) -> None:
    _, reads = _sure_courts(detector, SCENE)
    queen = next(r for r in reads if str(r.card) == "Qc")
    far = opposite_frame(queen.proposal)
    other = CornerRead(queen.card, 0.99, Proposal(far.p, far.u, far.v, far.s))
    disputed = CornerRead(queen.card, 0.9, queen.proposal, (COURT,))
    both = merge_reads([disputed, other], (640, 960))
    assert COURT not in both.doubts[0]
    alone = merge_reads([disputed], (640, 960))
    assert COURT in alone.doubts[0]


@pytest.mark.parametrize("name", SCENES)
def test_reading_courts_beyond_the_index_keeps_the_fixture_reads(
    detector: CardDetector, courts_detector: CardDetector, name: str
) -> None:
    image = cv2.imread(str(FIXTURES / name))
    plain = detector.detect(image)
    courts = courts_detector.detect(image)
    assert sorted(map(str, courts.cards)) == sorted(map(str, plain.cards))
