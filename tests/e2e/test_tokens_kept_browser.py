"""In a real browser at phone size: the tokens are chips on the table, and a card fixed moves
none of them: they are kept, and the verdict is judged again on the fixed cards."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e import browser
from tests.e2e.test_seats_browser import give_tokens

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

TABLE = {"River": "As Kd Qh 7c 2s", "Ana": "Ah Ad", "Bob": "Th 9h", "Cy": "3c 2c"}


def test_tokens_are_kept_across_a_card_fix(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.button(page, "English").click()
        browser.type_into(page, "Players (comma separated)", "Ana, Bob, Cy", None)
        browser.type_cards(page, TABLE)
        give_tokens(page, ["Bob", "Cy", "Ana"])
        browser.seen(page, "VAULT OPENS").wait_for()

        # Bob's nine was a seven: tapped, its rank retouched. The chips stay where they lie.
        browser.scroll(page, -3000)
        browser.tap(
            page, page.get_by_text("9h", exact=True).first, browser.seen(page, "Selected card: 9h")
        )
        browser.tap(
            page, browser.button(page, "7", exact=True), browser.seen(page, "Selected card: 7h")
        )
        browser.seen(page, "ALARM").wait_for()
        for number, hand in enumerate(("Bob", "Cy", "Ana"), start=1):
            shown = re.compile(rf"^{hand}\s+#{number}$")
            assert page.get_by_role("button", name=shown).first.is_visible(), hand
        browser.seen(page, re.compile("Bob's pair of sevens|Bob \\(pair of sevens\\)")).wait_for()
        browser.scroll(page, 1500)
        browser.screenshot(page, "tokens-kept-01-judged-again")
