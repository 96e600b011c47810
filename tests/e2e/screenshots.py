"""Phone-sized screenshots of every screen, for the docs: ``python -m tests.e2e.screenshots DIR``
(``... DIR history``: History's pictures only).

Seeds a game log in a temporary folder (two finished nights and one open), starts the app on it
and photographs each screen through the same browser helpers as the end-to-end test; History's
pictures get logs of their own (12 nights, 200 nights, one night: ``history_log``).
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.storage import HeistDraft, SqliteGameLog, Verdict
from tests.e2e import browser
from tests.e2e.history_log import seed_nights

PLAYERS = ("Ana", "Bob", "Chloé")
SCENE = browser.ROOT / "tests" / "fixtures" / "images" / "scene_0001.jpg"
HANDS = {"Ana": ("Ah", "Ad"), "Bob": ("Th", "9h"), "Chloé": ("3c", "2c")}


def heist(opens: bool, photo: str | None = None) -> HeistDraft:
    tokens = {"Bob": 1, "Chloé": 2, "Ana": 3} if opens else {"Chloé": 1, "Bob": 2, "Ana": 3}
    failures = (
        ()
        if opens
        else (
            {
                "hand": "Bob",
                "token": 2,
                "beaten_by": "Chloé",
                "reason": "Chloé (pair of twos) beats Bob (ace high): pair beats high card",
                "reason_fr": "Chloé (paire de deux) bat Bob (hauteur as) : paire bat hauteur",
            },
        )
    )
    return HeistDraft(
        river=("As", "Kd", "Qh", "7c", "2s"),
        hands=HANDS,
        owners={p: p for p in PLAYERS},
        tokens=tokens,
        verdict=Verdict(opens, failures),
        photo=photo,
        deal={
            "variant": "classic",
            "board": ["As", "Kd", "Qh", "7c", "2s"],
            "players": [{"name": p, "cards": list(HANDS[p])} for p in PLAYERS],
        },
    )


# A cribbage game under way (the screen's saved state): Ana 58, Bob 48.
CRIBBAGE_GAME = {
    "version": 1,
    "target": 121,
    "entries": [
        [p, kind, n]
        for _ in range(3)
        for p, kind, n in (
            (1, "peg", 2),
            (0, "peg", 3),
            (1, "show", 8),
            (0, "show", 12),
            (0, "crib", 4),
        )
    ]
    + [[1, "show", 16], [1, "peg", 2], [0, "peg", 1]],
}


def seed(data: Path) -> None:
    log = SqliteGameLog.in_folder(data)
    try:
        for results in ((True, False, True, True), (False, False, True, False)):
            night = log.start_night(PLAYERS, "classic")
            for opens in results:
                log.save_heist(night.id, heist(opens))
        image = np.full((480, 720, 3), (40, 110, 30), np.uint8)
        for i, x in enumerate(range(60, 660, 120)):
            cv2.rectangle(image, (x, 60), (x + 90, 190), (245, 245, 245), -1)
            cv2.putText(
                image, "AKQ72"[i], (x + 10, 100), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 0), 3
            )
        photo = log.store_photo(cv2.imencode(".jpg", image)[1].tobytes())
        night = log.start_night(PLAYERS, "classic")
        log.save_heist(night.id, heist(True, photo))
        log.save_cribbage_game(("Ana", "Bob"), CRIBBAGE_GAME)
    finally:
        log.close()


def spit_shots(page: Any, out: Path) -> list[Path]:
    """The Spit referee, in English: a typed position's plays, then a disputed move."""
    page.get_by_role("tab", name="Spit").click()
    for label, text in (
        ("Pile 1", "7h"),
        ("Pile 2", "Kc"),
        ("Player 2's stocks", "Qh 5c Td 6s 3h"),
    ):
        browser.type_into(page, label, text, None)
    browser.type_into(page, "Player 1's stocks", "8d 2s ? - 9c/3", "turn up stock 3")
    shots = [browser.screenshot(page, "10-spit-plays", out)]
    browser.scroll(page, 2000)
    browser.type_into(page, "Disputed move", "p2 5c -> pile 1", "ILLEGAL")
    browser.scroll(page, 1500)
    shots.append(browser.screenshot(page, "11-spit-dispute", out))
    return shots


