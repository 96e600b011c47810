"""Le chien in a real browser at phone size (issue #43): the burned cards typed in the table's
setup, the verdict's dog line, the heist saved and the dog shown in the night's log."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.gang.burned import value_dog
from companion.ui.kit.burned_row import dog_text
from tests.e2e import browser
from tests.e2e.test_seats_browser import TOKENS, give_tokens, save
from tests.helpers import cards

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

PLAYERS = ("Ana", "Bob", "Chloé")
HANDS = {"Ana": "Ah Ad", "Bob": "10h 9h", "Chloé": "3c 2c"}
ORDER = ["Bob", "Chloé", "Ana"]  # on As Kd Qh 7c 2s: ace high, pair of twos, three aces
BURNED = "Kh 7d *"


def test_the_dog_is_typed_judged_saved_and_logged(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    line = dog_text(value_dog(cards(BURNED)), PLAYERS, "en")
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.start_night(page, PLAYERS)
        browser.type_into(page, "Burned cards (le chien, optional)", BURNED, None)
        browser.type_into(page, "Cards: River", "As Kd Qh 7c 2s", "2s")
        for name, held in HANDS.items():
            browser.type_into(page, f"Cards: {name}", held, held.split()[-1])
        browser.seen(page, TOKENS).wait_for()
        give_tokens(page, ORDER)
        browser.seen(page, line, exact=True).wait_for()
        browser.scroll(page, 900)
        browser.screenshot(page, "dog-verdict")
        save(page, 1)
        browser.open_tab(page, "Game night", "Heist 1: vault")
        browser.scroll(page, 600)
        browser.seen(page, line, exact=True).wait_for()
        browser.screenshot(page, "dog-night-log")
