"""The shared picture of a saved heist, opened and checked: two heists of a real SQLite log
with the fixture photos, the reader's recorded outlines and the engine's verdicts."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.share.picture import (
    ALARM_COLOUR,
    BANNER,
    PALETTE,
    RIVER_COLOUR,
    VAULT_COLOUR,
    WIDTH,
    correct_order,
    heist_picture,
)
from companion.storage import CardOutline, Heist, SqliteGameLog
from companion.storage.model import thaw
from tests.share.heists import IMAGES, VAULT, draft, save_two_heists


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Heist, Heist]:
    data = tmp_path_factory.mktemp("data")
    vault, alarm = save_two_heists(data)
    return data, vault, alarm


def _picture(data: Path, heist: Heist, lang: str) -> np.ndarray:
    with SqliteGameLog.in_folder(data, for_reading=True) as log:
        (again,) = [h for h in log.heists(heist.night_id) if h.id == heist.id]
        assert heist.photo is not None
        png = heist_picture(again, lang, log.photos.read(heist.photo))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    return image


def _near(pixels: np.ndarray, colour: tuple[int, int, int], tolerance: int = 40) -> np.ndarray:
    return np.abs(pixels.astype(int) - colour).max(axis=-1) <= tolerance


def _edge_points(corners: np.ndarray, per_edge: int = 12) -> np.ndarray:
    """Points along the four edges of a quad, corners left out (lines meet there)."""
    t = np.linspace(0.15, 0.85, per_edge)[:, None]
    return np.concatenate(
        [a + t * (b - a) for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True)]
    )


@pytest.mark.parametrize("which", ["vault", "alarm"])
def test_each_read_card_s_outline_is_drawn_where_it_was_read_in_its_owner_s_colour(
    saved: tuple[Path, Heist, Heist], which: str
) -> None:
    data, vault, alarm = saved
    heist = vault if which == "vault" else alarm
    image = _picture(data, heist, "en")
    photo_w, photo_h = WIDTH, round(WIDTH * 640 / 960)  # the fixture photos are 960x640
    hands = list(heist.hands)
    by_token = sorted(hands, key=lambda hid: heist.tokens[hid])
    assert len(heist.outlines) == len(heist.river) + sum(len(c) for c in heist.hands.values())
    for outline in heist.outlines:
        if outline.place == CardOutline.RIVER:
            colour = RIVER_COLOUR
        else:
            colour = PALETTE[hands.index(outline.place) % len(PALETTE)]
        corners = np.array(outline.corners) * (photo_w, photo_h) + (0, BANNER)
        points = np.round(_edge_points(corners)).astype(int)
        drawn = _near(image[points[:, 1], points[:, 0]], colour)
        assert drawn.mean() >= 0.6, (outline.card, outline.place, drawn.mean())
    assert by_token  # the hands are listed by token under the photo (read by eye below)


def test_the_verdict_band_and_its_reasons_are_drawn_in_the_verdict_s_colour(
    saved: tuple[Path, Heist, Heist],
) -> None:
    data, vault, alarm = saved
    for heist, colour in ((vault, VAULT_COLOUR), (alarm, ALARM_COLOUR)):
        image = _picture(data, heist, "fr")
        height, width = image.shape[:2]
        assert width == WIDTH and 900 < height < 2400
        band = image[:BANNER]
        assert _near(band, colour, 10).mean() > 0.6  # the band's colour...
        assert _near(band, (255, 255, 255), 30).sum() > 2000  # ...with its title in white
        below = image[BANNER + round(WIDTH * 640 / 960) :]
        # The reasons (alarm) or "every token in its place" (vault), in the verdict's colour.
        assert _near(below, colour, 30).sum() > (8000 if heist is alarm else 2000)


def test_the_picture_s_words_follow_the_language(saved: tuple[Path, Heist, Heist]) -> None:
    data, _, alarm = saved
    english, french = _picture(data, alarm, "en"), _picture(data, alarm, "fr")
    photo_end = BANNER + round(WIDTH * 640 / 960)
    assert np.array_equal(english[BANNER:photo_end, :200], french[BANNER:photo_end, :200])
    assert not np.array_equal(english[:BANNER], french[:BANNER])


def test_a_typed_heist_is_drawn_with_its_cards_as_tiles() -> None:
    png = heist_picture(draft(VAULT, None), "en", None)
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[1] == WIDTH and 400 < image.shape[0] < 1200
    # 13 tiles (5 river cards, 4 hands of 2) with their light grey faces.
    tiles = _near(image[BANNER:], (245, 245, 245), 2)
    count, _ = cv2.connectedComponents(tiles.astype(np.uint8))
    assert count - 1 >= 13


@pytest.mark.parametrize(
    "photo",
    [
        (IMAGES / "table.heic").read_bytes(),
        (IMAGES / "scene_0001.jpg").read_bytes()[:600],  # cut short
        b"\x89PNG\r\n\x1a\n" + b"\x00" * 64,  # a PNG signature and nothing
        b"",
    ],
    ids=["heic", "cut jpeg", "empty png", "no bytes"],
)
def test_a_photo_opencv_cannot_decode_leaves_the_tiles_alone(photo: bytes) -> None:
    typed = heist_picture(draft(VAULT, None), "en", None)
    assert heist_picture(draft(VAULT, None), "en", photo) == typed


def test_ten_players_and_a_name_longer_than_the_line_stay_inside_the_picture() -> None:
    long = "Anne-Sophie de la Fontaine-Beaumarchais et du Grand Chemin des Oliviers Bleus"
    names = [
        long,
        "Bob",
        "Chloé",
        "Dan",
        "Ève",
        "François-Xavier",
        "Gaëlle",
        "Hélène",
        "Iñès",
        "Jo",
    ]
    deck = [r + s for s in "shdc" for r in "23456789TJQKA"]
    board = "2h 7d 9s Jc Kd"
    free = [c for c in deck if c not in board.split()]
    players = [{"name": n, "cards": " ".join(free[2 * i : 2 * i + 2])} for i, n in enumerate(names)]
    tokens = {n: i + 1 for i, n in enumerate(reversed(names))}
    table = {"variant": "classic", "board": board, "players": players, "tokens": tokens}
    heist = draft(table, None)
    assert len(heist.verdict.failures) > 3
    png = heist_picture(heist, "fr", None)
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    ink = (image[BANNER:] < 200).any(axis=-1)
    columns = np.nonzero(ink.any(axis=0))[0]
    assert columns.min() >= 20 and columns.max() <= WIDTH - 20  # nothing runs off an edge
    # Every hand's tiles drawn: 5 river cards and 20 hole cards, each a light grey face.
    tiles = (np.abs(image[BANNER:].astype(int) - 245).max(axis=-1) <= 2).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(tiles)
    assert sum(1 for s in stats[1:] if s[cv2.CC_STAT_AREA] > 600) >= 25


def test_the_correct_order_is_judged_again_from_the_saved_deal(
    saved: tuple[Path, Heist, Heist],
) -> None:
    _, vault, alarm = saved
    # Board A♥ 10♣ 4♦ 4♠ 3♦: Chloé (7♠ 8♠) and Zoë (8♦ 2♠) both play 4 4 A 10 8, Bob two pair.
    assert [set(group) for group in correct_order(alarm) or ()] == [{"Chloé", "Zoë"}, {"Bob"}]
    # Board 9♥ 9♠ 6♦ Q♣ 10♥: Ana nines and twos; Chloé (6♣ 8♠) and Zoë (4♣ 6♠) both nines and
    # sixes, queen kicker (tied: either token is right); Bob's K♦ J♥ a straight to the king.
    order = correct_order(vault) or ()
    assert [set(group) for group in order] == [{"Ana"}, {"Chloé", "Zoë"}, {"Bob"}]
    assert correct_order(dataclasses.replace(alarm.draft(), deal=None)) is None
    broken = {**thaw(alarm.deal), "players": [{"name": "Bob", "cards": "Ad Ad"}]}
    assert correct_order(dataclasses.replace(alarm.draft(), deal=broken)) is None
