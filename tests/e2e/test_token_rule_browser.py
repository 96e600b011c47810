"""In a real browser at phone size: the table picks the LSD token rule (its explanation shows),
a heist is saved under it, and the night's log names LSD on the night and on the heist."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.storage import SqliteGameLog
from tests.e2e import browser
from tests.e2e.test_seats_browser import give_tokens, save

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

EXPLAINED = "LSD: take a token from the centre only"


def test_lsd_is_picked_saved_with_the_heist_and_named_in_the_night_log(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.button(page, "English").click()
        browser.open_tab(page, "Game night", "Start the night")
        browser.type_into(page, "Players (comma separated)", "Ana, Bob", None)
        browser.tap(page, browser.button(page, "Token rule"), browser.seen(page, "Kcarc"))
        browser.tap(page, browser.seen(page, "LSD", exact=True), browser.seen(page, EXPLAINED))
        browser.screenshot(page, "tokens-01-lsd-picked")
        browser.button(page, "Start the night").click()
        browser.seen(page, "Vaults 0 / 3 — Alarms 0 / 3").wait_for()
        browser.seen(page, "classic (LSD tokens)").wait_for()

        browser.open_tab(page, "Showdown", "Photo of the table")
        browser.type_into(page, "Cards: River", "As Kd Qh 7c 2s", "2s")
        browser.type_into(page, "Cards: Ana", "Ah Ad", "Ad")
        browser.type_into(page, "Cards: Bob", "Th 9h", "9h")
        give_tokens(page, ["Bob", "Ana"])
        browser.seen(page, "VAULT OPENS", exact=True).wait_for()
        save(page, 1)

        browser.open_tab(page, "Game night", "Vaults 1 / 3 — Alarms 0 / 3")
        browser.seen(page, "Token rule: LSD", exact=True).wait_for()
        browser.screenshot(page, "tokens-02-night-log")
    with SqliteGameLog.in_folder(data) as log:
        (status,) = log.list_nights()
        (heist,) = log.heists(status.night.id)
    assert status.night.rules["tokens"] == "lsd"
    assert heist.deal is not None and heist.deal["rules"]["tokens"] == "lsd"
