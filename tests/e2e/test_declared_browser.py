"""In a real browser at phone size: a hand the photo shows one card short cannot be cleared by
"Right as it is"; confirming every doubtful read leaves it open; the table declares it, and the
verdict shows the rule error and what was confirmed rather than read."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import browser
from tests.e2e.test_seats_browser import DOUBTS, PLAYERS, TOKENS, give_tokens, hands_shown, order
from tests.e2e.test_seats_browser import upload as upload_photo
from tests.ui.showdown import photos

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]


def confirm_reads_only(page: Any, short: str) -> None:
    """Tap the doubtful reads' answers until only the short hand's line is left."""
    for _ in range(8):
        every = browser.button(page, "Every doubtful read is right")
        one = browser.button(page, "Right as it is")
        if every.is_visible():
            every.click()
        elif one.is_visible():
            one.click()
        else:
            return
        time.sleep(1.0)
    browser.fail(page, "declared-reads", f"reads still open beside {short}'s hand")


def test_a_missing_card_is_declared_and_shown_on_the_verdict(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.start_night(page, PLAYERS)

        upload_photo(page, photos.covered(photos.scene(), "8s"), tmp_path, "short")
        browser.tap(
            page, browser.button(page, "Keep these seats"), browser.seen(page, "Seats kept")
        )
        hands = {name: tuple(cards) for name, cards in hands_shown(page, PLAYERS).items()}
        (short,) = [name for name, cards in hands.items() if len(cards) == 1]
        browser.seen(page, f"{short}: 1 card read, 2 expected").wait_for()
        declare = browser.button(page, f"{short} really has 1 card")
        declare.wait_for()
        browser.scroll(page, 1400)
        browser.screenshot(page, "declared-01-short-hand")

        confirm_reads_only(page, short)
        # Every read confirmed: the short hand still holds the verdict.
        browser.seen(page, DOUBTS).wait_for()
        assert not browser.seen(page, TOKENS).is_visible()
        assert not browser.button(page, "Right as it is").is_visible()

        browser.tap(page, declare, browser.seen(page, TOKENS))
        give_tokens(page, order({n: c for n, c in hands.items() if c}))
        browser.seen(page, f"Rule error: {short} plays 1 card, 2 dealt").wait_for()
        browser.seen(page, "Told by the table, not read").wait_for()
        browser.scroll(page, 2400)
        browser.screenshot(page, "declared-02-verdict")
