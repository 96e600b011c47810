"""In a real browser at phone size: a night of four seated players, a photo with a hole card
hidden (said, verdict held until fixed on the photo), a photo taken turned (names follow the
seats), a player sitting out (saved, replayed). The taps are counted in test_taps_browser."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.engine.gang.showdown import run_showdown
from companion.formats.table import table_from_json
from tests.e2e import browser
from tests.ui.showdown import photos

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

PLAYERS = ("Ana", "Bob", "Chloé", "Dan")
PHOTO_LABEL = "Table photo with its reads"
DOUBTS = "Check before the verdict"
TOKENS = "Red tokens"


def order(hands: dict[str, tuple[str, ...]]) -> list[str]:
    """The hands from weakest to strongest: the tokens that open the vault."""
    table = {
        "board": list(photos.RIVER),
        "players": [{"name": p, "cards": list(c)} for p, c in hands.items()],
    }
    return [hid for group in run_showdown(table_from_json(table)).order for hid in group]


def upload(page: Any, image: np.ndarray, folder: Path, name: str) -> None:
    path = folder / f"{name}.jpg"
    cv2.imwrite(str(path), image)
    with page.expect_file_chooser() as chooser:
        browser.button(page, "Photo of the table").click()
    chooser.value.set_files(str(path))
    browser.seen(page, re.compile("cards read")).wait_for(timeout=60000)
    page.get_by_text(PHOTO_LABEL).first.wait_for(timeout=30000)


def seats_kept(page: Any, image: np.ndarray, folder: Path, name: str) -> None:
    """A night's first photo read, the first guess at its seats kept."""
    upload(page, image, folder, name)
    browser.tap(page, browser.button(page, "Keep these seats"), browser.seen(page, "Seats kept"))


def tap_photo(page: Any, image: np.ndarray, card: str) -> None:
    """Tap ``card`` where it lies on the photo shown (found by the reader, as the app did)."""
    from companion.vision import CardDetector

    read = CardDetector().detect(image)
    x, y = read.centres[[str(c) for c in read.cards].index(card)]
    box = page.get_by_text(PHOTO_LABEL).first.bounding_box()
    scale = box["width"] / image.shape[1]
    at = (box["x"] + float(x) * scale, box["y"] + float(y) * scale)
    assert 0 < at[1] < browser.PHONE["height"], (box, at)  # on screen, not scrolled away
    page.mouse.click(*at)


CARD = re.compile(r"^(10|[2-9AKQJ])[shdc]$")


def hands_shown(page: Any, names: tuple[str, ...]) -> dict[str, list[str]]:
    """Each player's card chips as the screen lists them, scrolled into view and back."""
    browser.scroll(page, 500)
    leaves = page.evaluate(
        "() => [...document.querySelectorAll('flt-semantics')]"
        ".filter(e => !e.querySelector('flt-semantics'))"
        ".map(e => (e.getAttribute('aria-label') || e.textContent || '').trim())"
    )
    browser.scroll(page, -500)
    found: dict[str, list[str]] = {}
    owner = None
    for text in leaves:
        # A name seen with no card after it yet (the seats' row of names) is looked for again;
        # later mentions after its cards (the tokens, the best fives) are not.
        if text in names and not found.get(text):
            owner = text
            found[owner] = []
        elif owner is not None and CARD.match(text):
            found[owner].append(text.replace("10", "T"))
        else:
            owner = None
    return found


def confirm_reads(page: Any) -> int:
    """Confirm what the photo marks as doubtful reads; the taps it took."""
    taps = 0
    for _ in range(8):
        if not browser.seen(page, DOUBTS).is_visible():
            return taps
        every = browser.button(page, "Every doubtful read is right")
        target = every if every.is_visible() else browser.button(page, "Right as it is")
        target.click()
        taps += 1
        time.sleep(1.0)
    raise AssertionError(browser.on_screen(page))


def give_tokens(page: Any, hands: list[str]) -> None:
    def token(hid: str, number: int | None) -> Any:
        shown = rf"^{re.escape(hid)}$" if number is None else rf"^{re.escape(hid)}\s+#{number}$"
        return page.get_by_role("button", name=re.compile(shown)).first

    for number, hid in enumerate(hands, start=1):
        browser.tap(page, token(hid, None), token(hid, number))


