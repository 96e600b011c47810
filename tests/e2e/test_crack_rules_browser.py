"""In a real browser at phone size, in French (the app's default), issue #54: the table picks
Crack's own token rule (its sentence shows), a heist is saved under it and the night's log names
it; and the cribbage board cuts for the first deal, a tie cut again, the lower card dealing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.storage import SqliteGameLog
from tests.e2e import browser

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

EXPLAINED = "Crack : on prend le jeton de n'importe qui"


def give_tokens(page: Any, hands: list[str]) -> None:
    def token(hid: str, number: int | None) -> Any:
        shown = rf"^{re.escape(hid)}$" if number is None else rf"^{re.escape(hid)}\s+#{number}$"
        return page.get_by_role("button", name=re.compile(shown)).first

    for number, hid in enumerate(hands, start=1):
        browser.tap(page, token(hid, None), token(hid, number))


def test_crack_is_picked_saved_with_the_heist_and_named_in_the_night_log(
    tmp_path: Path,
) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.open_tab(page, "Soirée", "Démarrer la soirée")
        browser.type_into(page, "Joueurs (séparés par des virgules)", "Ana, Bob", None)
        browser.tap(page, browser.button(page, "Règle des jetons"), browser.seen(page, "Kcarc"))
        browser.tap(page, browser.seen(page, "Crack", exact=True), browser.seen(page, EXPLAINED))
        browser.screenshot(page, "crack-01-rule-picked")
        browser.button(page, "Démarrer la soirée").click()
        browser.seen(page, "Coffres 0 / 3 — Alarmes 0 / 3").wait_for()
        browser.seen(page, "classique (jetons Crack)").wait_for()

        browser.open_tab(page, "Abattage", "Photo de la table")
        browser.type_into(page, "Cartes : Rivière", "As Kd Qh 7c 2s", "2s")
        browser.type_into(page, "Cartes : Ana", "Ah Ad", "Ad")
        browser.type_into(page, "Cartes : Bob", "Th 9h", "9h")
        give_tokens(page, ["Bob", "Ana"])
        browser.seen(page, "LE COFFRE S'OUVRE", exact=True).wait_for()
        browser.button(page, "Enregistrer la manche").click()
        page.get_by_text("Manche n°1 enregistrée").wait_for(timeout=30000)

        browser.open_tab(page, "Soirée", "Coffres 1 / 3 — Alarmes 0 / 3")
        browser.seen(page, "Règle des jetons : Crack", exact=True).wait_for()
        browser.screenshot(page, "crack-02-night-log")
    with SqliteGameLog.in_folder(data) as log:
        (status,) = log.list_nights()
        (heist,) = log.heists(status.night.id)
    assert status.night.rules["tokens"] == "crack"
    assert heist.deal is not None and heist.deal["rules"]["tokens"] == "crack"


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
