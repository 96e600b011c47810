"""In a real browser at phone size: a hand the photo shows one card short reaches no verdict as
it is. Nothing confirms it ("Right as it is" and "Every doubtful read is right" leave it open);
its player sits out (the verdict then comes without them) or its card is typed in its row."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import browser
from tests.e2e.test_seats_browser import (
    DOUBTS,
    PLAYERS,
    TOKENS,
    give_tokens,
    hands_shown,
    order,
    seats_kept,
)
from tests.ui.showdown import photos

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]


def confirm_reads_only(page: Any, short: str) -> None:
    """Tap the doubtful reads' answers until none is left beside the short hand's line."""
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
    browser.fail(page, "short-reads", f"reads still open beside {short}'s hand")


def token_names(page: Any) -> set[str]:
    """The hands offered a token (the buttons named by a hand alone, or with its number)."""
    names = set()
    for name in PLAYERS:
        if page.get_by_role("button", name=re.compile(rf"^{name}(\s+#\d+)?$")).count():
            names.add(name)
    return names


def test_a_short_hand_reaches_no_verdict_until_typed_or_sat_out(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.start_night(page, PLAYERS)
        seats_kept(page, photos.covered(photos.scene(), "8s"), tmp_path, "short")
        hands = {name: tuple(cards) for name, cards in hands_shown(page, PLAYERS).items()}
        (short,) = [name for name, cards in hands.items() if len(cards) == 1]
        browser.seen(page, f"{short}: 1 card read, 2 expected").wait_for()
        sits_out = browser.button(page, f"{short} sits out")
        sits_out.wait_for()
        assert not page.get_by_text(re.compile("really has")).count()
        browser.scroll(page, 1400)
        browser.screenshot(page, "short-01-hand")

        # Every read confirmed: the short hand still holds the verdict; nothing confirms it.
        confirm_reads_only(page, short)
        browser.seen(page, DOUBTS).wait_for()
        assert not browser.seen(page, TOKENS).is_visible()
        assert not browser.button(page, "Right as it is").is_visible()

        # Its player sits out: the verdict comes without them.
        browser.tap(page, sits_out, browser.seen(page, TOKENS))
        assert token_names(page) == set(PLAYERS) - {short}
        browser.screenshot(page, "short-02-sat-out")

        # Back in: no hand, no verdict, until its cards are typed in its row.
        browser.tap(
            page,
            browser.button(page, f"{short} plays"),
            browser.seen(page, f"{short}: no hand found on the photo"),
        )
        assert not browser.seen(page, TOKENS).is_visible()
        held = (*hands[short], "8s")
        browser.type_into(page, f"Type the missing card: {short}", " ".join(held), TOKENS)
        give_tokens(page, order({**hands, short: held}))
        browser.seen(page, "VAULT OPENS").wait_for()
        browser.scroll(page, 2400)
        browser.screenshot(page, "short-03-typed-verdict")
