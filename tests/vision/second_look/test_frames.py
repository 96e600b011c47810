"""Second-look frames (``second_look.frames``): the index corners implied by a card's other
corners, those beside the cards read and between a cascade's ends."""

import cv2
import numpy as np
import pytest

import companion.vision.proposals.finder
from companion.engine.cards import Card
from companion.vision import CardDetector
from companion.vision.corner_reads import CornerRead
from companion.vision.proposals import Proposal
from companion.vision.second_look.frames import (
    CARD_LENGTHS,
    beside,
    between,
    completions,
)
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
    # the outlines cut along the seam between them find it too, and so do the outline
    # model's mask since its weights are 7-bit and the spot model: all four are turned off.)
    monkeypatch.setattr("companion.vision.proposals.levels.TOUCHING_MAX", 1)
    monkeypatch.setattr("companion.vision.proposals.levels.SEAMS", False)
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    (six,) = cards("6d")
    assert six in CardDetector(outline_path=None, spot_path=None).detect(image).cards
    only_first = CardDetector(complete=False, outline_path=None, spot_path=None)
    assert six not in only_first.detect(image).cards


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


def _read_at(x: float, width: float = WIDTH) -> CornerRead:
    """A read of an upright card whose top-left corner is at (x, 100)."""
    return CornerRead(cards("7h")[0], 0.99, Proposal(np.array([x, 100.0]), X, Y, width))


def test_a_read_card_implies_the_index_corners_of_cards_touching_it_in_a_row() -> None:
    found = beside([_read_at(300.0)], [])
    assert len(found) == 2
    assert _same(found[0], Proposal(np.array([300.0 + WIDTH, 100.0]), X, Y, WIDTH))
    assert _same(found[1], Proposal(np.array([300.0 - WIDTH, 100.0]), X, Y, WIDTH))
    assert all(c.s == WIDTH for c in found)


def test_a_card_read_at_another_width_than_the_others_is_also_stepped_at_theirs() -> None:
    # A read can be sure at a frame 1.5 cards wide (two touching cards taken for one).
    wide = _read_at(300.0, 1.5 * WIDTH)
    found = beside([wide, _read_at(600.0), _read_at(900.0)], [])
    from_wide = [c for c in found if abs(c.p[0] - 300.0) < 2 * WIDTH]
    steps = sorted(round(float(c.p[0] - 300.0)) for c in from_wide)
    assert steps == [-120, -80, 80, 120]


def test_a_corner_beside_a_read_card_already_framed_is_not_framed_again() -> None:
    next_card = Proposal(np.array([300.0 + WIDTH + 2.0, 101.0]), X, Y, WIDTH)
    found = beside([_read_at(300.0)], [next_card])
    assert len(found) == 1 and found[0].p[0] < 300.0
    assert beside([], [next_card]) == []


def test_no_corner_is_framed_where_a_card_is_read_already() -> None:
    # Two river cards read side by side: only their outer neighbours are framed.
    found = beside([_read_at(300.0), _read_at(300.0 + WIDTH)], [])
    assert sorted(round(float(c.p[0])) for c in found) == [220, 460]


def test_a_card_read_where_one_was_read_before_has_its_neighbours_framed_already() -> None:
    # The second round of the second look frames only beside the cards it found anew.
    again, new = _read_at(301.0), _read_at(600.0)
    found = beside([again, new], [], read_before=[_read_at(300.0)])
    assert sorted(round(float(c.p[0])) for c in found) == [520, 680]


def _six_unproposed(monkeypatch: pytest.MonkeyPatch) -> tuple[np.ndarray, Card]:
    """The fixture scene, with every proposal on or near the river's 6d taken away (as when
    touching cards hide its corners in one outline), and the rejected corners' completions."""
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    (six,) = cards("6d")
    found = CardDetector().detect(image)
    quad = found.quads[list(found.cards).index(six)]
    outline = cv2.convexHull(quad.astype(np.float32))
    margin = 0.3 * float(np.linalg.norm(quad[1] - quad[0]))
    propose = companion.vision.proposals.finder.propose_corners

    def away_from_the_six(
        image: np.ndarray, **options: object
    ) -> tuple[list[Proposal], float | None]:
        proposals, width = propose(image, **options)
        far = [
            q
            for q in proposals
            if cv2.pointPolygonTest(outline, (float(q.p[0]), float(q.p[1])), True) < -margin
        ]
        return far, width

    monkeypatch.setattr("companion.vision.proposals.finder.propose_corners", away_from_the_six)
    monkeypatch.setattr("companion.vision.second_look.look.completions", lambda *args: [])
    return image, six


