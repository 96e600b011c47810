"""The card faces no read card covers (``second_look.unread``): framed for the second look, and
reported once every look is done."""

import cv2
import numpy as np

from companion.engine.cards import parse_card
from companion.vision.base import geometry
from companion.vision.corner_reads import CornerRead
from companion.vision.proposals import Proposal
from companion.vision.second_look.unread import unread_faces, unread_outlines
from tests.helpers import turned_card


def _sure_read(x: float, y: float, width: float) -> CornerRead:
    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    return CornerRead(parse_card("7s"), 0.99, Proposal(np.array([x, y]), right, down, width))


def test_an_uncovered_card_face_is_framed_at_its_corners() -> None:
    # Two faces on a mask at half the frame's scale: the left one is read, the right one not.
    mask = np.zeros((200, 300), np.uint8)
    mask[20:90, 20:70] = 1  # frame pixels (40, 40) to (140, 180): the card read
    mask[20:90, 150:200] = 1  # (300, 40) to (400, 180): no card read there
    frames = unread_faces(mask, 2.0, [_sure_read(40, 40, 100)])
    corners = sorted((float(q.p[0]), float(q.p[1])) for q in frames)
    np.testing.assert_allclose(corners, [(300, 40), (300, 180), (400, 40), (400, 180)], atol=3)
    assert all(q.s == 100 for q in frames)
    # Clockwise on screen, as the proposals: the top-left corner's u runs to the top-right.
    top_left = min(frames, key=lambda q: float(q.p.sum()))
    np.testing.assert_allclose(top_left.u, [1, 0], atol=1e-6)
    np.testing.assert_allclose(top_left.v, [0, 1], atol=1e-6)


def test_a_small_uncovered_piece_and_a_frame_with_no_card_read_get_no_frames() -> None:
    mask = np.zeros((200, 300), np.uint8)
    mask[20:90, 20:70] = 1
    mask[120:140, 150:170] = 1  # a fifth of a card: a chip, a pip
    assert unread_faces(mask, 2.0, [_sure_read(40, 40, 100)]) == []
    assert unread_faces(mask, 2.0, []) == []


def _quads(*reads: CornerRead) -> np.ndarray:
    return np.array(
        [geometry.card_quad(r.proposal.p, r.proposal.u, r.proposal.v, r.proposal.s) for r in reads]
    )


def test_a_card_face_left_unread_is_outlined_where_it_lies() -> None:
    # Half the frame's scale: the read card spans frame pixels (40, 40)-(140, 180).
    mask = np.zeros((200, 300), np.uint8)
    mask[20:90, 20:70] = 1
    mask[20:90, 150:200] = 1  # (300, 40) to (400, 180): a face no card was read on
    found = unread_outlines(mask, 2.0, _quads(_sure_read(40, 40, 100)))
    assert found.shape == (1, 4, 2)
    np.testing.assert_allclose(
        sorted(map(tuple, found[0])), [(300, 40), (300, 180), (400, 40), (400, 180)], atol=3
    )


def test_ragged_pieces_the_rest_of_a_read_card_and_a_photo_with_no_read_are_no_faces() -> None:
    mask = np.zeros((200, 300), np.uint8)
    # The read card seen at a slant: 40 mask pixels (0.8 card widths) longer than the outline
    # drawn from its corner, a strip that alone would pass as half a card.
    mask[20:130, 20:70] = 1
    # A pile of chips, as the outline model marks it: a piece a card large, but ragged.
    for k, x in enumerate(range(150, 250, 16)):
        cv2.circle(mask, (x, 50 + 18 * (k % 2)), 13, 1, -1)
    quads = _quads(_sure_read(40, 40, 100))
    assert unread_outlines(mask, 2.0, quads).shape == (0, 4, 2)
    assert unread_outlines(mask, 2.0, np.zeros((0, 4, 2))).shape == (0, 4, 2)
    # With no card read, a width from elsewhere (the lone cards' outlines) sizes a card.
    assert unread_outlines(mask, 2.0, np.zeros((0, 4, 2)), 100.0).shape == (1, 4, 2)
    # Without the lengthened cover the strip would count: the test can fail.
    mask[20:90, 20:70] = 0
    mask[90:130, 20:70] = 1
    assert unread_outlines(mask, 2.0, _quads(_sure_read(40, 300, 100))).shape == (1, 4, 2)


def test_a_card_cut_by_the_photos_edge_is_reported_from_less_than_half_a_card() -> None:
    # The read card is 100 frame pixels (50 mask pixels) wide. A turned card lies off the
    # photo's top edge: about a third of it shows, clipped by the edge into a piece that
    # fills little of its rotated rectangle.
    mask = np.zeros((200, 300), np.uint8)
    mask[120:190, 20:70] = 1
    cv2.fillConvexPoly(mask, np.round(turned_card((200, 5), 50, 30)).astype(np.int32), 1)
    quads = _quads(_sure_read(40, 240, 100))
    found = unread_outlines(mask, 2.0, quads)
    assert found.shape == (1, 4, 2)
    assert found[0][:, 1].min() < 10 and 150 * 2 < found[0][:, 0].mean() < 250 * 2
    # The same piece away from the edge is too small and too thin a part of a card.
    inside = np.zeros_like(mask)
    inside[120:190, 20:70] = 1
    inside[60:110, 100:300] = mask[0:50, 100:300]
    assert unread_outlines(inside, 2.0, quads).shape == (0, 4, 2)
    # A piece at the edge of several cards' area is the table's light, not a card.
    mask[:] = 0
    mask[120:190, 20:70] = 1
    mask[0:60, 120:300] = 1
    assert unread_outlines(mask, 2.0, quads).shape == (0, 4, 2)