def photo_shot(page: Any, out: Path) -> Path:
    """A rendered table photo read by the card reader: each card's outline and code (as
    printed, 10♥), each hand labelled, the seats asked once for the night."""
    page.get_by_role("tab", name="Showdown").click()
    with page.expect_file_chooser() as chooser:
        browser.button(page, "Photo of the table").click()
    chooser.value.set_files(str(SCENE))
    browser.seen(page, re.compile("Who sits where|cards read|Photo reading unavailable")).wait_for(
        timeout=90_000
    )
    browser.scroll(page, -3000)
    browser.scroll(page, 450)  # the photo and the seats question under it
    page.wait_for_timeout(800)
    return browser.screenshot(page, "15-photo-reads", out)


def scene_shot(
    page: Any, out: Path, photo: Path, shows: str, down: int, name: str, settle_ms: int = 800
) -> Path:
    """``photo`` picked as the table's, read until ``shows`` is seen, the page scrolled
    ``down`` from its top, photographed as ``name`` after ``settle_ms``."""
    with page.expect_file_chooser() as chooser:
        browser.button(page, "Photo of the table").click()
    chooser.value.set_files(str(photo))
    browser.seen(page, re.compile(shows)).wait_for(timeout=90_000)
    browser.scroll(page, -3000)
    browser.scroll(page, down)
    page.wait_for_timeout(settle_ms)
    return browser.screenshot(page, name, out)


def unread_shot(page: Any, out: Path, folder: Path) -> Path:
    """The same scene with the queen's two index corners painted over in card white: the face
    the reader saw and could not read outlined in red and numbered, and said in the doubts."""
    from tests.ui.showdown.photos import unindexed

    photo = folder / "unread.jpg"
    cv2.imwrite(str(photo), unindexed(cv2.imread(str(SCENE)), "Qc"))
    return scene_shot(page, out, photo, "was not read", 450, "16-photo-unread")


def small_shot(page: Any, out: Path, folder: Path) -> Path:
    """The same scene shrunk to 55 % (cards about 42 px wide): the cards too small to read
    surely, said first among the doubts."""
    photo = folder / "far.jpg"
    scene = cv2.imread(str(SCENE))
    cv2.imwrite(str(photo), cv2.resize(scene, None, fx=0.55, fy=0.55, interpolation=cv2.INTER_AREA))
    # The hands and the doubts under them.
    return scene_shot(page, out, photo, "The cards are small", 1200, "17-photo-small")


def new_night(page: Any, players: str) -> None:
    """The night closed and a new one started with ``players``, on the Showdown screen."""
    browser.open_tab(page, "Game night", "Close the night")
    browser.tap(page, browser.button(page, "Close the night"), browser.button(page, "Close it"))
    browser.tap(page, browser.button(page, "Close it"), browser.button(page, "Start the night"))
    browser.type_into(page, "Players (comma separated)", players, None)
    browser.tap(page, browser.button(page, "Start the night"), browser.seen(page, "Vaults 0 / 3"))
    browser.open_tab(page, "Showdown", "Photo of the table")


def short_shot(page: Any, out: Path, folder: Path) -> Path:
    """A night of four, its first photo with a hole card hidden under a hand: the seats asked,
    and the short hand in the doubts, its missing card to type in its row or its player to sit
    out, never a confirm."""
    from tests.ui.showdown.photos import covered

    new_night(page, "Ana, Bob, Chloé, Dan")
    photo = folder / "short.jpg"
    cv2.imwrite(str(photo), covered(cv2.imread(str(SCENE)), "8s"))
    # Taken once the photo's message went by itself: the doubts whole.
    return scene_shot(page, out, photo, "cards read", 2000, "19-short-hand", 6500)


def unseen_shot(page: Any, out: Path) -> Path:
    """A night of five on the three-hand scene: Eve's hand not found, its row with the whole
    photo over "Eve sits out" (face down, or missed: judged there)."""
    new_night(page, "Ana, Bob, Chloé, Dan, Eve")
    with page.expect_file_chooser() as chooser:
        browser.button(page, "Photo of the table").click()
    chooser.value.set_files(str(SCENE))
    line = browser.seen(page, re.compile(r"^• \S+: no hand found on the photo"))
    line.wait_for(timeout=90_000)
    page.wait_for_timeout(6500)  # the photo's message gone by itself
    _near_top(page, line)
    return browser.screenshot(page, "27-hand-not-found", out)


def _near_top(page: Any, line: Any) -> None:
    """The line brought near the screen's top, as a player scrolls to it."""
    for _ in range(6):
        y = line.bounding_box()["y"]
        if abs(y - 60) < 30:
            return
        browser.scroll(page, int(y - 60))


