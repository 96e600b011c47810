"""A 12-megapixel phone photo through the app's real path (decode, keep, read, the photo drawn
for the page): the cards of the scene, the photo kept as sent, and the page's copy small and
upright, also when the phone stored it turned with an EXIF orientation."""

from __future__ import annotations

import struct
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.ui.kit.services import LazyDetector, Services
from companion.ui.shell.dispatch import run
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import SHOWN_WIDTH, load_photo
from companion.ui.showdown.state import ShowdownState
from tests.ui.showdown import photos

PLAYERS = ("Ana", "Bob", "Chloé", "Dan")
TWELVE_MP = (4242, 2828)  # the scene's 3:2, about 12 million pixels


def phone_jpeg(size: tuple[int, int] = TWELVE_MP, sideways: bool = False) -> bytes:
    """The rendered scene as a phone saves it: at ``size``, with a sensor's grain (a smooth
    picture would compress to a fraction of a phone photo's bytes). ``sideways``: its pixels
    stored turned a quarter, with the EXIF orientation (6) that says to turn them back, as a
    phone held upright writes them."""
    big = cv2.resize(photos.scene(), size, interpolation=cv2.INTER_CUBIC)
    grain = np.random.default_rng(0).normal(0, 4, big.shape)
    pixels = np.clip(big + grain, 0, 255).astype(np.uint8)
    if not sideways:
        return photos.jpeg(pixels)
    data = photos.jpeg(cv2.rotate(pixels, cv2.ROTATE_90_COUNTERCLOCKWISE))
    # One TIFF entry: Orientation (0x0112), a SHORT, value 6 (turn 90 degrees clockwise).
    tiff = b"II*\x00" + struct.pack("<IHHHII", 8, 1, 0x0112, 3, 1, 6) + b"\x00" * 4
    exif = b"\xff\xe1" + struct.pack(">H", len(tiff) + 8) + b"Exif\x00\x00" + tiff
    return data[:2] + exif + data[2:]


@pytest.fixture
def reading(services: Services) -> Services:
    reader = LazyDetector()
    if reader.loaded() is None:
        pytest.skip(f"the card reader is unavailable: {reader.unavailable}")
    return replace(services, detector=reader)


@pytest.mark.parametrize("sideways", [False, True])
def test_a_twelve_megapixel_photo_shows_its_cards_from_a_small_page_photo(
    reading: Services, sideways: bool
) -> None:
    data = phone_jpeg(sideways=sideways)
    assert len(data) > 2 * 2**20  # as heavy as a phone's photo
    state = AppState(table=ShowdownState(PLAYERS))
    shown = run(load_photo(data, "IMG_0001.jpg"), state, reading)

    table = shown.table
    assert table.read is not None, shown.banner
    # The scene's cards, each hand where the reader grouped it (labels.json, not the reader).
    assert [str(c) for c in table.river] == list(photos.RIVER)
    hands = {tuple(sorted(str(c) for c in held)) for held in table.hands}
    assert hands == {tuple(sorted(hand)) for hand in photos.HANDS}
    # The photo is kept as the phone sent it; the page gets a small copy, upright (turned
    # as its EXIF says), outlines scaled.
    assert table.photo is not None
    assert reading.log.photo_path(table.photo).read_bytes() == data
    read = table.read
    assert (read.width, read.height) == (SHOWN_WIDTH, round(TWELVE_MP[1] * SHOWN_WIDTH / 4242))
    assert len(read.image) < 250 * 1024
    page = cv2.imdecode(np.frombuffer(read.image, np.uint8), cv2.IMREAD_COLOR)
    assert page.shape[:2] == (read.height, read.width)
    for spot in read.spots:
        assert all(0 <= x <= read.width and 0 <= y <= read.height for x, y in spot.quad)


def test_a_photo_that_is_not_one_is_refused_and_nothing_is_kept(reading: Services) -> None:
    state = AppState(table=ShowdownState(PLAYERS))
    shown = run(load_photo(b"\xff\xd8\xff" + b"\x00" * 5000, "IMG_0002.jpg"), state, reading)
    assert shown.banner is not None and "IMG_0002.jpg" in shown.banner.text("en")
    assert shown.table.read is None and shown.table.photo is None
    assert not any(reading.log.photos.folder.iterdir())
