import numpy as np
import pytest

from companion.vision import Detections
from companion.vision.grouping import group_cards

WIDTH = 100.0


def _at(cards: dict[str, tuple[float, float]]) -> Detections:
    codes = tuple(cards)
    centres = np.array([cards[c] for c in codes], np.float32)
    half = np.array([[-50, -70], [50, -70], [50, 70], [-50, 70]], np.float32)
    quads = centres[:, None, :] + half[None]
    return Detections(codes, np.full(len(codes), 0.9),
                      np.concatenate([quads.min(1), quads.max(1)], 1), quads)


TABLE = {  # a river of five 120 px apart and two overlapped hands far from it
    "9h": (200, 600), "8c": (320, 600), "2h": (440, 600), "4c": (560, 600), "Js": (680, 600),
    "3c": (150, 150), "Kh": (190, 170), "Qs": (700, 140), "3s": (740, 120),
}


def test_river_and_hands_of_a_table() -> None:
    groups = group_cards(_at(TABLE), WIDTH)
    assert groups.river == ("9h", "8c", "2h", "4c", "Js")
    assert {frozenset(h) for h in groups.hands} == {frozenset({"3c", "Kh"}), frozenset({"Qs", "3s"})}
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
