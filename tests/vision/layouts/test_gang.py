"""The Gang table on a photo (``layouts.gang.group_table``): the river and the hands."""

import json

import cv2
import numpy as np
import pytest

from companion.vision import CardDetector, Detections
from companion.vision.layouts.expect import Expect
from companion.vision.layouts.gang import Grouping, group_table
from tests.helpers import FIXTURES, cards


def _at(placed: dict[str, tuple[float, float]], width: float = 100.0) -> Detections:
    codes = tuple(placed)
    centres = np.array([placed[c] for c in codes], np.float32)
    half = np.array([[-0.5, -0.7], [0.5, -0.7], [0.5, 0.7], [-0.5, 0.7]], np.float32) * width
    quads = centres[:, None, :] + half[None]
    return Detections(
        cards(" ".join(codes)),
        np.full(len(codes), 0.9),
        np.concatenate([quads.min(1), quads.max(1)], 1),
        quads,
    )


def river_of(groups: Grouping) -> tuple[str, ...]:
    return tuple(str(seen.card) for seen in groups.river)


def hands_of(groups: Grouping) -> set[frozenset[str]]:
    return {frozenset(str(seen.card) for seen in hand) for hand in groups.hands}


TABLE = {  # a river of five 120 px apart and two overlapped hands far from it
    "9h": (200, 600),
    "8c": (320, 600),
    "2h": (440, 600),
    "4c": (560, 600),
    "Js": (680, 600),
    "3c": (150, 150),
    "Kh": (190, 170),
    "Qs": (700, 140),
    "3s": (740, 120),
}


def test_river_and_hands_of_a_table() -> None:
    groups = group_table(_at(TABLE))
    assert river_of(groups) == ("9h", "8c", "2h", "4c", "Js")
    assert hands_of(groups) == {frozenset({"3c", "Kh"}), frozenset({"Qs", "3s"})}
    assert groups.confidence == pytest.approx(0.9)


def test_each_card_placed_knows_its_read() -> None:
    detections = _at(TABLE)
    groups = group_table(detections)
    placed = [*groups.river, *(seen for hand in groups.hands for seen in hand)]
    assert sorted(seen.index for seen in placed) == list(range(len(detections)))
    for seen in placed:
        assert seen.card == detections.cards[seen.index]
        assert (seen.x, seen.y) == pytest.approx(tuple(detections.centres[seen.index]))
        assert seen.confidence == pytest.approx(0.9)


@pytest.mark.parametrize("angle", [0.0, 0.7, np.pi / 2, np.pi])
def test_grouping_does_not_depend_on_the_photo_rotation(angle: float) -> None:
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    turned = {c: tuple(rot @ (np.array(p) - 400) + 1000) for c, p in TABLE.items()}
    groups = group_table(_at(turned))
    assert set(river_of(groups)) == {"9h", "8c", "2h", "4c", "Js"}
    assert len(groups.hands) == 2


def test_missing_river_card_lowers_the_confidence() -> None:
    four = {c: p for c, p in TABLE.items() if c != "2h"}
    groups = group_table(_at(four))
    assert set(river_of(groups)) == {"9h", "8c", "4c", "Js"}
    assert groups.confidence < 0.5


def test_no_cards() -> None:
    assert group_table(Detections.empty()) == Grouping((), (), 0.0)


def test_a_hand_whose_centres_read_far_apart_is_still_one_hand() -> None:
    # 3c/Kh 105 px apart: more than the overlap link (85), no river card near them.
    loose = {**TABLE, "Kh": (250, 190)}
    groups = group_table(_at(loose))
    assert river_of(groups) == ("9h", "8c", "2h", "4c", "Js")
    assert hands_of(groups) == {frozenset({"3c", "Kh"}), frozenset({"Qs", "3s"})}


def test_lone_cards_far_apart_stay_apart() -> None:
    apart = {**TABLE, "Kh": (400, 250)}  # 2.6 card widths from the 3c
    groups = group_table(_at(apart))
    assert hands_of(groups) == {frozenset({"3c"}), frozenset({"Kh"}), frozenset({"Qs", "3s"})}


def test_river_cards_laid_nearly_touching_are_still_the_river() -> None:
    # 2h and 4c 80 px apart: they cluster like a hand, and the row borrows them back.
    close = {**TABLE, "4c": (520, 600), "Js": (640, 600)}
    groups = group_table(_at(close))
    assert river_of(groups) == ("9h", "8c", "2h", "4c", "Js")
    assert hands_of(groups) == {frozenset({"3c", "Kh"}), frozenset({"Qs", "3s"})}


def test_a_touching_river_read_with_centres_off_is_still_the_river() -> None:
    # Touching cards lie a card width apart; centres drawn from misframed corners put the
    # outer pairs 0.55 card widths apart (the hard synthetic tables read them 0.53-0.65 apart).
    off = {**TABLE, "9h": (265, 600), "8c": (320, 600), "4c": (560, 600), "Js": (615, 600)}
    groups = group_table(_at(off))
    assert river_of(groups) == ("9h", "8c", "2h", "4c", "Js")
    assert hands_of(groups) == {frozenset({"3c", "Kh"}), frozenset({"Qs", "3s"})}


