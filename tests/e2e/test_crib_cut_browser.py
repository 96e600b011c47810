"""In a real browser at phone size, in French (the app's default), issue #54: the cribbage board
cuts for the first deal, a tie cut again, the lower card dealing. (Crack's token rule picked in
the setup and named in the night's log: ``test_token_rule_browser.py``.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.storage import SqliteGameLog
from tests.e2e import browser

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]


def test_the_cribbage_board_cuts_for_the_first_deal(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.open_tab(page, "Cribbage", "Planche à 121")
        browser.type_into(page, "Les deux joueurs (séparés par une virgule)", "Ana, Bob", "Ana : 0")
        cut = "Coupe pour la première donne : Ana, puis Bob"
        browser.type_into(page, cut, "7h 7d", "coupe 1 : Ana 7♥, Bob 7♦ : égalité, recoupez")
        browser.type_into(
            page,
            cut,
            "Kc Qs",
            "coupe 2 : Ana K♣, Bob Q♠ : Bob a coupé la carte la plus basse et donne en premier",
        )
        assert not page.get_by_label(cut, exact=True).is_visible()
        browser.screenshot(page, "crack-03-cut-for-deal")
    with SqliteGameLog.in_folder(data) as log:
        (game,) = log.cribbage_games()
    assert [list(cut) for cut in game.state["cuts"]] == [["7h", "7d"], ["Kc", "Qs"]]
