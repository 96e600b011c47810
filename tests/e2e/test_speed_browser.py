"""Speed on the Spit screen in a real browser at phone size (issue #43): the deal chosen, and the
match's tally game after game to the target score."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e import browser

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]


def test_speed_deal_and_tally_to_the_target(tmp_path: Path) -> None:
    with (
        browser.running_app(tmp_path / "data", browser.free_port()) as url,
        browser.phone_page(url) as page,
    ):
        browser.button(page, "English").click()
        browser.open_tab(page, "Spit", "Spit referee")
        # The web client names the rules' menu and its entries as buttons.
        browser.button(page, "Rules", exact=True).click()
        browser.button(page, "Speed, 20 cards each", exact=True).click()
        browser.seen(page, "two side piles of 5", exact=False).wait_for()
        browser.screenshot(page, "speed-deal")
        browser.scroll(page, 2500)
        browser.type_into(page, "Target score", "20", "(target 20)")
        browser.type_into(page, "Cards the loser holds", "12", None)
        browser.button(page, "Player 1 won").click()
        browser.seen(page, "Player 1: 12 — Player 2: 0 (target 20)").wait_for()
        browser.type_into(page, "Cards the loser holds", "9", None)
        browser.button(page, "Player 1 won").click()
        browser.seen(page, "Player 1 wins the match, 21 to 0").wait_for()
        browser.scroll(page, 2500)
        browser.screenshot(page, "speed-tally")
