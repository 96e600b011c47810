"""The Spit layout: player 2's stocks, the spit piles, player 1's stocks."""

from __future__ import annotations

from contextlib import nullcontext as does_not_raise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.spit import VARIANTS, Turn
from companion.engine.spit.referee import PileView, Situation, referee, typed_position
from companion.errors import DuplicateCardError, PhotoLayoutError, TableError
from companion.vision.layouts.spit import read_spit, spit_position
from tests.helpers import cards
from tests.vision.layouts.builders import reads, spit_layout


@pytest.mark.parametrize(
    ("layout", "piles", "p1", "p2", "expectation"),
    [
        (
            ("Qh 5c Td 6s 3h", "7h Kc", "8d 2s - Ac 9c"),
            "7h Kc",
            "8d 2s Ac 9c",
            "Qh 5c Td 6s 3h",
            does_not_raise(),
        ),
        (("3h", "2c 2d", "-"), "", "", "", pytest.raises(PhotoLayoutError, match="in 2 rows")),
        (
            ("3h", "2c 2d Ks", "4h"),
            "",
            "",
            "",
            pytest.raises(PhotoLayoutError, match="middle row holds 3"),
        ),
        (
            ("3h", "2c", "4h"),
            "",
            "",
            "",
            pytest.raises(PhotoLayoutError, match=r"\(3♥ / 2♣ / 4♥\)"),
        ),
        (("", "", ""), "", "", "", pytest.raises(PhotoLayoutError, match="read 0 cards in 0 rows")),
    ],
)
def test_read_spit(
    layout: tuple[str, str, str], piles: str, p1: str, p2: str, expectation: Any
) -> None:
    with expectation:
        photo = read_spit(reads(*spit_layout(*layout)), "spit.jpg")
        assert tuple(seen.card for seen in photo.piles) == cards(piles)
        assert tuple(seen.card for seen in photo.stocks[0]) == cards(p1)
        assert tuple(seen.card for seen in photo.stocks[1]) == cards(p2)


@settings(max_examples=40, deadline=None)
@given(turn=st.floats(-0.6, 0.6), scale=st.floats(0.3, 4.0), order=st.randoms())
def test_spit_read_survives_a_turned_photo(turn: float, scale: float, order: Any) -> None:
    placed = spit_layout("Qh 5c Td 6s 3h", "7h Kc", "8d 2s Ac 9c")
    order.shuffle(placed)
    photo = read_spit(reads(*placed, turn=turn, scale=scale), "x")
    assert tuple(seen.card for seen in photo.piles) == cards("7h Kc")
    assert tuple(seen.card for seen in photo.stocks[0]) == cards("8d 2s Ac 9c")
    assert tuple(seen.card for seen in photo.stocks[1]) == cards("Qh 5c Td 6s 3h")


def test_spit_position_is_the_typed_position_of_what_was_read() -> None:
    photo = read_spit(reads(*spit_layout("Qh 5c", "7h Kc", "8d 2s Ac")), "x")
    rules = VARIANTS["classic"]
    typed = typed_position(
        rules,
        (PileView(cards("7h")[0]), PileView(cards("Kc")[0])),
        ([PileView(c) for c in cards("8d 2s Ac")], [PileView(c) for c in cards("Qh 5c")]),
        (2, 3),
    )
    assert spit_position(photo, rules, (2, 3)) == typed


def test_spit_position_from_a_stuck_photo_asks_both_to_spit() -> None:
    photo = read_spit(reads(*spit_layout("7d Ad Jh", "9s 4d", "Kh Jc 6c")), "x")
    ruling = referee(spit_position(photo, VARIANTS["classic"], (1, 1)))
    assert ruling.situation is Situation.BOTH_SPIT


@pytest.mark.parametrize(
    ("layout", "error"),
    [
        (("Qh 5c Td 6s 3h 2d", "7h Kc", "8d"), TableError),  # six stocks for player 2
        (
            ("Qh", "7h Kc", "Qh"),
            DuplicateCardError,
        ),  # never from the detector, which reads a code once
    ],
)
def test_spit_position_refuses_impossible_layouts(
    layout: tuple[str, str, str], error: type[Exception]
) -> None:
    placed = spit_layout(*layout)
    with pytest.raises(error):
        spit_position(read_spit(reads(*placed), "x"), VARIANTS["classic"], (1, 1))


def test_face_down_stock_tops_said_by_the_players_can_be_turned() -> None:
    photo = read_spit(reads(*spit_layout("7d Ad Jh", "9s 4d", "Kh Jc 6c")), "x")
    ruling = referee(spit_position(photo, VARIANTS["classic"], (1, 1), face_down=(0, 2)))
    assert ruling.situation is Situation.PLAY
    assert ruling.plays[1] == (Turn(1, 3), Turn(1, 4))
    with pytest.raises(TableError, match="player 1 has 6 stock piles"):
        spit_position(photo, VARIANTS["classic"], (1, 1), face_down=(3, 0))
