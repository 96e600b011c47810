"""The replay screen's view by the hands as they stood (issue #43) in a real browser at phone
size: a saved heist replayed, the view switched, each street's order and the river's tokens
judged as the engine says."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.gang.replay.records import Street
from companion.engine.gang.replay.stood import stood_street
from companion.engine.gang.replay.words import stood_hand_text, stood_token_lines
from companion.engine.gang.showdown import run_showdown
from companion.engine.gang.table import Table
from companion.formats.table import table_from_json
from companion.storage import SqliteGameLog
from companion.ui.showdown.actions import heist_draft
from tests.e2e import browser

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

TOKENS = {"Ana": 1, "Bob": 2, "Chloé": 3}  # Ana's aces took the 1: an alarm


def _table() -> Table:
    return table_from_json(
        {
            "board": ["As", "Kd", "Qh", "7c", "2s"],
            "players": [
                {"name": "Ana", "cards": ["Ah", "Ad"]},
                {"name": "Bob", "cards": ["Th", "9h"]},
                {"name": "Chloé", "cards": ["3c", "2c"]},
            ],
        }
    )


def test_the_replay_shows_the_hands_as_they_stood(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    table = _table()
    with SqliteGameLog.in_folder(data) as log:
        night = log.start_night(["Ana", "Bob", "Chloé"], "classic")
        result = run_showdown(table, TOKENS)
        log.save_heist(night.id, heist_draft(table, TOKENS, result, None))
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.open_tab(page, "Soirée", "Manche 1 : alarme")
        browser.button(page, "Rejouer").click()
        browser.seen(page, "Plus grosses erreurs").wait_for(timeout=60_000)
        browser.button(page, "Telles qu'elles étaient").click()
        preflop = stood_street(table, Street.PREFLOP)
        for hand in preflop.hands:
            browser.seen(page, stood_hand_text(hand, "fr"), exact=True).wait_for()
        browser.screenshot(page, "replay-stood")
        river = stood_street(table, Street.RIVER, TOKENS)
        browser.scroll(page, 1500)
        for hand in river.hands:
            browser.seen(page, stood_hand_text(hand, "fr"), exact=True).wait_for()
        for line in stood_token_lines(river, "fr"):
            browser.seen(page, line[:1].upper() + line[1:], exact=True).wait_for()
        browser.screenshot(page, "replay-stood-river")
        # Back to the odds: the charts' own words again.
        browser.button(page, "Toutes les mains connues").click()
        browser.seen(page, "Plus grosses erreurs").wait_for()
