"""In a real browser at phone size: a night ended, then the same group's next night, whose
first photo (taken turned) gives the hands by the seats told on the first night."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e import browser
from tests.e2e.test_seats_browser import PLAYERS, hands_shown, seats_kept, upload
from tests.ui.showdown import photos

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

BY_SEAT = {p: sorted(h) for p, h in zip(PLAYERS, photos.CLOCKWISE, strict=True)}


def test_the_next_night_of_the_group_gives_hands_by_seat(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.start_night(page, PLAYERS)
        seats_kept(page, photos.scene(), tmp_path, "first")
        browser.open_tab(page, "Game night", "Close the night")
        browser.tap(page, browser.button(page, "Close the night"), browser.button(page, "Close it"))
        browser.button(page, "Close it").click()
        browser.seen(page, "Start the night").wait_for()

        # The same group's next night: the seats come with it, said and shown.
        browser.button(page, "Start the night").click()
        browser.seen(page, re.compile(r"Seats as at night #1")).wait_for()
        browser.seen(page, re.compile("Seated clockwise")).wait_for()
        browser.screenshot(page, "group-seats-01-carried")
        browser.open_tab(page, "Showdown", "Photo of the table")
        upload(page, photos.turned(photos.scene(), -30), tmp_path, "second")
        browser.seen(page, re.compile("hands given by seat")).wait_for()
        assert not browser.seen(page, "Keep these seats").is_visible()
        shown = {n: sorted(c) for n, c in hands_shown(page, PLAYERS).items()}
        assert shown == BY_SEAT, shown
        browser.screenshot(page, "group-seats-02-by-seat")