def save(page: Any, number: int) -> None:
    browser.button(page, "Save the heist").click()
    page.get_by_text(f"Heist #{number} saved").wait_for(timeout=30000)


def test_seats_doubts_and_sitting_out(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    # Where they sit: clockwise Ana, Bob, Chloé, Dan, Bob's hand the one the reader lists first.
    jh_kd, twos, six_eight, six_four = photos.HANDS
    hands = {"Ana": six_eight, "Bob": jh_kd, "Chloé": twos, "Dan": six_four}
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.start_night(page, PLAYERS)

        # 1. A hole card hidden under a hand: said, and the verdict waits.
        first = photos.covered(photos.scene(), "8s")
        upload(page, first, tmp_path, "first")
        # First guess: the hands clockwise from the photo's bottom edge, Ana's the first.
        browser.seen(page, "Bob: 1 card read, 2 expected").wait_for()
        browser.seen(page, "Keep these seats").wait_for()
        browser.screenshot(page, "seats-01-asked")
        assert not browser.seen(page, TOKENS).is_visible()
        # Asked once: a hand tapped on the photo, its player named; the others follow clockwise.
        tap_photo(page, first, "Jh")
        browser.seen(page, "Whose is the hand outlined on the photo?").wait_for()
        browser.tap(
            page,
            browser.button(page, "Bob", exact=True),
            browser.seen(page, "Ana: 1 card read, 2 expected"),
        )
        assert not browser.seen(page, "Selected card: Jh").is_visible()  # no card picked
        browser.tap(
            page, browser.button(page, "Keep these seats"), browser.seen(page, "Seats kept")
        )
        # Fixed on the photo: Ana's card tapped there, the hidden one added to her hand.
        tap_photo(page, first, "6c")
        browser.seen(page, "Selected card: 6c").wait_for()
        browser.screenshot(page, "seats-02-tapped-on-photo")
        browser.type_into(page, "Add a card to Ana", "8s", None)
        page.get_by_text("Ana: 1 card read, 2 expected").wait_for(state="hidden")
        confirm_reads(page)
        browser.seen(page, TOKENS).wait_for()
        give_tokens(page, order(hands))
        save(page, 1)

        # 2. The phone turned: the reader finds the hands in another order; names follow the
        # seats.
        second = photos.turned(photos.scene(), -30)
        upload(page, second, tmp_path, "second")
        shown = hands_shown(page, PLAYERS)
        assert {n: sorted(c) for n, c in shown.items()} == {
            n: sorted(c) for n, c in hands.items()
        }, shown
        confirm_reads(page)
        browser.seen(page, TOKENS).wait_for()
        give_tokens(page, order(hands))  # the tokens: not counted
        browser.seen(page, "Save the heist").wait_for()
        browser.screenshot(page, "seats-03-followed")
        save(page, 2)

        # 3. Bob's hand not on the photo: he sits out this heist, which is saved and replayed.
        third = photos.covered(photos.scene(), "Jh", "Kd")
        upload(page, third, tmp_path, "third")
        browser.seen(page, "Bob: no hand found on the photo").wait_for()
        browser.tap(
            page, browser.button(page, "Bob sits out"), browser.seen(page, "Sitting out: Bob")
        )
        confirm_reads(page)
        del hands["Bob"]
        give_tokens(page, order(hands))
        save(page, 3)
        # The next table: Bob back in his seat, not after the others.
        browser.scroll(page, 400)
        fields = page.evaluate(
            "() => [...document.querySelectorAll('input')].map(e => e.getAttribute('aria-label'))"
        )
        browser.scroll(page, -400)
        assert [f for f in fields if f and f.startswith("Cards: ")][1:] == [
            f"Cards: {name}" for name in PLAYERS
        ], fields
        browser.open_tab(page, "Game night", "Heist 3")
        browser.button(page, "Replay").click()  # the newest heist comes first
        page.get_by_text("No token far from its most likely position.").wait_for(timeout=90000)
        browser.screenshot(page, "seats-04-replayed")
