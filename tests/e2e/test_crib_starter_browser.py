"""In a real browser at phone size: a show photographed with its five cards in a row is not
refused; the cards stay in the hand's field and one tap on the starter counts the show."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from companion.vision import DEFAULT_MODEL
from tests.e2e import browser
from tests.e2e.test_taps_browser import COUNT_TAPS, taps
from tests.ui.cribbage.row_photo import five_in_a_row, label

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
    pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason=f"{DEFAULT_MODEL} not found"),
]


def test_five_cards_in_a_row_ask_the_starter_with_one_tap(tmp_path: Path) -> None:
    entry = label()
    photo = tmp_path / "row.jpg"
    cv2.imwrite(str(photo), five_in_a_row())
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.button(page, "English").click()
        browser.open_tab(page, "Cribbage", "Count a show")
        page.evaluate(COUNT_TAPS)
        with page.expect_file_chooser() as chooser:
            browser.button(page, "Photo of the table").click()
        chooser.value.set_files(str(photo))
        browser.seen(page, "Which card is the starter? Tap it.").wait_for(timeout=60000)
        browser.scroll(page, 1)  # an input event: the page paints what its tree already holds
        browser.screenshot(page, "crib-starter-01-asked")
        # The five cards read, each a tap away (named as typed; the hand's field holds them).
        for code in [*entry["hand"], entry["starter"]]:
            browser.seen(page, code, exact=True).wait_for()
        starter = browser.seen(page, entry["starter"], exact=True)
        browser.tap(page, starter, browser.seen(page, f"Total: {entry['total']}"))
        browser.screenshot(page, "crib-starter-02-counted")
        assert taps(page) + 1 == 3  # the photo button, the file picked, the starter
