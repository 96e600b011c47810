"""The Spit screen in a real browser: a photo read (or typing when the reader is missing), the
plays, and a disputed move."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.vision import DEFAULT_MODEL
from tests.e2e import browser

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

PHOTO = browser.ROOT / "tests" / "fixtures" / "images" / "spit_layout_01.jpg"


def test_spit_photo_plays_and_dispute(tmp_path: Path) -> None:
    with (
        browser.running_app(tmp_path / "data", browser.free_port()) as url,
        browser.phone_page(url) as page,
    ):
        browser.open_tab(page, "Spit", "Arbitre de Spit")
        # The photo goes to the Spit reader, not the showdown's: the three rows come back.
        with page.expect_file_chooser() as chooser:
            browser.button(page, "Photo de la table").click()
        chooser.value.set_files(str(PHOTO))
        page.get_by_text(re.compile("cartes lues|Lecture des photos indisponible")).first.wait_for(
            timeout=60000
        )
        if DEFAULT_MODEL.is_file():
            page.get_by_text(
                "Lu (joueur 2 / tas / joueur 1) : Q♥ 5♣ 10♦ 6♠ 3♥ / 7♥ K♣ / 8♦ 2♠ A♣ 9♣"
            ).wait_for()
        else:  # the reader is missing: the same position is typed
            for label, text in (
                ("Tas 1", "7h"),
                ("Tas 2", "Kc"),
                ("Réserves du joueur 2", "Qh 5c Td 6s 3h"),
            ):
                browser.type_into(page, label, text, None)
            browser.type_into(page, "Réserves du joueur 1", "8d 2s Ac 9c", "Coups permis")
        page.get_by_text("8♦ → tas 1 (sur 7♥)").wait_for()
        browser.scroll(page, 2000)  # the dispute is at the bottom, under the plays
        browser.type_into(page, "Coup contesté", "p2 5c -> tas 1", "INTERDIT")
        # The rule in words, never its id (rank_not_adjacent).
        page.get_by_text(
            re.compile("5♣ n'est pas d'un rang au-dessus ou au-dessous de 7♥")
        ).wait_for()
        assert page.get_by_text(re.compile("rank_not_adjacent")).count() == 0
        browser.screenshot(page, "spit-dispute")
