"""End to end in a real browser: a cribbage show photographed and counted, the board kept
across a restart of the app."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.vision import DEFAULT_MODEL
from tests.e2e import browser

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

FIXTURES = browser.ROOT / "tests" / "fixtures" / "images"


def test_show_photo_counted_and_board_kept_across_a_restart(tmp_path: Path) -> None:
    entry = next(
        e for e in json.loads((FIXTURES / "photo_labels.json").read_text()) if e["kind"] == "show"
    )
    data = tmp_path / "data"
    with browser.running_app(data, browser.free_port()) as url, browser.phone_page(url) as page:
        browser.open_tab(page, "Cribbage", "Compter un jeu")
        with page.expect_file_chooser() as chooser:
            browser.button(page, "Photo de la table").click()
        chooser.value.set_files(str(FIXTURES / entry["image"]))
        if DEFAULT_MODEL.is_file():
            page.get_by_text(f"Total : {entry['total']}").wait_for(timeout=60000)
            browser.screenshot(page, "crib-01-photo-counted")
            browser.button(page, "Marquer pour Joueur 2").click()
        else:  # the app without the model: typing the cards still counts them
            page.get_by_text("Lecture des photos indisponible").first.wait_for(timeout=60000)
            browser.type_into(page, "Main (4 cartes)", " ".join(entry["hand"]), None)
            browser.type_into(
                page, "Carte de départ", entry["starter"], f"Total : {entry['total']}"
            )
            browser.button(page, "Marquer pour Joueur 2").click()
        page.get_by_text(f"Joueur 2 : {entry['total']}").wait_for()
        browser.button(page, "+2", exact=True).click()  # Joueur 1's pegging buttons come first
        page.get_by_text("Joueur 1 : 2").wait_for()

    # The app restarted on the same data: the game is the one on the board.
    with browser.running_app(data, browser.free_port()) as url, browser.phone_page(url) as page:
        browser.open_tab(page, "Cribbage", f"Joueur 2 : {entry['total']}")
        page.get_by_text("Joueur 1 : 2").wait_for()
        browser.screenshot(page, "crib-02-resumed")
