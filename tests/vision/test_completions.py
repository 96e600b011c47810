"""Index corners implied by a card's other corners (``completions.completions``)."""

import cv2
import numpy as np
import pytest

from companion.vision import CardDetector
from companion.vision.completions import CARD_LENGTHS, completions
from companion.vision.merging import CornerRead
from companion.vision.proposals import Proposal
from tests.helpers import FIXTURES, cards

X, Y = np.array([1.0, 0.0]), np.array([0.0, 1.0])
WIDTH = 80.0


def _top_right() -> Proposal:
    """The top-right corner of an upright card whose top-left corner is at (100, 100)."""
    return Proposal(np.array([100.0 + WIDTH, 100.0]), Y, -X, WIDTH)


def _same(a: Proposal, b: Proposal) -> bool:
    return bool(np.allclose(a.p, b.p) and np.allclose(a.u, b.u) and np.allclose(a.v, b.v))


def test_a_top_right_corner_implies_the_top_left_and_bottom_right_index_corners() -> None:
    found = completions([_top_right()], [], [_top_right()])
    top_left = Proposal(np.array([100.0, 100.0]), X, Y, WIDTH)
    assert len(found) == 1 + len(CARD_LENGTHS)
    assert _same(found[0], top_left)
    for length, corner in zip(CARD_LENGTHS, found[1:], strict=True):  # poker and bridge cards
        bottom_right = Proposal(np.array([100.0 + WIDTH, 100.0 + length * WIDTH]), -X, -Y, WIDTH)
        assert _same(corner, bottom_right)


def test_corners_of_a_card_already_read_imply_nothing() -> None:
    top_left = Proposal(np.array([100.0, 100.0]), X, Y, WIDTH)
    read = CornerRead(cards("7h")[0], 0.99, top_left)
    assert completions([_top_right()], [read], [top_left, _top_right()]) == []


def test_an_implied_corner_already_proposed_is_not_proposed_again() -> None:
    near_top_left = Proposal(np.array([102.0, 101.0]), X, Y, WIDTH)
    found = completions([_top_right()], [], [_top_right(), near_top_left])
    assert len(found) == len(CARD_LENGTHS) and all(c.p[1] > 200 for c in found)  # bottom-right


def test_a_card_whose_index_corners_give_no_proposal_is_read_from_its_other_corners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # In this fixture no outline corner is found within 40 px of the river's 6d's top-left
    # corner; its top-right corner, read as no index, implies the index corners that read it.
    # (The 6d touches its neighbour: the corners proposed along a row of touching cards and
    # the outlines cut along the seam between them find it too, so they are turned off here.)
    monkeypatch.setattr("companion.vision.proposals.TOUCHING_MAX", 1)
    monkeypatch.setattr("companion.vision.proposals.SEAMS", False)
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    (six,) = cards("6d")
    assert six in CardDetector().detect(image).cards
    assert six not in CardDetector(complete=False).detect(image).cards


def test_a_corner_framed_at_another_width_than_the_read_cards_is_cut_again_at_theirs() -> None:
    # Two river cards touching make one card-shaped outline 1.5 cards wide, which can set the
    # width of every frame; the cards read elsewhere on the table show the true one.
    read = CornerRead(cards("7h")[0], 0.99, Proposal(np.array([400.0, 400.0]), X, Y, WIDTH))
    wide = Proposal(np.array([100.0, 100.0]), X, Y, 1.5 * WIDTH)
    found = completions([wide], [read], [wide, read.proposal])
    assert _same(found[0], Proposal(wide.p, X, Y, WIDTH)) and found[0].s == WIDTH
    assert all(c.s == WIDTH for c in found)
    near = Proposal(wide.p, X, Y, 1.1 * WIDTH)  # within a fifth: cut as it was
    assert all(c.s == near.s for c in completions([near], [read], [near, read.proposal]))
    assert not any(_same(c, near) for c in completions([near], [read], [near, read.proposal]))