def test_told_the_hands_two_lone_cards_apart_are_one_hand_not_a_stray() -> None:
    # The Kh's centre read 1.8 card widths from the 3c's: past the link for lone cards.
    apart = {**TABLE, "Kh": (330, 150)}
    assert hands_of(group_table(_at(apart))) == {
        frozenset({"3c"}),
        frozenset({"Kh"}),
        frozenset({"Qs", "3s"}),
    }
    told = group_table(_at(apart), Expect(5, 2, 2))
    assert hands_of(told) == {frozenset({"3c", "Kh"}), frozenset({"Qs", "3s"})}
    assert told.fits
    # Three hands expected: no hand is too many, and the two stay apart, each short a card.
    three = group_table(_at(apart), Expect(5, 3, 2))
    assert hands_of(three) == {frozenset({"3c"}), frozenset({"Kh"}), frozenset({"Qs", "3s"})}
    assert three.missing is not None and sorted(three.missing.hands) == [0, 1, 1]
    # Farther than the reach (2.6 card widths), the surplus card is stray.
    far = group_table(_at({**TABLE, "Kh": (400, 250)}), Expect(5, 2, 2))
    assert len(far.stray) == 1 and not far.fits


def test_a_hand_dropped_against_the_river_keeps_its_other_card() -> None:
    # The Qs lies 60 px under the Js: the river takes the Js back, the hand keeps the 3s.
    near = {**TABLE, "Qs": (700, 660), "3s": (730, 720)}
    groups = group_table(_at(near))
    assert river_of(groups) == ("9h", "8c", "2h", "4c", "Js")
    assert hands_of(groups) == {frozenset({"3c", "Kh"}), frozenset({"Qs", "3s"})}


def test_a_river_card_off_the_line_by_a_misread_corner_stays_in_the_row() -> None:
    bent = {**TABLE, "2h": (440, 650)}  # half a card width off the row
    assert river_of(group_table(_at(bent))) == ("9h", "8c", "2h", "4c", "Js")


def test_distances_are_measured_in_the_read_cards_width() -> None:
    # The same table photographed from twice as far: the same river and hands.
    far = {c: (x / 2, y / 2) for c, (x, y) in TABLE.items()}
    groups = group_table(_at(far, width=50.0))
    assert river_of(groups) == ("9h", "8c", "2h", "4c", "Js")
    assert hands_of(groups) == {frozenset({"3c", "Kh"}), frozenset({"Qs", "3s"})}
    # The same centres with cards a third as wide: 120 px gaps are too far apart for a river.
    assert river_of(group_table(_at(TABLE, width=100 / 3))) == ()


def test_table_scenes_read_by_the_detector_are_grouped() -> None:
    # Grouping is judged on the cards read right: each must sit in its true river or hand.
    detector = CardDetector()
    labels = json.loads((FIXTURES / "labels.json").read_text())
    tables = [e for e in labels if e["cards"] and e["groups"]]
    assert tables
    for entry in tables:
        groups = group_table(detector.detect(cv2.imread(str(FIXTURES / entry["image"]))))
        truth = entry["groups"]
        river = set(truth["table"])
        hands = [set(h) for k, h in truth.items() if k != "table" and h]
        assert len(set(river_of(groups)) & river) >= 4, groups
        assert not set(river_of(groups)) - river, groups
        for hand in groups.hands:
            right = {str(seen.card) for seen in hand} & set(entry["cards"])
            assert any(right <= h for h in hands), (hand, hands)


def _framed(placed: dict[str, tuple[float, float]], frame: tuple[int, int]) -> Detections:
    d = _at(placed)
    return Detections(d.cards, d.confidence, d.xyxy, d.quads, frame=frame)


# A table photo of 900x800 px; card outlines are 100x140 px.
EDGE = {**TABLE, "Ad": (880, 420)}  # a lone card half off the photo's right edge


def test_a_lone_card_cut_by_the_photos_edge_is_stray() -> None:
    groups = group_table(_framed(EDGE, (900, 800)))
    assert [str(s.card) for s in groups.stray] == ["Ad"]
    assert hands_of(groups) == {frozenset({"3c", "Kh"}), frozenset({"Qs", "3s"})}


def test_without_the_photos_size_no_card_is_cut() -> None:
    groups = group_table(_at(EDGE))
    assert groups.stray == ()
    assert frozenset({"Ad"}) in hands_of(groups)


def test_a_hand_at_the_photos_edge_stays_a_hand() -> None:
    # A player seated at the edge of the picture: two overlapped cards, one of them cut.
    seated = {**TABLE, "Ad": (860, 420), "Ac": (880, 450)}
    groups = group_table(_framed(seated, (900, 800)))
    assert groups.stray == ()
    assert frozenset({"Ad", "Ac"}) in hands_of(groups)


