"""French and English screens in a real browser (phone size) with no code ids: every tab of
an app on a seeded game log, read through the page's accessibility tree as a screen reader
reads it, scrolled top to bottom."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e import browser
from tests.e2e.screenshots import seed
from tests.ui.test_words import FRENCH_SPACING, ids_in

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

TABS = {
    "fr": (
        ("Abattage", "Rivière"),
        ("Soirée", "Coffres"),
        ("Historique", "Statistiques"),
        ("Cribbage", "Compter un jeu"),
        ("Spit", "Arbitre de Spit"),
    ),
    "en": (
        ("Showdown", "River"),
        ("Game night", "Vaults"),
        ("History", "Stats"),
        ("Cribbage", "Count a show"),
        ("Spit", "Spit referee"),
    ),
}


def read_aloud(page: Any) -> list[str]:
    """The page's accessibility tree, line by line, from its top to its bottom."""
    lines: list[str] = []
    browser.scroll(page, -5000)
    for _ in range(6):
        lines += [line for line in page.locator("body").aria_snapshot().splitlines()]
        browser.scroll(page, 700)
    return list(dict.fromkeys(lines))


def test_every_tab_in_both_languages_names_nothing_by_its_id(tmp_path: Path) -> None:
    data = tmp_path / "data"
    seed(data)
    found: list[str] = []
    heard: dict[str, list[str]] = {"fr": [], "en": []}
    with browser.running_app(data, browser.free_port()) as url, browser.phone_page(url) as page:
        for lang, switch in (("fr", "English"), ("en", "Français")):
            for tab, shows in TABS[lang]:
                browser.open_tab(page, tab, shows)
                for line in read_aloud(page):
                    heard[lang].append(line)
                    if ids_in(line, lang):
                        found.append(f"{lang} {tab}: {line} names {ids_in(line, lang)}")
                    if lang == "en" and FRENCH_SPACING.search(line):
                        found.append(f"{lang} {tab}: {line} is spaced the French way")
            browser.scroll(page, -5000)
            browser.button(page, switch).click()
    assert not found, "\n".join(found)
    # What was read holds the seeded nights' variant, in each language's words.
    assert any("— classique" in line for line in heard["fr"])
    assert any("— classic" in line for line in heard["en"])
