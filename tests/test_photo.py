"""Reading a show and a Spit layout from where the detector says each card lies."""

from __future__ import annotations

import math
from contextlib import nullcontext as does_not_raise
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.spit import VARIANTS, Turn
from companion.engine.spit_referee import PileView, Situation, referee, typed_position
from companion.errors import DuplicateCardError, TableError
from companion.photo import read_show, read_spit, spit_position, unsure
from companion.vision import Detections
from tests.helpers import cards

WIDTH = 100.0  # card width in these made-up photos, pixels


def reads(
    *placed: tuple[str, float, float],
    turn: float = 0.0,
    scale: float = 1.0,
    shift: tuple[float, float] = (0.0, 0.0),
    conf: float = 0.9,
) -> Detections:
    """Detections of upright cards centred at (x, y), the whole photo turned/scaled/shifted."""
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    corners = np.array([[-0.5, -0.7], [0.5, -0.7], [0.5, 0.7], [-0.5, 0.7]]) * WIDTH
    quads = []
    for _, x, y in placed:
        quad = (corners + [x, y]) @ rot.T * scale + shift
        quads.append(quad)
    quads_a = np.array(quads).reshape(-1, 4, 2)
    boxes = np.concatenate([quads_a.min(axis=1), quads_a.max(axis=1)], axis=1)
    codes = tuple(code for code, _, _ in placed)
    return Detections(codes, np.full(len(codes), conf), boxes, quads_a)


# A hand in a row at y=500, 120 px apart; the starter above it, on the deck.
ROW = [("4c", 100, 500), ("5d", 220, 500), ("6h", 340, 500), ("Kc", 460, 500)]
ABOVE = ("5s", 280, 250)


@pytest.mark.parametrize(
    ("placed", "hand", "starter", "expectation"),
    [
        (ROW + [ABOVE], "4c 5d 6h Kc", "5s", does_not_raise()),
        ([ABOVE] + ROW[::-1], "4c 5d 6h Kc", "5s", does_not_raise()),  # any read order
        (ROW + [("5s", 280, 750)], "4c 5d 6h Kc", "5s", does_not_raise()),  # below the row
        (ROW + [("5s", 800, 500)], "4c 5d 6h Kc", "5s", does_not_raise()),  # past its end
        # A hand spread in a row, each card half over the last.
        (
            [(c, 300 + 55 * k, 500 + 3 * k) for k, c in enumerate("Jh 5h 6h 7h".split())]
            + [("5c", 330, 250)],
            "Jh 5h 6h 7h",
            "5c",
            does_not_raise(),
        ),
        # Centres as the detector gave them on a rendered show: uneven gaps, a slanted row.
        (
            [
                (c, x * 100 / 149, y * 100 / 149)
                for c, x, y in [
                    ("3s", 589, 227),
                    ("Kc", 606, 544),
                    ("Kd", 424, 541),
                    ("Jh", 789, 554),
                    ("Ac", 188, 489),
                ]
            ],
            "Ac Kd Kc Jh",
            "3s",
            does_not_raise(),
        ),
        # Five cards evenly in a row: no card is apart.
        (ROW + [("5s", 580, 500)], "", "", pytest.raises(TableError, match="cannot tell")),
        # Two cards off the row.
        (
            ROW[:3] + [("Kc", 460, 200), ABOVE],
            "",
            "",
            pytest.raises(TableError, match="cannot tell"),
        ),
        (ROW, "", "", pytest.raises(TableError, match=r"read 4 cards \(4♣ 5♦ 6♥ K♣\)")),
        (ROW + [ABOVE, ("9s", 900, 100)], "", "", pytest.raises(TableError, match="read 6 cards")),
        ([], "", "", pytest.raises(TableError, match=r"read 0 cards \(—\)")),
    ],
)
def test_read_show(
    placed: list[tuple[str, float, float]], hand: str, starter: str, expectation: Any
) -> None:
    with expectation:
        photo = read_show(reads(*placed), "table.jpg")
        assert photo.cards == cards(hand)
        assert photo.starter.card == cards(starter)[0]


