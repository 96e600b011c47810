"""The verdict's picture from the Showdown screen and from History: the outlines saved with the
heist are where the real reader read the cards, the fixes followed; the buttons shown only where
the app can send a file."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.engine.cards import parse_card
from companion.share.picture import BANNER, WIDTH
from companion.storage import CardOutline
from companion.ui.history.actions import PICTURE, export_files, show_heists
from companion.ui.kit.photo.read import ShownPhoto, Spot
from companion.ui.kit.services import LazyDetector, Services
from companion.ui.night.actions import start_night
from companion.ui.shell.dispatch import run
from companion.ui.shell.navigation import open_screen
from companion.ui.shell.root import PageParts, root_view
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import load_photo, save_heist, save_seats
from companion.ui.showdown.outlines import photo_outlines
from companion.ui.showdown.share import table_picture
from companion.ui.showdown.state import RIVER, STRAY, ShowdownState
from tests.ui.screens import find, walk
from tests.ui.showdown import photos
from tests.ui.showdown.test_photo import PLAYERS, judged

READS = photos.SCENE.parent / "reads.json"


def _has(view: object, key: str) -> bool:
    return any(getattr(c, "key", None) == key for c in walk(view))


def _spot(x: float, at: tuple[int, int] | None, code: str) -> Spot:
    return Spot(((x, 10), (x + 20, 10), (x + 20, 40), (x, 40)), parse_card(code), False, at)


def test_outlines_are_fractions_of_the_photo_with_the_card_now_at_their_place() -> None:
    table = ShowdownState(("Ana", "Bob"), river=tuple(parse_card(c) for c in ("As", "Kd")))
    table = replace(
        table,
        hands=((parse_card("2c"), parse_card("3c")), ("x?",)),
        stray=(parse_card("9h"),),
        photo="0" * 64,
        read=ShownPhoto(
            b"",
            200,
            100,
            (
                _spot(0, (RIVER, 1), "Kd"),
                _spot(40, (0, 0), "2d"),  # read 2d, fixed to 2c by hand
                _spot(80, (1, 0), "4h"),  # typed over with text that is no card
                _spot(120, (STRAY, 0), "9h"),  # set aside: not in play
                _spot(160, None, "5s"),  # taken off the table
            ),
        ),
    )
    outlines = photo_outlines(table)
    assert [(o.card, o.place) for o in outlines] == [("Kd", "river"), ("2c", "Ana")]
    assert outlines[1].corners == ((0.2, 0.1), (0.3, 0.1), (0.3, 0.4), (0.2, 0.4))
    assert photo_outlines(replace(table, photo=None)) == ()


@pytest.fixture
def reading(services: Services) -> Services:
    return replace(services, detector=LazyDetector())


def test_a_read_photo_s_picture_and_its_saved_outlines_are_where_the_reader_read(
    reading: Services,
) -> None:
    state = run(start_night, AppState(lang="fr", table=ShowdownState(PLAYERS)), reading)
    state = run(load_photo(photos.jpeg(photos.scene())), state, reading)
    state = run(save_seats, state, reading)
    # A card the reader saw that is not on the table (a phantom): taken off by hand, as a
    # player fixes it, and then outlined nowhere.
    table = state.table
    phantoms = [
        (place, index)
        for place in table.places()
        for index, card in enumerate(table.cards_at(place))
        if str(card) not in photos.RIVER + sum(photos.HANDS, ())
    ]
    for place, index in reversed(phantoms):
        table = table.select(place, index).remove_selected()
    state = judged(state.with_table(table))
    seen = {h: p for h, p in zip(state.table.players, state.table.hands, strict=True)}

    # Before saving: the Showdown screen's picture, the verdict's band in green.
    name, png = table_picture(state.table, state.lang, reading) or ("", b"")
    assert name == "heist-vault.png"
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[1] == WIDTH and image[BANNER // 2, 4, 1] > 100
    view = root_view(state, print, PageParts(download=lambda kind, key: None))
    assert find(view, "share-picture") is not None
    assert not _has(root_view(state, print), "share-picture")  # no browser to send it to

    state = run(save_heist, state, reading)
    (heist,) = state.heists
    # Every card of the table outlined once, in its place: the river's or its player's.
    assert sorted(o.card for o in heist.outlines) == sorted(photos.RIVER + sum(photos.HANDS, ()))
    for outline in heist.outlines:
        if outline.place == CardOutline.RIVER:
            assert outline.card in photos.RIVER
        else:
            assert parse_card(outline.card) in seen[outline.place]
    # Where the shipped reader's recorded boxes are (``reads.json``, 960x640 pixels).
    recorded = json.loads(READS.read_text())["scene_0001.jpg"]["free"]["reads"]
    boxes = {r["card"]: r["box"] for r in recorded}
    for outline in heist.outlines:
        x0, y0, x1, y1 = boxes[outline.card]
        cx, cy = np.mean(outline.corners, axis=0) * (960, 640)
        assert abs(cx - (x0 + x1) / 2) < 12 and abs(cy - (y0 + y1) / 2) < 12, outline

    # From History: the same picture, its file named by night and heist.
    files = export_files(reading.log, PICTURE, heist.id, "fr")
    ((saved_name, saved_png),) = files.items()
    assert saved_name == f"night-{heist.night_id}-heist-1.png"
    again = cv2.imdecode(np.frombuffer(saved_png, np.uint8), cv2.IMREAD_COLOR)
    photo_end = BANNER + round(WIDTH * 640 / 960)
    assert np.array_equal(image[BANNER:photo_end], again[BANNER:photo_end])
    history = run(show_heists(heist.night_id), run(open_screen("history"), state, reading), reading)
    parts = PageParts(download=lambda kind, key: None)
    assert find(root_view(history, print, parts), "share-1") is not None
    assert not _has(root_view(history, print), "share-1")
