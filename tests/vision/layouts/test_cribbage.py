"""The cribbage show layout: four hand cards in a row, the starter apart."""

from __future__ import annotations

from contextlib import nullcontext as does_not_raise
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import PhotoLayoutError
from companion.vision import Detections
from companion.vision.layouts.cribbage import read_show
from companion.vision.layouts.places import unsure
from tests.helpers import cards
from tests.vision.layouts.builders import ABOVE, ROW, WIDTH, reads


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
        (ROW + [("5s", 580, 500)], "", "", pytest.raises(PhotoLayoutError, match="cannot tell")),
        # Two cards off the row.
        (
            ROW[:3] + [("Kc", 460, 200), ABOVE],
            "",
            "",
            pytest.raises(PhotoLayoutError, match="cannot tell"),
        ),
        (ROW, "", "", pytest.raises(PhotoLayoutError, match=r"read 4 cards \(4♣ 5♦ 6♥ K♣\)")),
        (
            ROW + [ABOVE, ("9s", 900, 100)],
            "",
            "",
            pytest.raises(PhotoLayoutError, match="read 6 cards"),
        ),
        ([], "", "", pytest.raises(PhotoLayoutError, match=r"read 0 cards \(—\)")),
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
    with pytest.raises(PhotoLayoutError) as caught:
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
        det.cards + ghost.cards,
        np.r_[det.confidence, ghost.confidence],
        np.r_[det.xyxy, ghost.xyxy],
        np.r_[det.quads, ghost.quads],
    )
    assert read_show(both, "x").starter.card == cards("5s")[0]


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
    det = Detections(det.cards, np.array(confidences), det.xyxy, det.quads)
    photo = read_show(det, "x")
    assert tuple(s.card for s in unsure(photo.seen)) == cards(flagged)
