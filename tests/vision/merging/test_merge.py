"""Merging corner reads into cards (``merging``): one card per place, one place per card."""

import numpy as np
import pytest

from companion.engine.cards import parse_card
from companion.vision.base import geometry
from companion.vision.base.alternatives import Alternative
from companion.vision.base.detections import COLOUR, MODELS, SECOND_LOOK, TWICE, UNSURE
from companion.vision.corner_reads import CornerRead
from companion.vision.merging import merge_reads
from companion.vision.proposals import Proposal
from tests.helpers import cards

S = 100.0  # card width in pixels


def _corners(x: float, y: float) -> tuple[Proposal, Proposal]:
    """The two index corners (top-left, bottom-right) of an upright card at (x, y)."""
    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    top_left = Proposal(np.array([x, y]), right, down, S)
    bottom_right = Proposal(np.array([x + S, y + 1.4 * S]), -right, -down, S)
    return top_left, bottom_right


def test_both_corners_agreeing_give_one_card_with_more_support() -> None:
    a, b = _corners(50, 50)
    det = merge_reads(
        [CornerRead(parse_card("7s"), 0.8, a), CornerRead(parse_card("7s"), 0.6, b)], (400, 400)
    )
    assert det.cards == cards("7s")
    assert det.confidence[0] == pytest.approx(1 - 0.2 * 0.4)


def test_an_unsure_read_with_another_suit_at_the_opposite_corner_is_dropped() -> None:
    # The upper card of a hand puts its heart beside the lower card's 7.
    a, b = _corners(50, 50)
    det = merge_reads(
        [CornerRead(parse_card("7s"), 0.92, b), CornerRead(parse_card("7h"), 0.6, a)], (400, 400)
    )
    assert det.cards == cards("7s")


@pytest.mark.parametrize(
    ("second", "corners"),
    [(None, 0.0), (("7s", 0.6), 1.0), (("7h", 0.6), -1.0)],
    ids=["one corner", "alike", "another suit"],
)
def test_a_cards_clues_are_its_surest_reads_and_what_its_opposite_corner_read(
    second: tuple[str, float] | None, corners: float
) -> None:
    a, b = _corners(50, 50)
    clues = (3.0, 0.9, 0.8, -0.3, 7.0, S)
    reads = [CornerRead(parse_card("7s"), 0.92, b, (), clues)]
    if second is not None:
        reads.append(CornerRead(parse_card(second[0]), second[1], a, (), (1.0,) * 6))
    det = merge_reads(reads, (400, 400))
    assert det.cards == cards("7s")
    assert det.clues.tolist() == [pytest.approx([*clues, corners])]


@pytest.mark.parametrize("other", [("7h", 0.9), ("8h", 0.6)], ids=["sure pair", "other rank"])
def test_sure_reads_and_other_ranks_stay(other: tuple[str, float]) -> None:
    # Two sevens lying head to foot on each other are a pair, and an 8 is another card.
    a, b = _corners(50, 50)
    det = merge_reads(
        [CornerRead(parse_card("7s"), 0.92, b), CornerRead(parse_card(other[0]), other[1], a)],
        (400, 400),
    )
    assert sorted(map(str, det.cards)) == sorted(["7s", other[0]])


def test_a_code_read_at_two_places_is_reported_once_at_the_surer() -> None:
    a, _ = _corners(50, 50)
    c, _ = _corners(250, 50)
    det = merge_reads(
        [CornerRead(parse_card("Qd"), 0.7, a), CornerRead(parse_card("Qd"), 0.9, c)], (400, 400)
    )
    assert det.cards == cards("Qd")
    assert det.xyxy[0][0] == pytest.approx(250)


def test_no_reads_give_no_cards() -> None:
    assert len(merge_reads([], (400, 400))) == 0


def test_a_second_copy_in_a_one_deck_game_makes_the_kept_one_doubtful() -> None:
    # One of the two reads is of another card, and the surer one may be the wrong one.
    a, _ = _corners(50, 50)
    c, _ = _corners(250, 50)
    reads = [CornerRead(parse_card("Qd"), 0.7, a), CornerRead(parse_card("Qd"), 0.99, c)]
    one = merge_reads(reads, (400, 400))
    assert one.doubts == ((TWICE,),) and one.check.tolist() == [True]
    two = merge_reads(reads, (400, 400), decks=2)
    assert len(two) == 2 and two.doubts == ((), (UNSURE,))
    assert two.check.tolist() == [False, True]


