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
        # A change to the table lets it go too.
        browser.tap(page, browser.button(page, "Save preset"), browser.seen(page, SAID))
        page.get_by_role("switch", name="Two rivers").click()
        page.get_by_text(SAID).wait_for(state="hidden")
        gone = top_of(page, "Photo of the table")
    assert closed == before and gone == before, (before, closed, gone)
