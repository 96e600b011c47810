"""End to end in a real browser: photo, fix a card, tokens, verdict, heist kept across restarts."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.engine.gang.showdown import run_showdown
from companion.formats.table import table_from_json
from tests.e2e import browser

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

FIXTURES = browser.ROOT / "tests" / "fixtures" / "images"
PLAYERS = ("Ana", "Bob", "Chloé", "Dan", "Eve", "Fay")


def table_photo(tmp: Path) -> tuple[Path, list[str], list[list[str]]]:
    """A labelled table scene from the vision fixtures, with its river and hands.

    Before the vision fixtures exist (they come with the vision package), a plain image stands
    in with a fixed table: the app must then keep the photo and let the cards be typed.
    """
    labels = FIXTURES / "labels.json"
    if labels.is_file():
        for item in json.loads(labels.read_text()):
            groups = item.get("groups")
            if groups and "table" in groups:
                hands = [cards for name, cards in groups.items() if name != "table"]
                return FIXTURES / item["image"], groups["table"], hands
    path = tmp / "table.jpg"
    cv2.imwrite(str(path), np.full((480, 640, 3), (40, 110, 30), np.uint8))
    return path, ["9h", "9s", "6d", "Qc", "2h"], [["6c", "8s"], ["Kd", "Jh"], ["4c", "3s"]]


def label(card: str) -> str:
    """A card as fields and chips' names write it: ``Th`` -> ``10h``."""
    return ("10" if card[0] == "T" else card[0]) + card[1]


def pretty(card: str) -> str:
    """A card as sentences write it: ``Th`` -> ``10♥``."""
    return label(card)[:-1] + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[card[1]]