def test_with_an_expect_the_edge_card_is_the_surplus_not_a_lone_hand_nearer_the_middle() -> None:
    # A hand shown as one card (its other card missed) lies farther from the middle than the
    # cut card does; the cut card is the one not in play.
    table = {**EDGE, "Ad": (890, 430), "5h": (60, 725)}
    groups = group_table(_framed(table, (900, 800)), Expect(5, 3, 2))
    assert [str(s.card) for s in groups.stray] == ["Ad"]
    assert frozenset({"5h"}) in hands_of(groups)
    assert groups.missing is not None and sorted(groups.missing.hands) == [0, 0, 1]


def _turned_cards(placed: dict[str, tuple[float, float, float]]) -> Detections:
    """Cards at (x, y), each turned by its own angle (radians)."""
    half = np.array([[-0.5, -0.7], [0.5, -0.7], [0.5, 0.7], [-0.5, 0.7]]) * 100.0
    quads = []
    for x, y, angle in placed.values():
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        quads.append(half @ rot.T + [x, y])
    q = np.array(quads, np.float32)
    return Detections(
        cards(" ".join(placed)), np.full(len(q), 0.99), np.concatenate([q.min(1), q.max(1)], 1), q
    )


def test_a_river_laid_touching_is_still_the_river() -> None:
    # Five river cards 0.8 card widths apart link into one cluster, as a hand's cards do;
    # the hand lies at an angle, the river cards square to their row.
    river = {c: (200 + 80 * k, 600, 0.0) for k, c in enumerate(["9h", "8c", "2h", "4c", "Js"])}
    hand = {"3c": (300, 200, 0.6), "Kh": (340, 220, 0.9)}
    groups = group_table(_turned_cards({**river, **hand}))
    assert river_of(groups) == ("9h", "8c", "2h", "4c", "Js")
    assert hands_of(groups) == {frozenset({"3c", "Kh"})}


def test_the_expected_river_size_is_the_row_looked_for() -> None:
    flop = {c: (200 + 130 * k, 600, 0.0) for k, c in enumerate(["9h", "8c", "2h"])}
    hands = {
        "3c": (150, 150, 0.3),
        "Kh": (190, 170, 0.5),
        "Qs": (700, 140, 1.0),
        "3s": (740, 120, 1.2),
    }
    groups = group_table(_turned_cards({**flop, **hands}), Expect(3, 2, 2))
    assert river_of(groups) == ("9h", "8c", "2h") and groups.fits


def test_an_edge_card_is_stray_even_where_a_hand_is_short() -> None:
    # Both cards of the second hand were missed: the cut card does not take its seat.
    table = {c: p for c, p in EDGE.items() if c not in ("Qs", "3s")}
    groups = group_table(_framed(table, (900, 800)), Expect(5, 2, 2))
    assert [str(s.card) for s in groups.stray] == ["Ad"]
    assert groups.missing is not None and sorted(groups.missing.hands) == [0, 2]


def test_told_the_layout_a_river_seen_steeply_is_still_the_river() -> None:
    # A seated player's photo: the river's outlines turn by up to 18 degrees across the row,
    # and its cards lie touching (two by two they link as hands do).
    turns = np.radians([-18.0, -9.0, 0.0, 9.0, 18.0])
    river = {
        c: (200 + 80 * k, 600, float(a))
        for k, (c, a) in enumerate(zip(["9h", "8c", "2h", "4c", "Js"], turns, strict=True))
    }
    unaligned = group_table(_turned_cards(river), Expect(5, 0, 2))
    assert river_of(unaligned) == ("9h", "8c", "2h", "4c", "Js") and unaligned.fits
    # Not told, the row of cards turned apart is not taken for a river.
    assert river_of(group_table(_turned_cards(river))) == ()


def test_told_hands_of_four_a_cascade_split_by_an_unread_card_is_one_hand() -> None:
    # A hand of four laid in a cascade, 45 px a step, its third card not read: the last card
    # lies 90 px (0.9 card widths) from the second, past the link of a hand's cards.
    cascade = {"Qs": (150, 150), "3s": (195, 150), "3c": (285, 150)}
    placed = {**{k: v for k, v in TABLE.items() if k not in ("Qs", "3s", "3c", "Kh")}, **cascade}
    assert hands_of(group_table(_at(placed))) == {frozenset({"Qs", "3s"}), frozenset({"3c"})}
    told = group_table(_at(placed), Expect(5, 1, 4))
    assert hands_of(told) == {frozenset({"Qs", "3s", "3c"})} and not told.stray
    assert told.missing is not None and told.missing.hands == (1,)
    # Never more cards in a hand than the layout's: told hands of two, the lone card is stray.
    two = group_table(_at(placed), Expect(5, 1, 2))
    assert hands_of(two) == {frozenset({"Qs", "3s"})} and [str(s.card) for s in two.stray] == ["3c"]