def evidence_shots(page: Any, out: Path) -> list[Path]:
    """A night of three, a rendered table whose Bob's 7♠ the reader reads as 7♣ (its next read
    the 7♠), in French: the doubtful reads' index corners side by side over "every doubtful
    read is right", then the misread's own row, its crops beside its answers."""
    new_night(page, "Ana, Bob, Chloé")
    with page.expect_file_chooser() as chooser:
        browser.button(page, "Photo of the table").click()
    chooser.value.set_files(str(SCENE.with_name("scene_0004.jpg")))
    browser.seen(page, "Keep these seats").wait_for(timeout=90_000)
    browser.scroll(page, -6000)  # the seats' panel under the photo, at the page's top
    kept = browser.seen(page, "Seats kept: the next photos")
    browser.tap(page, browser.button(page, "Keep these seats"), kept)
    browser.button(page, "Français").click()
    browser.seen(page, "À vérifier avant le verdict").wait_for()
    page.wait_for_timeout(6500)  # the photo's message gone by itself
    shots = []
    for words, name in (
        ("lectures incertaines côte à côte", "25-doubts-glance"),
        ("7♣ (la main", "26-doubt-evidence"),
    ):
        browser.scroll(page, -6000)
        _near_top(page, browser.seen(page, re.compile(re.escape(words))))
        shots.append(browser.screenshot(page, name, out))
    browser.button(page, "English").click()
    return shots


def webcam_shot(out: Path, folder: Path) -> Path:
    """The webcam's live preview, a rendered video of the scene shrunk to 55 % played as the
    webcam (``companion app --webcam VIDEO``): the reads drawn on the frame, and the line
    asking to bring the webcam closer."""
    from tests.e2e.test_webcam_browser import small_cards_preview

    with small_cards_preview(folder) as page:
        page.wait_for_timeout(1500)  # a few more frames fused
        return browser.screenshot(page, "18-webcam-small", out)


def shoot_cribbage(page: Any, out: Path) -> list[Path]:
    """The cribbage screen: a show counted item by item, the board, the discard advice."""
    browser.type_into(page, "Main (4 cartes)", "4c 5d 6h Kc", None)
    browser.type_into(page, "Carte de départ", "5s", "Total : 16")
    shots = [browser.screenshot(page, "6-cribbage-count", out)]
    browser.scroll(page, 650)
    shots.append(browser.screenshot(page, "8-cribbage-board", out))
    browser.type_into(
        page, "Vos 6 cartes", "5c 5d Jh Qs 2c 9d", "Main seule (sur 46 cartes de départ)"
    )
    browser.scroll(page, 1500)
    shots.append(browser.screenshot(page, "9-cribbage-advice", out))
    browser.scroll(page, -3000)
    return shots


def shoot(out: Path) -> list[Path]:
    shots: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        seed(data)
        with browser.running_app(data, browser.free_port()) as url, browser.phone_page(url) as page:
            for label, cards in (
                ("Rivière", "As Kd Qh 7c 2s"),
                ("Ana", "Ah Ad"),
                ("Bob", "Th 9h"),
                ("Chloé", "3c 2s"),
            ):
                browser.type_into(page, f"Cartes : {label}", cards, cards.split()[-1])
            shots.append(browser.screenshot(page, "1-showdown-cards", out))
            browser.scroll(page, 500)
            shots.append(browser.screenshot(page, "2-showdown-duplicate", out))
            browser.button(page, "2s").click()
            browser.type_into(page, "Remplacer par", "2c", "Jetons rouges")
            for hand in ("Bob", "Chloé", "Ana"):
                browser.button(page, hand, exact=True).click()
            page.get_by_text("LE COFFRE S'OUVRE").wait_for()
            browser.scroll(page, 1500)
            shots.append(browser.screenshot(page, "3-showdown-verdict", out))
            # The same best fives in four suit colours (a setting the browser keeps), then back.
            browser.scroll(page, -3000)
            page.get_by_role("switch", name="4 couleurs").click()
            browser.scroll(page, 1500)
            page.wait_for_timeout(500)
            shots.append(browser.screenshot(page, "14-four-colours", out))
            browser.scroll(page, -3000)
            page.get_by_role("switch", name="4 couleurs").click()
            page.get_by_role("tab", name="Soirée").click()
            page.get_by_text("Coffres 1 / 3 — Alarmes 0 / 3").wait_for()
            shots.append(browser.screenshot(page, "4-game-night", out))
            browser.button(page, "Rejouer").click()  # the latest heist's replay
            page.get_by_text("Plus grosses erreurs").wait_for(timeout=60_000)
            shots.append(browser.screenshot(page, "12-heist-replay", out))
            browser.button(page, "Fermer le rejeu").click()
            page.get_by_role("tab", name="Historique").click()
            page.get_by_text("Statistiques").wait_for()
            # The pictures come first (``20-history-pictures``): the nights and stats under them.
            scroll_to(page, "Soirées passées")
            shots.append(browser.screenshot(page, "5-history-stats", out))
            browser.scroll(page, -5000)
            # The oldest night (listed last) replayed from its first alarm: mistakes to read.
            page.get_by_role("button", name="Rejouer").last.click()
            page.get_by_text("Plus grosses erreurs").wait_for(timeout=60_000)
            browser.scroll(page, 2000)
            shots.append(browser.screenshot(page, "13-replay-mistakes", out))
            browser.button(page, "Fermer le rejeu").click()
            page.get_by_role("tab", name="Cribbage").click()
            shots += shoot_cribbage(page, out)
            browser.button(page, "English").click()
            page.get_by_role("tab", name="Showdown").click()
            shots.append(browser.screenshot(page, "7-showdown-english", out))
            shots += spit_shots(page, out)
            shots.append(photo_shot(page, out))
            shots.append(unread_shot(page, out, Path(tmp)))
            shots.append(small_shot(page, out, Path(tmp)))
            shots.append(short_shot(page, out, Path(tmp)))
            shots += evidence_shots(page, out)
            shots.append(unseen_shot(page, out))
        shots.append(webcam_shot(out, Path(tmp) / "webcam"))  # its own app and log
    return _small(shots + shoot_history(out))


