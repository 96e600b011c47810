"""In a real browser at phone size: the table picks a token rule (its explanation shows), a heist
is saved under it, and the night's log names the rule on the night and on the heist: LSD in
English (issue #43), Crack's own rule in French, the app's default (issue #54)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.storage import SqliteGameLog
from companion.ui.kit.text import t, variant_name
from tests.e2e import browser
from tests.e2e.test_seats_browser import give_tokens

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]


def heist_under_a_token_rule(page: Any, lang: str, rule: str, shot: str) -> None:
    """A night of Ana and Bob under ``rule``, picked in the setup; one heist saved; the rule
    named on the night and the heist. Every label in ``lang``, as the page shows it."""
    name = t(f"token_rule.{rule}", lang)
    if lang == "en":
        browser.button(page, "English").click()
    browser.open_tab(page, t("nav_night", lang), t("start_night", lang))
    browser.type_into(page, t("players", lang), "Ana, Bob", None)
    browser.tap(page, browser.button(page, t("token_rule", lang)), browser.seen(page, "Kcarc"))
    explained = t(f"token_rule.{rule}.explain", lang)
    browser.tap(page, browser.seen(page, name, exact=True), browser.seen(page, explained[:30]))
    browser.screenshot(page, f"{shot}-01-picked")
    browser.button(page, t("start_night", lang)).click()
    browser.seen(page, t("score", lang, vaults=0, alarms=0)).wait_for()
    browser.seen(page, variant_name("classic", lang, rule)).wait_for()

    browser.open_tab(page, t("nav_showdown", lang), t("photo", lang))
    cards = [(t("river", lang), "As Kd Qh 7c 2s"), ("Ana", "Ah Ad"), ("Bob", "Th 9h")]
    for place, typed in cards:
        browser.type_into(page, t("cards_of", lang, place=place), typed, typed[-2:])
    give_tokens(page, ["Bob", "Ana"])
    browser.seen(page, t("vault_opens", lang), exact=True).wait_for()
    browser.button(page, t("save_heist", lang)).click()
    page.get_by_text(t("heist_saved", lang, n=1)).wait_for(timeout=30000)

    browser.open_tab(page, t("nav_night", lang), t("score", lang, vaults=1, alarms=0))
    browser.seen(page, t("heist_token_rule", lang, rule=name), exact=True).wait_for()
    browser.screenshot(page, f"{shot}-02-night-log")


@pytest.mark.parametrize(
    ("lang", "rule", "shot"), [("en", "lsd", "tokens"), ("fr", "crack", "crack")]
)
def test_a_rule_is_picked_saved_with_the_heist_and_named_in_the_night_log(
    tmp_path: Path, lang: str, rule: str, shot: str
) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        heist_under_a_token_rule(page, lang, rule, shot)
    with SqliteGameLog.in_folder(data) as log:
        (status,) = log.list_nights()
        (heist,) = log.heists(status.night.id)
    assert status.night.rules["tokens"] == rule
    assert heist.deal is not None and heist.deal["rules"]["tokens"] == rule
