"""In a real browser at phone size: a night won (3 vaults) says so on the Showdown screen where
"Save the heist" was, and one tap starts the group's next night (its players and seats carried)
with the heist saved in it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.storage import SqliteGameLog
from tests.e2e import browser
from tests.e2e.screenshots import HANDS, PLAYERS, heist
from tests.e2e.test_seats_browser import give_tokens

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

SEATS = {"Ana": 90.0, "Bob": 210.0, "Chloé": 330.0}
RIVER = "As Kd Qh 7c 2s"


def seed(data: Path) -> None:
    """The group's night open at two vaults, its seats kept."""
    log = SqliteGameLog.in_folder(data)
    try:
        night = log.start_night(PLAYERS, "classic")
        log.save_seats(night.id, SEATS)
        for _ in range(2):
            log.save_heist(night.id, heist(True))
    finally:
        log.close()


def play(page: Any) -> None:
    """A heist typed and its tokens given in the right order: the vault opens."""
    browser.type_cards(page, {"River": RIVER} | {n: " ".join(c) for n, c in HANDS.items()})
    give_tokens(page, ["Bob", "Chloé", "Ana"])
    browser.seen(page, "VAULT OPENS").wait_for()


def test_a_won_night_says_so_and_one_tap_saves_in_the_next(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    seed(data)
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.button(page, "English").click()
        browser.seen(page, "Photo of the table").wait_for()
        play(page)
        browser.button(page, "Save the heist").click()
        browser.seen(page, "Heist #3 saved").wait_for()

        play(page)  # the same evening, one more heist
        browser.seen(
            page, "Night #1 is won (3 vaults): this heist goes to the group's next night."
        ).wait_for()
        assert not browser.button(page, "Save the heist").is_visible()
        browser.scroll(page, 3000)
        browser.screenshot(page, "next-night-01-won")
        browser.tap(
            page,
            browser.button(page, "Start the next night and save"),
            browser.seen(page, "Night #2 started (Ana, Bob, Chloé); heist #1 saved in it."),
        )
        browser.open_tab(page, "Game night", "Vaults 1 / 3")
        browser.seen(page, re.compile("Night #2")).wait_for()
        browser.seen(page, "Seated clockwise: Ana, Bob, Chloé").wait_for()
        browser.screenshot(page, "next-night-02-started")