def _small(shots: list[Path]) -> list[Path]:
    for path in shots:  # small files for the repository
        image = cv2.imread(str(path))
        cv2.imwrite(str(path), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    return shots


def scroll_to(page: Any, text: str, top: float = 60.0) -> None:
    """Scroll until ``text`` stands near the page's top (the app's scroll view listens to the
    wheel; a text scrolled far away has no place on the page until it comes near)."""
    for _ in range(40):
        box = (
            page.get_by_text(text).first.bounding_box() if page.get_by_text(text).count() else None
        )
        if box is not None and top <= box["y"] <= top + 120:
            break
        browser.scroll(page, 200 if box is None or box["y"] > top + 120 else -60)
    page.wait_for_timeout(500)


def _open_pictures(page: Any, english: bool) -> None:
    """History open at its pictures, in English or French."""
    if english:
        browser.button(page, "English").click()
    shows = "In pictures" if english else "En images"
    browser.open_tab(page, "History" if english else "Historique", shows)
    browser.seen(page, re.compile(r"^(A bar per night|Une barre par soirée)")).wait_for(
        timeout=60_000
    )
    page.wait_for_timeout(800)


def shoot_history(out: Path) -> list[Path]:
    """History's pictures: 12 nights in French (the nights and success, then each player's
    judging with one player's numbers opened), 200 nights in English, one night in French."""
    shots: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        for nights, english, take in (
            (12, False, _twelve_nights),
            (200, True, _many_nights),
            (1, False, _one_night),
        ):
            data = Path(tmp) / f"data-{nights}"
            seed_nights(data, nights)
            with (
                browser.running_app(data, browser.free_port()) as url,
                browser.phone_page(url) as page,
            ):
                _open_pictures(page, english)
                shots += take(page, out)
    return _small(shots)


def _twelve_nights(page: Any, out: Path) -> list[Path]:
    shots = [browser.screenshot(page, "20-history-pictures", out)]
    scroll_to(page, "Comment chacun juge sa main")
    page.get_by_text("Les chiffres").nth(1).click()  # Ana's numbers, night by night
    page.get_by_text(re.compile(r"^n° 1 :")).first.wait_for()
    page.wait_for_timeout(500)
    shots.append(browser.screenshot(page, "21-history-judging", out))
    return shots


def _many_nights(page: Any, out: Path) -> list[Path]:
    shots = [browser.screenshot(page, "22-history-200-nights", out)]
    scroll_to(page, "How each player judges their hand")
    shots.append(browser.screenshot(page, "23-history-200-judging", out))
    return shots


def _one_night(page: Any, out: Path) -> list[Path]:
    return [browser.screenshot(page, "24-history-one-night", out)]


def main(shoot: Callable[[Path], list[Path]], folder: str) -> None:
    """``shoot`` into the folder given (``folder`` when none is), each shot's size said."""
    reason = browser.missing()
    if reason:
        sys.exit(f"screenshots need the browser: {reason}")
    for shot in shoot(Path(sys.argv[1] if len(sys.argv) > 1 else folder)):
        print(shot, shot.stat().st_size, "bytes")


if __name__ == "__main__":
    main(shoot_history if sys.argv[2:] == ["history"] else shoot, "docs/screenshots")
