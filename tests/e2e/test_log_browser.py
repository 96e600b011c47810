"""The Game night screen's log and History in a real browser: every hole card of every hand
and who sat out, as the heist was saved through the app's own save path into a real log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine.gang.showdown import run_showdown
from companion.formats.table import table_from_json
from companion.storage import SqliteGameLog
from companion.ui.showdown.actions import heist_draft
from tests.e2e import browser

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]


def saved_night(data: Path) -> None:
    """A night of Ana, Bob and Chloé where Chloé sat out one heist; Ana's 5s and Bob's 3d
    are in no best five."""
    table = table_from_json(
        {
            "board": ["As", "Kd", "Qh", "7c", "2s"],
            "players": [
                {"name": "Ana", "cards": ["Th", "5s"]},
                {"name": "Bob", "cards": ["Jh", "3d"]},
            ],
        }
    )
    result = run_showdown(table, {"Ana": 1, "Bob": 2})
    with SqliteGameLog.in_folder(data) as log:
        night = log.start_night(["Ana", "Bob", "Chloé"], "classic")
        log.save_heist(night.id, heist_draft(table, {"Ana": 1, "Bob": 2}, result, None))


def test_the_night_log_shows_every_hole_card_and_who_sat_out(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    saved_night(data)
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.open_tab(page, "Soirée", "Manche 1 : coffre")
        for shown in ("Ana #1", "10h", "5s", "Bob #2", "Jh", "3d"):
            browser.seen(page, shown, exact=True).wait_for()
        browser.seen(page, "Ne jouent pas : Chloé").wait_for()
        browser.screenshot(page, "log-full-hands")
        # History shows the same heist, opened under its night.
        browser.open_tab(page, "Historique", "Manches")
        browser.button(page, "Manches").click()
        browser.seen(page, "Ne jouent pas : Chloé").wait_for()
        for shown in ("10h", "5s", "Jh", "3d"):
            browser.seen(page, shown, exact=True).wait_for()
        browser.screenshot(page, "log-history-heists")
    with SqliteGameLog.in_folder(data) as log:
        document = json.loads(log.export_json())
    (heist,) = document["nights"][0]["heists"]
    assert heist["hands"] == {"Ana": ["Th", "5s"], "Bob": ["Jh", "3d"]}
    assert heist["sat_out"] == ["Chloé"]
