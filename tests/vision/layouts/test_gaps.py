"""Where a told table's missing cards should lie (``layouts.gaps``, ``Grouping.gaps``): beside a
short hand's card, in the gap of a river's row or at its ends, unknown for a place not found."""

import json
import math

import numpy as np
import pytest

from companion.vision import CardDetector, Detections, load_image
from companion.vision.layouts.expect import Expect, parse_expect
from companion.vision.layouts.gang import PAIR_REACH, Grouping, group_table
from companion.vision.layouts.gaps import RIVER_REACH, CardPlace, Gap
from companion.vision.layouts.read import read_layout
from companion.vision.training.evaluate import expect_of
from tests.helpers import FIXTURES
from tests.vision.layouts.builders import WIDTH, reads

# A river of five 120 px apart at y=200, and four hands of two below it.
RIVER = [("Ah", 200, 200), ("Kd", 320, 200), ("7c", 440, 200), ("5s", 560, 200), ("2h", 680, 200)]
HANDS = [
    ("9s", 150, 500),
    ("9d", 190, 520),
    ("Jc", 350, 500),
    ("Js", 390, 520),
    ("3c", 550, 500),
    ("4d", 590, 520),
    ("Tc", 750, 500),
    ("Th", 790, 520),
]
TABLE = Expect(5, 4, 2)


def _within(place: CardPlace, x: float, y: float) -> bool:
    return math.hypot(place.x - x, place.y - y) <= place.radius


def _without(*codes: str, turn: float = 0.0) -> tuple[Detections, Grouping]:
    placed = [p for p in RIVER + HANDS if p[0] not in codes]
    found = reads(*placed, turn=turn)
    return found, group_table(found, TABLE)


def _turned(x: float, y: float, turn: float) -> tuple[float, float]:
    c, s = math.cos(turn), math.sin(turn)
    return c * x - s * y, s * x + c * y


def test_a_full_table_and_a_table_read_without_a_layout_have_no_gaps() -> None:
    assert _without()[1].gaps == ()
    assert group_table(reads(*RIVER[:4])).gaps == ()


@pytest.mark.parametrize("turn", [0.0, 0.4, math.pi / 2])
@pytest.mark.parametrize("code", ["Kd", "7c", "5s"])
def test_a_river_card_missing_inside_the_row_is_in_its_gap(code: str, turn: float) -> None:
    _, groups = _without(code, turn=turn)
    x, y = next((x, y) for c, x, y in RIVER if c == code)
    assert groups.gaps[0].hand is None and groups.gaps[0].count == 1
    first = groups.gaps[0].places[0]
    assert _within(first, *_turned(x, y, turn)) and first.radius == pytest.approx(
        RIVER_REACH * WIDTH
    )
    # Its outline: its neighbour's, moved along the row.
    assert first.quad is not None
    assert np.mean(first.quad, axis=0) == pytest.approx(_turned(x, y, turn), abs=1e-3)


@pytest.mark.parametrize("code", ["Ah", "2h"])
def test_a_river_card_missing_at_an_end_is_at_one_of_the_rows_ends(code: str) -> None:
    _, groups = _without(code)
    x, y = next((x, y) for c, x, y in RIVER if c == code)
    (gap,) = groups.gaps
    assert gap.count == 1 and len(gap.places) == 2
    assert sum(_within(place, x, y) for place in gap.places) == 1


def test_an_end_off_the_photo_comes_after_the_end_on_it() -> None:
    # The river moved left: Ah at x=60, the place before it at x=-60, off the photo.
    river = [(c, x - 140, y) for c, x, y in RIVER if c != "2h"]
    found = reads(*river, *HANDS)
    framed = Detections(found.cards, found.confidence, found.xyxy, found.quads, frame=(900, 700))
    (gap,) = group_table(framed, TABLE).gaps
    assert [round(p.x) for p in gap.places] == [540, -60]
    (unknown,) = group_table(found, TABLE).gaps  # no frame known: the row's order
    assert [round(p.x) for p in unknown.places] == [-60, 540]


def test_two_river_cards_missing_fill_the_gaps_then_the_ends() -> None:
    _, groups = _without("Kd", "2h")
    (gap,) = groups.gaps
    assert gap.count == 2
    assert _within(gap.places[0], 320, 200)  # the gap in the row first
    assert any(_within(place, 680, 200) for place in gap.places[1:])


def test_a_hand_short_of_a_card_has_it_beside_its_card() -> None:
    _, groups = _without("Js")
    (gap,) = groups.gaps
    assert gap.hand is not None and gap.count == 1 and len(gap.places) == 1
    assert [str(s.card) for s in groups.hands[gap.hand]] == ["Jc"]  # the hand as grouped
    place = gap.places[0]
    assert (place.x, place.y) == (350, 500) and place.radius == pytest.approx(PAIR_REACH * WIDTH)
    assert _within(place, 390, 520) and place.quad is None


def test_a_hand_not_found_has_no_place_and_says_so() -> None:
    _, groups = _without("Tc", "Th")
    (gap,) = groups.gaps
    assert gap == Gap(3, 2, ())  # past the three hands found: anywhere on the photo


def test_a_table_with_no_card_read_has_every_place_unknown() -> None:
    groups = group_table(Detections.empty(), Expect(5, 2, 2))
    assert groups.gaps == (Gap(None, 5, ()), Gap(0, 2, ()), Gap(1, 2, ()))


LABELS = json.loads((FIXTURES / "labels.json").read_text())
TABLES = [e for e in LABELS if e["groups"]]


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


@pytest.mark.parametrize("entry", TABLES, ids=[e["image"] for e in TABLES])
def test_each_card_taken_from_a_read_table_is_looked_for_where_it_lay(
    detector: CardDetector, entry: dict
) -> None:
    # The fixture tables read whole, then each card removed in turn: the table's gap has a
    # place over the removed card's centre (a river's end among two), for every card but one
    # whose partner, left alone at the photo's edge, is taken for a stray card: its hand is
    # then not found, and its gap has no place.
    expect = expect_of(entry["groups"])
    table = read_layout(detector, load_image(FIXTURES / entry["image"]), expect)
    found = table.detections
    assert table.grouping.fits
    placed = 0
    for i in range(len(found)):
        groups = group_table(found[np.arange(len(found)) != i], expect)
        x, y = found.centres[i]
        if groups.stray:
            assert [(g.count, g.places) for g in groups.gaps] == [(expect.per_hand, ())]
            continue
        (gap,) = groups.gaps
        assert gap.count == 1 and gap.places, (found.cards[i], gap)
        assert any(_within(place, x, y) for place in gap.places[:2]), (found.cards[i], gap)
        placed += 1
    assert placed >= len(found) - 1


def test_a_layout_parsed_as_text_gives_the_same_gaps() -> None:
    assert _without("Kd")[1].gaps == group_table(_without("Kd")[0], parse_expect("5+4x2")).gaps