@pytest.mark.parametrize(
    ("source", "other"),
    [("beside", "unread_faces"), ("unread_faces", "beside")],
    ids=["beside its neighbour", "at its unread face"],
)
def test_a_river_card_with_no_corner_proposed_is_still_read(
    monkeypatch: pytest.MonkeyPatch, source: str, other: str
) -> None:
    # Either second-look source alone finds it; with neither, nothing does (the spot model,
    # which finds its index corners in the first look, is left out).
    image, six = _six_unproposed(monkeypatch)
    monkeypatch.setattr(f"companion.vision.second_look.look.{other}", lambda *args: [])
    assert six in CardDetector(spot_path=None).detect(image).cards
    monkeypatch.setattr(f"companion.vision.second_look.look.{source}", lambda *args: [])
    assert six not in CardDetector(spot_path=None).detect(image).cards


def test_a_river_card_with_no_corner_proposed_is_read_at_the_spot_models_corner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No second look at all: only the spot model, beside the levels, marks its index corner.
    image, six = _six_unproposed(monkeypatch)
    assert six in CardDetector(complete=False).detect(image).cards
    assert six not in CardDetector(complete=False, spot_path=None).detect(image).cards


def _corners(frames: list[Proposal]) -> set[tuple[float, float]]:
    return {(round(float(f.p[0]), 1), round(float(f.p[1]), 1)) for f in frames}


def test_the_cards_between_a_cascades_ends_are_framed_evenly_spaced_between_them() -> None:
    # A hand of four laid in a cascade, 30 px a step down and right: its first and last read.
    first = CornerRead(cards("7h")[0], 0.99, Proposal(np.array([100.0, 100.0]), X, Y, WIDTH))
    last = CornerRead(cards("Kd")[0], 0.99, Proposal(np.array([190.0, 190.0]), X, Y, WIDTH))
    found = between([first, last], [])
    # Framed as the two are, and at the ends' opposite (bottom-right) corners turned about.
    like = [f for f in found if np.allclose(f.u, X) and np.allclose(f.v, Y)]
    unlike = [f for f in found if np.allclose(f.u, -X) and np.allclose(f.v, -Y)]
    assert len(like) + len(unlike) == len(found) and all(f.s == WIDTH for f in found)
    assert {(130.0, 130.0), (160.0, 160.0)} <= _corners(like)  # the two cards between
    assert (145.0, 145.0) in _corners(like)  # one card between
    assert all(100.0 < x == y < 190.0 for x, y in _corners(like))  # on the line, inside
    far = (WIDTH, CARD_LENGTHS[0] * WIDTH)
    assert (130.0 + far[0], 130.0 + far[1]) in _corners(unlike)
    # Alike a frame already read: not framed again.
    again = between([first, last], [Proposal(np.array([130.0, 130.0]), X, Y, WIDTH)])
    assert (130.0, 130.0) not in _corners(again) and (160.0, 160.0) in _corners(again)


def test_a_cascades_ends_read_at_unlike_corners_still_frame_the_cards_between() -> None:
    # The last card read at its bottom-right index corner (turned half a turn).
    first = CornerRead(cards("7h")[0], 0.99, Proposal(np.array([100.0, 100.0]), X, Y, WIDTH))
    corner = np.array([190.0 + WIDTH, 190.0 + CARD_LENGTHS[0] * WIDTH])
    last = CornerRead(cards("Kd")[0], 0.99, Proposal(corner, -X, -Y, WIDTH))
    assert {(130.0, 130.0), (160.0, 160.0)} <= _corners(between([first, last], []))


def test_cards_turned_apart_or_of_unlike_widths_or_far_apart_are_no_cascade() -> None:
    first = CornerRead(cards("7h")[0], 0.99, Proposal(np.array([100.0, 100.0]), X, Y, WIDTH))

    def other(p: tuple[float, float], u: np.ndarray, v: np.ndarray, width: float) -> CornerRead:
        return CornerRead(cards("Kd")[0], 0.99, Proposal(np.array(p), u, v, width))

    assert between([first, other((190.0, 190.0), Y, -X, WIDTH)], []) == []  # a quarter turn
    assert between([first, other((190.0, 190.0), X, Y, 1.5 * WIDTH)], []) == []
    assert between([first, other((100.0 + 2.2 * WIDTH, 100.0), X, Y, WIDTH)], []) == []
    assert between([first, other((110.0, 100.0), X, Y, WIDTH)], []) == []  # the same corner
    assert between([first], []) == []
