"""In a real browser at phone size: a photo read and judged, its picture downloaded with one tap
under the verdict, then again from History once saved: the same photo with its reads drawn."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.share.picture import BANNER, PALETTE, RIVER_COLOUR, VAULT_COLOUR, WIDTH
from tests.e2e import browser
from tests.e2e.test_seats_browser import (
    PLAYERS,
    TOKENS,
    confirm_reads,
    give_tokens,
    order,
    save,
    upload,
)
from tests.ui.showdown import photos

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

PHOTO_END = BANNER + round(WIDTH * 640 / 960)  # the scene is 960x640


def _downloaded(page: object, name: str, folder: Path, shot: str) -> np.ndarray:
    """Tap the button ``name`` and read the file the browser gets (kept beside the shots)."""
    with page.expect_download() as download:  # type: ignore[attr-defined]
        browser.button(page, name).click()
    path = folder / download.value.suggested_filename
    download.value.save_as(path)
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert image is not None, path
    cv2.imwrite(str(browser.ARTIFACTS / f"{shot}.png"), image)
    return image


def _colour_pixels(image: np.ndarray, colour: tuple[int, int, int]) -> int:
    near = np.abs(image[BANNER:PHOTO_END].astype(int) - colour).max(axis=-1) <= 12
    return int(near.sum())


def test_the_verdict_s_picture_downloads_from_the_showdown_and_from_history(
    tmp_path: Path,
) -> None:
    data, port = tmp_path / "data", browser.free_port()
    hands = dict(zip(PLAYERS, photos.CLOCKWISE, strict=True))  # the first guess, clockwise
    offline: list[str] = []
    with browser.running_app(data, port) as url, browser.phone_page(url, offline) as page:
        browser.start_night(page, PLAYERS)
        upload(page, photos.scene(), tmp_path, "table")
        browser.tap(
            page, browser.button(page, "Keep these seats"), browser.seen(page, "Seats kept")
        )
        confirm_reads(page)
        browser.seen(page, TOKENS).wait_for()
        give_tokens(page, order(hands))
        browser.seen(page, "VAULT OPENS").wait_for()
        browser.seen(page, "Picture to share").wait_for()
        browser.scroll(page, 1500)
        browser.screenshot(page, "share-01-button")
        browser.scroll(page, -1500)

        shared = _downloaded(page, "Picture to share", tmp_path, "share-02-picture")
        assert shared.shape[1] == WIDTH and shared.shape[0] > PHOTO_END + 300
        band = np.abs(shared[:BANNER].astype(int) - VAULT_COLOUR).max(axis=-1) <= 10
        assert band.mean() > 0.6
        # Each player's hand outlined in its colour, the river in white, on the photo.
        for colour in (*PALETTE[:4], RIVER_COLOUR):
            assert _colour_pixels(shared, colour) > 300, colour

        save(page, 1)
        browser.open_tab(page, "History", "Heists")
        browser.button(page, "Heists").first.click()
        browser.seen(page, "Picture to share").wait_for()
        browser.screenshot(page, "share-03-history")
        saved = _downloaded(page, "Picture to share", tmp_path, "share-04-from-history")
        # The same photo and outlines: what the table saw is what History shares.
        assert np.array_equal(saved[BANNER:PHOTO_END], shared[BANNER:PHOTO_END])
    assert offline == [], offline
