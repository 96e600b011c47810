"""In a real browser at phone size: a banner that appears and goes moves nothing on the page
(a tap aimed at a card while it comes must land on that card)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e import browser

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

SAID = "must be non-empty text"  # the banner of a preset saved with no name


def top_of(page: Any, name: str) -> float:
    box = browser.button(page, name).bounding_box()
    assert box is not None, name
    return float(box["y"])


def test_a_banner_coming_and_going_moves_nothing(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.button(page, "English").click()
        browser.seen(page, "Photo of the table").wait_for()
        before = top_of(page, "Photo of the table")
        browser.tap(page, browser.button(page, "Save preset"), browser.seen(page, SAID))
        shown = top_of(page, "Photo of the table")
        browser.screenshot(page, "banner-01-over-the-page")
        assert shown == before, (before, shown)
        # A tap on the banner closes it.
        browser.seen(page, SAID).click()
        page.get_by_text(SAID).wait_for(state="hidden")
        closed = top_of(page, "Photo of the table")
        # A change to the table lets it go too (the players typed: rows under the buttons).
        browser.tap(page, browser.button(page, "Save preset"), browser.seen(page, SAID))
        browser.type_into(page, "Players (comma separated)", "Ana, Bob", None)
        page.get_by_text(SAID).wait_for(state="hidden")
        gone = top_of(page, "Photo of the table")
    assert closed == before and gone == before, (before, closed, gone)


def test_the_message_goes_by_itself_and_never_takes_a_tap_meant_for_new_table(
    tmp_path: Path,
) -> None:
    from tests.e2e.test_seats_browser import PHOTO_LABEL, upload
    from tests.ui.showdown import photos

    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.button(page, "English").click()
        browser.type_into(page, "Players (comma separated)", "Ana, Bob, Chloé, Dan", None)
        upload(page, photos.scene(), tmp_path, "table")
        said = browser.seen(page, "cards read")
        # Read, then gone by itself: no minute over the page's foot.
        said.wait_for(state="hidden", timeout=12_000)

        upload(page, photos.scene(), tmp_path, "again")
        browser.scroll(page, 6000)  # the page's foot, the message still over it
        new_table = browser.button(page, "New table")
        banner, button = said.bounding_box(), new_table.bounding_box()
        browser.screenshot(page, "banner-02-over-the-foot")
        assert banner is not None and button is not None
        assert button["y"] + button["height"] <= banner["y"], (button, banner)
        # A finger on "New table" while the message shows: the table is cleared.
        page.mouse.click(button["x"] + button["width"] / 2, button["y"] + button["height"] / 2)
        page.get_by_text(PHOTO_LABEL).first.wait_for(state="hidden", timeout=15_000)
        assert not browser.seen(page, "cards read").is_visible()
