"""In a real browser at phone size: a 12-megapixel phone photo picked on the Showdown screen
shows its cards (how long it takes is the benchmark's: ``photo_read.py --app --browser``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e import browser
from tests.e2e.test_seats_browser import PHOTO_LABEL, PLAYERS, hands_shown
from tests.ui.showdown import photos
from tests.ui.showdown.test_phone_photo import phone_jpeg

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]


def test_a_twelve_megapixel_photo_shows_its_cards(tmp_path: Path) -> None:
    photo = tmp_path / "IMG_0001.jpg"
    photo.write_bytes(phone_jpeg())
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.start_night(page, PLAYERS)
        with page.expect_file_chooser() as chooser:
            browser.button(page, "Photo of the table").click()
        chooser.value.set_files(str(photo))
        browser.seen(page, re.compile("13 cards read")).wait_for(timeout=120000)
        page.get_by_text(PHOTO_LABEL).first.wait_for(timeout=30000)
        browser.screenshot(page, "phone-photo-01-read")
        shown = sorted(tuple(sorted(cards)) for cards in hands_shown(page, PLAYERS).values())
        assert shown == sorted(tuple(sorted(hand)) for hand in photos.HANDS), shown
        # Read once taken: nothing of the upload is left behind.
        assert not any((data / "uploads").iterdir())
