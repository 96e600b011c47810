"""A read's evidence (``evidence``): its index corner and face cut upright and enlarged from the
photo, as a doubt shows them to a player."""

import json

import cv2
import numpy as np
import pytest

from companion.vision import CardDetector, Detections, load_image
from companion.vision.base import geometry
from companion.vision.evidence import FACE_HEIGHT, INDEX_HEIGHT, ReadCrops, cut_quad, read_crops
from tests.helpers import FIXTURES, cards

LABELS = json.loads((FIXTURES / "labels.json").read_text())
SCENES = [e["image"] for e in LABELS if e["cards"]]


def _card(angle: float, width: float = 120.0) -> tuple[np.ndarray, np.ndarray]:
    """A white card on a grey table, a black mark at its index (0.1..0.2 card widths from the
    top left corner), turned by ``angle`` degrees; the image and the card's top left frame
    (p, u, v)."""
    image = np.full((400, 400, 3), 90, np.uint8)
    a = np.deg2rad(angle)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    p = np.array([200.0, 200.0]) - width * (0.5 * u + 0.7 * v)

    def at(x: float, y: float) -> list[float]:
        return list(p + width * (x * u + y * v))

    card = np.array([at(0, 0), at(1, 0), at(1, 1.4), at(0, 1.4)], np.float32)
    mark = np.array([at(0.1, 0.1), at(0.2, 0.1), at(0.2, 0.2), at(0.1, 0.2)], np.float32)
    cv2.fillConvexPoly(image, np.round(card).astype(np.int32), (255, 255, 255))
    cv2.fillConvexPoly(image, np.round(mark).astype(np.int32), (0, 0, 0))
    return image, np.array([p, u, v])


def _index_quad(frame: np.ndarray, width: float = 120.0) -> np.ndarray:
    p, u, v = frame
    return geometry.extent_quads(p, u, v, np.array([width]), geometry.CORNER)[0]


@pytest.mark.parametrize("angle", [0.0, 33.0, 90.0, 180.0, 250.0])
def test_an_index_crop_stands_upright_and_enlarged_whichever_way_the_card_lies(
    angle: float,
) -> None:
    image, frame = _card(angle)
    crop = cut_quad(image, _index_quad(frame), 240)
    assert crop is not None and crop.shape == (240, 172, 3)  # 0.38 x 0.53 card widths
    (x0, x1), (y0, y1) = geometry.CORNER

    def pixel(x: float, y: float) -> np.ndarray:
        return crop[int((y - y0) / (y1 - y0) * 240), int((x - x0) / (x1 - x0) * 172)]

    assert pixel(0.15, 0.15).max() < 60  # the mark, at the top left
    assert pixel(0.3, 0.4).min() > 200 and pixel(0.15, 0.35).min() > 200  # paper beside it
    assert pixel(-0.02, 0.3).max() < 120  # outside the card: the table


def test_unknown_or_flat_quads_cut_nothing_and_a_quad_beyond_the_photo_is_black() -> None:
    image, frame = _card(0.0)
    assert cut_quad(image, np.full((4, 2), np.nan), 100) is None
    assert cut_quad(image, np.zeros((4, 2)), 100) is None
    beyond = cut_quad(image, _index_quad(frame) + 1000, 100)
    assert beyond is not None and beyond.shape == (100, 72, 3) and not beyond.any()
    half = cut_quad(image, _index_quad(frame) - [170, 0], 100)  # its left part off the photo
    assert half is not None and not half[:, :10].any() and half[:, -10:].min() > 0


def test_a_crop_shrunk_from_a_big_photo_averages_fine_detail() -> None:
    # A fine checkerboard far below the picture's pixel size averages to grey, not aliased.
    board = np.dstack([(np.indices((3000, 3000)).sum(axis=0) % 2 * 255).astype(np.uint8)] * 3)
    quad = np.array([[500, 500], [1500, 500], [1500, 2000], [500, 2000]], np.float64)
    crop = cut_quad(board, quad, 150)
    assert crop is not None and crop.shape == (150, 100, 3)
    assert abs(float(crop.mean()) - 127.5) < 10 and float(crop.std()) < 10


def test_a_read_without_crops_has_none_and_a_row_past_the_read_is_an_error() -> None:
    det = Detections(cards("As"), np.ones(1), np.zeros((1, 4)), np.zeros((1, 4, 2)))
    image = np.zeros((50, 50, 3), np.uint8)
    assert read_crops(image, det, 0) == ReadCrops(None, None)
    with pytest.raises(IndexError, match="no card 1: the read has 1"):
        read_crops(image, det, 1)


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


@pytest.mark.parametrize("scene", SCENES)
def test_the_index_crops_cut_for_a_player_read_as_the_card_read(
    detector: CardDetector, scene: str
) -> None:
    # Shrunk back to the reader's size, each enlarged index crop is read by the corner model as
    # the card it shows: upright, and framing the index a player judges.
    image = load_image(FIXTURES / scene)
    found = detector.detect(image)
    assert len(found)
    shown = [read_crops(image, found, i) for i in range(len(found))]
    assert all(c.index is not None and c.index.shape[0] == INDEX_HEIGHT for c in shown)
    assert all(c.face is not None and c.face.shape[0] == FACE_HEIGHT for c in shown)
    small = np.array(
        [
            cv2.resize(c.index, (geometry.CROP_W, geometry.CROP_H), interpolation=cv2.INTER_AREA)
            for c in shown
            if c.index is not None
        ]
    )
    rank, suit = detector.reader.classify(small)
    reader = detector.reader
    read = [
        reader.ranks[r] + reader.suits[s] if r < len(reader.ranks) else "-"
        for r, s in zip(rank.argmax(axis=1), suit.argmax(axis=1), strict=True)
    ]
    same = sum(code == str(card) for code, card in zip(read, found.cards, strict=True))
    assert same >= 0.8 * len(found), (read, [str(c) for c in found.cards])