def test_show_errors_name_the_file_in_both_languages() -> None:
    with pytest.raises(TableError) as caught:
        read_show(reads(*ROW), "photos/hand.jpg")
    assert caught.value.message("en").startswith("photos/hand.jpg: read 4 cards")
    assert caught.value.message("fr").startswith("photos/hand.jpg : 4 cartes lues")


@settings(max_examples=60, deadline=None)
@given(
    turn=st.floats(-0.5, 0.5),
    scale=st.floats(0.3, 4.0),
    shift=st.tuples(st.floats(-500, 500), st.floats(-500, 500)),
    order=st.permutations(range(5)),
)
def test_show_read_does_not_depend_on_framing_or_read_order(
    turn: float, scale: float, shift: tuple[float, float], order: list[int]
) -> None:
    placed = ROW + [ABOVE]
    photo = read_show(reads(*[placed[i] for i in order], turn=turn, scale=scale, shift=shift), "x")
    assert photo.cards == cards("4c 5d 6h Kc")
    assert photo.starter.card == cards("5s")[0]


def test_two_reads_at_one_place_keep_the_surer() -> None:
    """One card misread through its two corners gives two codes at one place."""
    det = reads(*ROW, ABOVE)
    # As seen on a rendered Spit photo: 3♣ (83 %) and 3♠ (58 %), 0.29 card widths apart.
    ghost = reads(("5c", 280 + 0.3 * WIDTH, 250 - 0.1 * WIDTH), conf=0.6)
    both = Detections(
        det.codes + ghost.codes,
        np.r_[det.confidence, ghost.confidence],
        np.r_[det.xyxy, ghost.xyxy],
        np.r_[det.quads, ghost.quads],
    )
    assert read_show(both, "x").starter.card == cards("5s")[0]


def spit_layout(
    top: str, middle: str, bottom: str, dy: float = 250
) -> list[tuple[str, float, float]]:
    """Rows of cards (``-`` leaves a space), 130 px apart, centred on x=400, y=400."""
    placed = []
    for row, text in zip((-1, 0, 1), (top, middle, bottom), strict=True):
        tokens = text.split()
        for k, token in enumerate(tokens):
            if token != "-":
                placed.append((token, 400 + (k - (len(tokens) - 1) / 2) * 130, 400 + row * dy))
    return placed


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
        (("3h", "2c 2d", "-"), "", "", "", pytest.raises(TableError, match="in 2 rows")),
        (("3h", "2c 2d Ks", "4h"), "", "", "", pytest.raises(TableError, match="three rows")),
        (("3h", "2c", "4h"), "", "", "", pytest.raises(TableError, match=r"\(3♥ / 2♣ / 4♥\)")),
        (("", "", ""), "", "", "", pytest.raises(TableError, match="read 0 cards in 0 rows")),
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


@pytest.mark.parametrize(
    ("confidences", "flagged"),
    [
        ((0.99, 0.95, 0.9, 0.85, 0.81), ""),
        ((0.99, 0.62, 0.9, 0.79, 0.95), "5d Kc"),  # least sure first
        ((0.8, 0.8, 0.8, 0.8, 0.8), ""),  # the threshold itself is sure enough
    ],
)
def test_unsure_reads_are_pointed_out(confidences: tuple[float, ...], flagged: str) -> None:
    det = reads(*ROW, ABOVE)
    det = Detections(det.codes, np.array(confidences), det.xyxy, det.quads)
    photo = read_show(det, "x")
    assert tuple(s.card for s in unsure(photo.seen)) == cards(flagged)


def test_face_down_stock_tops_said_by_the_players_can_be_turned() -> None:
    photo = read_spit(reads(*spit_layout("7d Ad Jh", "9s 4d", "Kh Jc 6c")), "x")
    ruling = referee(spit_position(photo, VARIANTS["classic"], (1, 1), face_down=(0, 2)))
    assert ruling.situation is Situation.PLAY
    assert ruling.plays[1] == (Turn(1, 3), Turn(1, 4))
    with pytest.raises(TableError, match="player 1 has 6 stock piles"):
        spit_position(photo, VARIANTS["classic"], (1, 1), face_down=(3, 0))