@pytest.mark.parametrize(
    ("first", "second", "doubts"),
    [
        ((), (SECOND_LOOK,), ()),  # read at first look too: the second look adds support
        ((SECOND_LOOK,), (SECOND_LOOK,), (SECOND_LOOK,)),
        ((COLOUR,), (), (COLOUR,)),  # one corner whose ink contradicts its suit is enough
        ((), (MODELS,), ()),  # the other corner read the same by all three readers
        ((MODELS,), (MODELS, SECOND_LOOK), (MODELS,)),
    ],
)
def test_a_places_doubts_come_from_its_reads(
    first: tuple[str, ...], second: tuple[str, ...], doubts: tuple[str, ...]
) -> None:
    a, b = _corners(50, 50)
    det = merge_reads(
        [
            CornerRead(parse_card("7s"), 0.97, a, first),
            CornerRead(parse_card("7s"), 0.9, b, second),
        ],
        (400, 400),
    )
    assert det.doubts == (doubts,)
    assert det.check.tolist() == [bool(doubts)]
    assert det.frame == (400, 400)


def test_an_unsure_place_says_so_first() -> None:
    a, _ = _corners(50, 50)
    det = merge_reads([CornerRead(parse_card("7s"), 0.6, a, (MODELS,))], (400, 300))
    assert det.doubts == ((UNSURE, MODELS),)
    assert det.frame == (300, 400)  # (width, height) of a (height, width) shape


def _misscaled(q: Proposal, factor: float) -> Proposal:
    """``q`` read at a frame ``factor`` times the card's width."""
    return Proposal(q.p, q.u, q.v, q.s * factor)


@pytest.mark.parametrize("factor", [0.7, 1.3])
def test_a_card_read_at_both_index_corners_is_outlined_between_them(factor: float) -> None:
    # The surer read's frame is a third off the card's width; the opposite corner is not.
    a, b = _corners(50, 50)
    det = merge_reads(
        [
            CornerRead(parse_card("7s"), 0.97, _misscaled(a, factor)),
            CornerRead(parse_card("7s"), 0.9, b),
        ],
        (400, 400),
    )
    true_outline = [[50, 50], [150, 50], [150, 190], [50, 190]]
    np.testing.assert_allclose(det.quads[0], true_outline, atol=1e-3)
    np.testing.assert_allclose(det.xyxy[0], [50, 50, 150, 190], atol=1e-3)


def test_a_card_read_at_one_corner_is_outlined_from_that_frame() -> None:
    a, _ = _corners(50, 50)
    det = merge_reads([CornerRead(parse_card("7s"), 0.97, _misscaled(a, 0.7))], (400, 400))
    np.testing.assert_allclose(det.quads[0], [[50, 50], [120, 50], [120, 148], [50, 148]])


def test_corners_too_near_for_one_card_do_not_outline_it() -> None:
    # The other corner is 0.9 card widths higher than the card's own (an outline 0.5 times
    # as long as wide): two cards' corners, or a misplaced frame; the surer read's outline
    # stands. (Corners farther apart than the card's own lie at two places.)
    a, b = _corners(50, 50)
    low = Proposal(b.p - np.array([0.0, 0.9 * S]), b.u, b.v, b.s)
    det = merge_reads(
        [CornerRead(parse_card("7s"), 0.97, a), CornerRead(parse_card("7s"), 0.9, low)],
        (400, 400),
    )
    np.testing.assert_allclose(det.quads[0], [[50, 50], [150, 50], [150, 190], [50, 190]])


def test_a_card_stretched_by_a_turned_phone_is_outlined_between_its_corners() -> None:
    # Near the edge of a photo taken with the phone turned 45 degrees, a card is 2.3 times
    # as long as wide; its frames were read at its width.
    a, b = _corners(50, 50)
    far = Proposal(b.p + np.array([0.0, 0.9 * S]), b.u, b.v, b.s)
    det = merge_reads(
        [CornerRead(parse_card("7s"), 0.97, a), CornerRead(parse_card("7s"), 0.9, far)],
        (400, 400),
    )
    np.testing.assert_allclose(det.quads[0], [[50, 50], [150, 50], [150, 280], [50, 280]])


