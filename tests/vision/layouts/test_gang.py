import numpy as np
import pytest

from companion.vision import Detections
from companion.vision.layouts.gang import group_cards

WIDTH = 100.0


def _at(cards: dict[str, tuple[float, float]]) -> Detections:
    codes = tuple(cards)
    centres = np.array([cards[c] for c in codes], np.float32)
    half = np.array([[-50, -70], [50, -70], [50, 70], [-50, 70]], np.float32)
    quads = centres[:, None, :] + half[None]
    return Detections(
        codes, np.full(len(codes), 0.9), np.concatenate([quads.min(1), quads.max(1)], 1), quads
    )


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
    groups = group_cards(_at(TABLE), WIDTH)
    assert groups.river == ("9h", "8c", "2h", "4c", "Js")
    hands = {frozenset(h) for h in groups.hands}
    assert hands == {frozenset({"3c", "Kh"}), frozenset({"Qs", "3s"})}
    assert groups.confidence == pytest.approx(0.9)


@pytest.mark.parametrize("angle", [0.0, 0.7, np.pi / 2, np.pi])
def test_grouping_does_not_depend_on_the_photo_rotation(angle: float) -> None:
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    turned = {c: tuple(rot @ (np.array(p) - 400) + 1000) for c, p in TABLE.items()}
    groups = group_cards(_at(turned), WIDTH)
    assert set(groups.river) == {"9h", "8c", "2h", "4c", "Js"}
    assert len(groups.hands) == 2


def test_missing_river_card_lowers_the_confidence() -> None:
    four = {c: p for c, p in TABLE.items() if c != "2h"}
    groups = group_cards(_at(four), WIDTH)
    assert set(groups.river) == {"9h", "8c", "4c", "Js"}
    assert groups.confidence < 0.5


def test_no_cards() -> None:
    groups = group_cards(Detections.empty(), WIDTH)
    assert groups.river == () and groups.hands == ()


def hands_of(groups) -> set[frozenset[str]]:  # type: ignore[no-untyped-def]
    return {frozenset(h) for h in groups.hands}


def test_a_hand_whose_centres_read_far_apart_is_still_one_hand() -> None:
    # 3c/Kh 105 px apart: more than the overlap link (85), no river card near them.
    loose = {**TABLE, "Kh": (250, 190)}
    groups = group_cards(_at(loose), WIDTH)
    assert groups.river == ("9h", "8c", "2h", "4c", "Js")
    assert hands_of(groups) == {frozenset({"3c", "Kh"}), frozenset({"Qs", "3s"})}


def test_lone_cards_far_apart_stay_apart() -> None:
    apart = {**TABLE, "Kh": (400, 250)}  # 2.6 card widths from the 3c
    groups = group_cards(_at(apart), WIDTH)
    assert hands_of(groups) == {frozenset({"3c"}), frozenset({"Kh"}), frozenset({"Qs", "3s"})}


def test_river_cards_laid_nearly_touching_are_still_the_river() -> None:
    # 2h and 4c 80 px apart: they cluster like a hand, and the row borrows them back.
    close = {**TABLE, "4c": (520, 600), "Js": (640, 600)}
    groups = group_cards(_at(close), WIDTH)
    assert groups.river == ("9h", "8c", "2h", "4c", "Js")
    assert hands_of(groups) == {frozenset({"3c", "Kh"}), frozenset({"Qs", "3s"})}


def test_a_hand_dropped_against_the_river_keeps_its_other_card() -> None:
    # The Qs lies 60 px under the Js: the river takes the Js back, the hand keeps the 3s.
    near = {**TABLE, "Qs": (700, 660), "3s": (730, 720)}
    groups = group_cards(_at(near), WIDTH)
    assert groups.river == ("9h", "8c", "2h", "4c", "Js")
    assert hands_of(groups) == {frozenset({"3c", "Kh"}), frozenset({"Qs", "3s"})}


def test_a_river_card_off_the_line_by_a_misread_corner_stays_in_the_row() -> None:
    bent = {**TABLE, "2h": (440, 650)}  # half a card width off the row
    groups = group_cards(_at(bent), WIDTH)
    assert groups.river == ("9h", "8c", "2h", "4c", "Js")


def test_distances_are_measured_in_the_read_cards_width() -> None:
    from companion.vision.detector import card_width

    # A lone-card outline that was two touching cards made "typical" 150 px wide.
    assert card_width(_at(TABLE), typical=150.0) == pytest.approx(100.0)
    assert card_width(Detections.empty(), typical=150.0) == 150.0
    assert card_width(Detections.empty(), typical=None) == 1.0
