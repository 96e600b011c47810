"""In a real browser at phone size: a screenshot of the app itself, picked as the table's photo,
is refused with a message that says so; the table and the night's seats stay as they were."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e import browser
from tests.e2e.test_seats_browser import PLAYERS, hands_shown, seats_kept
from tests.helpers import FIXTURES
from tests.ui.showdown import photos

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

SCREENSHOT = FIXTURES / "app_screenshot_photo.jpg"


def test_a_screenshot_is_refused_and_the_seats_stay(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.start_night(page, PLAYERS)
        seats_kept(page, photos.scene(), tmp_path, "table")
        before = hands_shown(page, PLAYERS)
        browser.open_tab(page, "Game night", "Seated clockwise")
        seated = browser.seen(page, re.compile("^Seated clockwise")).inner_text()
        browser.open_tab(page, "Showdown", "Photo of the table")

        with page.expect_file_chooser() as chooser:
            browser.button(page, "Photo of the table").click()
        chooser.value.set_files(str(SCREENSHOT))
        said = browser.seen(page, re.compile("does not look like a table photo"))
        said.wait_for(timeout=60_000)
        assert said.inner_text() == (
            "app_screenshot_photo.jpg: this does not look like a table photo (mostly white page,"
            " its cards read with doubt: a screenshot?). Nothing was changed."
        )
        browser.screenshot(page, "not-a-table-01-refused")
        assert hands_shown(page, PLAYERS) == before
        assert not browser.seen(page, "Who sits where").is_visible()
        browser.open_tab(page, "Game night", "Seated clockwise")
        assert browser.seen(page, re.compile("^Seated clockwise")).inner_text() == seated
