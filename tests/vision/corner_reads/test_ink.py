"""The colour of a corner's index ink (``ink``) and the suits it rules out."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.vision import CardDetector
from companion.vision.corner_reads import cut
from companion.vision.corner_reads.ink import Ink, contradicts, ink_colours, ink_redness
from tests.helpers import FIXTURES

PAPER = (235, 240, 238)  # BGR, a slightly cold white


def _corner(ink: tuple[int, int, int], table: tuple[int, int, int] = (40, 40, 40)) -> np.ndarray:
    """A 56x40 corner crop: a rank glyph and a suit blob in ``ink`` on paper, the table
    showing along the crop's outer edges (a crop starts just outside the card)."""
    crop = np.full((56, 40, 3), PAPER, np.uint8)
    crop[:, :3] = table
    crop[:3, :] = table
    cv2.putText(crop, "K", (6, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.7, ink, 2)
    cv2.circle(crop, (12, 34), 5, ink, -1)
    return crop


@pytest.mark.parametrize(
    ("ink", "table", "want"),
    [
        ((30, 30, 200), (40, 40, 40), Ink.RED),  # red ink on black cloth
        ((20, 20, 20), (30, 30, 190), Ink.BLACK),  # black ink on red cloth
        ((20, 20, 20), (60, 110, 170), Ink.BLACK),  # on brown wood
        ((180, 60, 20), (40, 40, 40), Ink.UNKNOWN),  # a four-colour deck's blue diamond
        (PAPER, (40, 40, 40), Ink.UNKNOWN),  # no ink at all
    ],
)
def test_ink_colour_of_a_corner(
    ink: tuple[int, int, int], table: tuple[int, int, int], want: Ink
) -> None:
    assert ink_colours(_corner(ink, table)[None]).tolist() == [want]


def test_warm_light_leaves_red_red_and_black_black() -> None:
    warm = np.array([0.7, 0.9, 1.1])  # BGR gains: a tungsten cast
    crops = np.stack([_corner((30, 30, 200)), _corner((20, 20, 20))])
    tinted = np.clip(crops * warm, 0, 255).astype(np.uint8)
    assert ink_colours(tinted).tolist() == [Ink.RED, Ink.BLACK]


def test_the_inks_redness_leans_red_for_red_ink_near_zero_for_black_and_below_for_blue() -> None:
    dim = 0.55  # a dim corner, its red ink too pale for the clear-cut count
    crops = np.stack(
        [
            _corner((60, 60, 200)),
            _corner((25, 25, 25)),
            _corner((180, 60, 20)),
            _corner(PAPER),
            np.clip(_corner((110, 100, 190)) * dim, 0, 255).astype(np.uint8),
        ]
    )
    redness = ink_redness(crops)
    assert redness[0] > 0.3 and abs(redness[1]) < 0.05 and redness[2] < -0.3
    assert np.isnan(redness[3]) and redness[4] > 0.2
    assert ink_redness(crops[:0]).shape == (0,)


@pytest.mark.parametrize(
    ("suit", "ink", "contradicted"),
    [
        ("s", Ink.RED, True),
        ("c", Ink.RED, True),
        ("h", Ink.RED, False),
        ("d", Ink.BLACK, True),
        ("s", Ink.BLACK, False),
        ("d", Ink.UNKNOWN, False),
    ],
)
def test_which_suits_an_ink_rules_out(suit: str, ink: Ink, contradicted: bool) -> None:
    assert contradicts(suit, ink) is contradicted


@pytest.mark.slow
def test_right_reads_of_rendered_scenes_agree_with_their_ink() -> None:
    """On the fixture scenes no right read's suit is contradicted by its own ink, and most
    corners show an ink colour at all."""
    labels = json.loads((FIXTURES / "labels.json").read_text())
    detector = CardDetector()
    judged = total = 0
    for entry in labels:
        image = cv2.imread(str(FIXTURES / entry["image"]))
        reads = [r for r in detector.read_corners(image) if str(r.card) in entry["cards"]]
        inks = ink_colours(cut(image, [r.proposal for r in reads]))
        pairs = zip(reads, inks.tolist(), strict=True)
        assert not any(contradicts(str(r.card)[-1], k) for r, k in pairs)
        judged += int(np.sum(inks != Ink.UNKNOWN))
        total += len(reads)
    assert total > 20 and judged > total / 2