def test_photo_fix_tokens_verdict_and_night_log_survive_a_restart(tmp_path: Path) -> None:
    photo, river, hands = table_photo(tmp_path)
    players = PLAYERS[: len(hands)]
    table = {
        "board": river,
        "players": [{"name": p, "cards": h} for p, h in zip(players, hands, strict=True)],
    }
    order = [hid for group in run_showdown(table_from_json(table)).order for hid in group]
    data, port = tmp_path / "data", browser.free_port()

    offline: list[str] = []
    with browser.running_app(data, port) as url, browser.phone_page(url, offline) as page:
        # A night for these players.
        browser.open_tab(page, "Soirée", "Démarrer la soirée")
        browser.type_into(page, "Joueurs (séparés par des virgules)", ", ".join(players), None)
        browser.button(page, "Démarrer la soirée").click()
        page.get_by_text("Coffres 0 / 3 — Alarmes 0 / 3").wait_for()
        page.get_by_text(", ".join(players), exact=True).wait_for()
        browser.screenshot(page, "01-night-started")

        # The webcam is the host's: CI machines have none, and the page says so.
        page.get_by_role("tab", name="Abattage").click()
        if not any(Path("/dev").glob("video*")):
            browser.button(page, "Webcam de l'ordinateur").click()
            page.get_by_text("Aucune webcam").wait_for()

        # Files that are not photos, or too large ones, are refused with the reason.
        notes, huge = tmp_path / "notes.jpg", tmp_path / "huge.jpg"
        notes.write_text("not a photo")
        huge.write_bytes(b"\xff" * (16 * 2**20))
        for path, refusal in (
            (notes, "notes.jpg : illisible comme image"),
            (huge, "Photo trop lourde"),
        ):
            with page.expect_file_chooser() as chooser:
                browser.button(page, "Photo de la table").click()
            chooser.value.set_files(str(path))
            page.get_by_text(refusal).wait_for(timeout=30000)

        # The photo: read when the reader is there, else kept while the cards are typed.
        with page.expect_file_chooser() as chooser:
            browser.button(page, "Photo de la table").click()
        chooser.value.set_files(str(photo))
        page.get_by_text(
            re.compile("cartes lues|Lecture des photos indisponible|Aucune carte")
        ).first.wait_for(timeout=60000)
        browser.screenshot(page, "02-photo-read")
        # A reading may find more hands than players (it then adds players): back to the night's.
        browser.type_into(page, "Joueurs (séparés par des virgules)", ", ".join(players), None)

        # Confirm the cards; the river gets one card wrong (a hand's card), then fixed by tap.
        wrong = hands[0][0]
        # If the flag does not show (a line typed while the page was still busy), look at the
        # cards and type them again, as a person would.
        for attempt in range(3):
            browser.type_into(
                page, "Cartes : Rivière", " ".join(river[:4] + [wrong]), label(river[0])
            )
            for name, cards in zip(players, hands, strict=True):
                browser.type_into(page, f"Cartes : {name}", " ".join(cards), label(cards[-1]))
            try:
                browser.seen(page, f"{pretty(wrong)} apparaît deux fois").wait_for(timeout=10000)
                break
            except Exception:  # playwright's TimeoutError
                if attempt == 2:
                    raise
        browser.screenshot(page, "03-duplicate-flagged")
        # The river's copy comes first; each tap waits for the page to answer before the next.
        chosen = "Carte choisie : {}"
        browser.tap(
            page,
            browser.button(page, label(wrong)),
            browser.seen(page, chosen.format(label(wrong))),
        )
        right = river[4]
        browser.tap(
            page,
            browser.button(page, "10" if right[0] == "T" else right[0], exact=True),
            browser.seen(page, chosen.format(label(right[0] + wrong[1]))),
        )
        suit = {"s": "pique", "h": "cœur", "d": "carreau", "c": "trèfle"}[right[1]]
        browser.tap(
            page,
            browser.button(page, f"{suit} ({right[1]})", exact=True),
            browser.seen(page, chosen.format(label(right))),
        )
        # The night's first read photo asks the seats once: kept as the hands lie.
        keep = browser.button(page, "Garder ces places")
        if keep.is_visible():
            browser.tap(page, keep, browser.seen(page, re.compile("Places gardées")))
        # Reads the photo marks as doubtful are confirmed by eye: the verdict waits for them.
        for _ in range(8):
            if not browser.seen(page, "À vérifier avant le verdict").is_visible():
                break
            every = browser.button(page, "Toutes les lectures incertaines sont justes")
            (every if every.is_visible() else browser.button(page, "C'est juste")).click()
            time.sleep(1.0)
        browser.seen(page, "Jetons rouges").wait_for()
        browser.screenshot(page, "04-fixed")
        browser.button(page, label(right), exact=True).click()  # done: let the card go
        page.get_by_text(chosen.format(label(right))).wait_for(state="hidden")

        # Tokens in the wrong order first: the alarm names the hand that failed.
        def token(hid: str, number: int | None) -> object:
            shown = rf"^{re.escape(hid)}$" if number is None else rf"^{re.escape(hid)}\s+#{number}$"
            return page.get_by_role("button", name=re.compile(shown)).first

        for number, hid in enumerate(reversed(order), start=1):
            browser.tap(page, token(hid, None), token(hid, number))
        browser.seen(page, "ALARME", exact=True).wait_for()
        browser.scroll(page, 1200)
        browser.screenshot(page, "05-alarm")
        browser.tap(page, browser.button(page, "Effacer les jetons"), token(order[0], None))
        for number, hid in enumerate(order, start=1):
            browser.tap(page, token(hid, None), token(hid, number))
        browser.seen(page, "LE COFFRE S'OUVRE").wait_for()
        browser.screenshot(page, "06-vault-opens")
        browser.button(page, "Enregistrer la manche").click()
        page.get_by_text("Manche n°1 enregistrée").wait_for()

        # English, chosen once, is what this browser gets on its next visit.
        browser.button(page, "English").click()
        page.get_by_role("tab", name="Showdown").wait_for()
        page.reload()
        browser.enable_semantics(page)
        page.get_by_role("tab", name="Showdown").wait_for()

    # Restart the app on the same data folder: the night and its heist are still there.
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.open_tab(page, "Soirée", "Coffres 1 / 3 — Alarmes 0 / 3")
        page.get_by_text("Manche 1 : coffre").wait_for()
        browser.screenshot(page, "07-after-restart")

        # The saved heist's replay runs off the event loop; the vault opened, so no mistake.
        browser.button(page, "Rejouer").click()
        page.get_by_text("Aucun jeton loin de sa position la plus probable.").wait_for(
            timeout=60000
        )
        browser.screenshot(page, "07b-replay")
        browser.button(page, "Fermer le rejeu").click()
        page.get_by_text("Manche 1 : coffre").wait_for()

        # The history exports everything; the browser downloads it.
        page.get_by_role("tab", name="Historique").click()
        with page.expect_download() as download:
            browser.button(page, "Exporter tout (JSON)").click()
        exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
        assert river[0] in json.dumps(exported) and players[-1] in json.dumps(
            exported, ensure_ascii=False
        )
        browser.screenshot(page, "08-history")
    # The web client is served by the app; its one try at a CDN script (Flet 1.0.5's Rive
    # animation runtime) is refused by the app's script policy before it reaches the network.
    assert offline == [], offline
    photos = [p for p in (data / "photos").rglob("*") if p.is_file()]
    assert [p.read_bytes() for p in photos] == [photo.read_bytes()]