def test_a_card_seen_steeply_is_outlined_where_its_frames_edges_meet() -> None:
    # The far edge is shorter than the near one: the card's sides are not parallel.
    tl, tr, br, bl = (np.array(c, float) for c in ([60, 50], [140, 50], [160, 190], [40, 190]))

    def unit(a: np.ndarray) -> np.ndarray:
        return a / np.linalg.norm(a)

    top_left = Proposal(tl, unit(tr - tl), unit(bl - tl), 80.0)
    bottom_right = Proposal(br, unit(bl - br), unit(tr - br), 120.0)
    det = merge_reads(
        [
            CornerRead(parse_card("7s"), 0.97, top_left),
            CornerRead(parse_card("7s"), 0.9, bottom_right),
        ],
        (400, 400),
    )
    np.testing.assert_allclose(det.quads[0], [tl, tr, br, bl], atol=1e-3)


def _offered(text: str) -> tuple[Alternative, ...]:
    """``"7c:0.05 7h:0.02"`` -> those alternatives."""
    return tuple(
        Alternative(parse_card(c), float(p)) for c, p in (a.split(":") for a in text.split())
    )


def _codes(det_alternatives: tuple[Alternative, ...]) -> list[str]:
    return [str(a.card) for a in det_alternatives]


def test_a_card_keeps_its_surest_reads_alternatives_and_crops() -> None:
    a, b = _corners(50, 50)
    # The surer read was cut at a foreshortened frame: its crops are that frame's.
    cut = Proposal(b.p, b.u * 0.8, b.v, b.s)
    det = merge_reads(
        [
            CornerRead(parse_card("7s"), 0.6, a, alternatives=_offered("7c:0.3")),
            CornerRead(parse_card("7s"), 0.7, b, alternatives=_offered("7c:0.2"), cut_at=cut),
        ],
        (400, 400),
    )
    assert _codes(det.alternatives[0]) == ["7c"]
    expected = geometry.extent_quads(cut.p, cut.u, cut.v, np.array([cut.s]), geometry.CORNER)
    np.testing.assert_allclose(det.index_quads, expected)
    face = geometry.extent_quads(cut.p, cut.u, cut.v, np.array([cut.s]), geometry.FACE)
    np.testing.assert_allclose(det.face_quads, face)


def test_a_card_read_at_both_corners_has_its_alternatives_shrunk_to_its_support() -> None:
    # Support 1 - 0.3 * 0.4 = 0.88: the 0.2 of its surest read's alternative leaves it 0.12.
    a, b = _corners(50, 50)
    det = merge_reads(
        [
            CornerRead(parse_card("7s"), 0.7, a, alternatives=_offered("7c:0.2")),
            CornerRead(parse_card("7s"), 0.6, b, alternatives=_offered("7c:0.3")),
        ],
        (400, 400),
    )
    assert det.alternatives[0][0].probability == pytest.approx(0.12)
    assert det.confidence[0] + det.alternatives[0][0].probability <= 1 + 1e-6


@pytest.mark.parametrize(("decks", "kept"), [(1, ["8s"]), (2, ["Js", "8s"])])
def test_a_code_read_surely_elsewhere_is_an_alternative_only_when_the_decks_hold_two(
    decks: int, kept: list[str]
) -> None:
    a, _ = _corners(50, 50)
    c, _ = _corners(250, 50)
    det = merge_reads(
        [
            CornerRead(parse_card("Jc"), 0.7, a, alternatives=_offered("Js:0.2 8s:0.05")),
            CornerRead(parse_card("Js"), 0.99, c, alternatives=_offered("Jc:0.005")),
        ],
        (400, 400),
        decks,
    )
    by_card = {
        str(card): _codes(alt) for card, alt in zip(det.cards, det.alternatives, strict=True)
    }
    # Jc is doubtful (0.7): it stays an alternative of the sure Js.
    assert by_card == {"Jc": kept, "Js": ["Jc"]}
