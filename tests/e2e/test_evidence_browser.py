"""In a real browser at phone size: each doubt judged where the player looks. A card the reader
misread (a rendered scene's 7♠ read as 7♣, the 7♠ its next likely read) is judged from its
crops in its own row and put right with one tap on the alternative (the table and the saved
heist then hold the 7♠); "every doubtful read is right" is offered only under all the doubtful
reads' crops, all in view with it; a hole card hidden under a hand shows where it should lie.
The page asks no host but its own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.engine.gang.showdown import run_showdown
from companion.formats.table import table_from_json
from companion.storage import SqliteGameLog
from tests.e2e import browser
from tests.e2e.test_seats_browser import DOUBTS, TOKENS, give_tokens, hands_shown, save, seats_kept
from tests.ui.showdown import photos

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

# A rendered table (tests/fixtures/images/labels.json): the reader reads Bob's 7♠ as 7♣.
SCENE = browser.ROOT / "tests" / "fixtures" / "images" / "scene_0004.jpg"
RIVER = ("Ah", "Tc", "4d", "4s", "3d")
TRUTH = {tuple(sorted(hand)) for hand in (("7s", "8s"), ("Ad", "7h"), ("8d", "2s"))}
PLAYERS = ("Ana", "Bob", "Chloé")
SCREEN = browser.PHONE["height"] - 80  # the navigation bar's height off the bottom


def box(page: Any, target: Any) -> dict[str, float]:
    found = target.bounding_box()
    assert found is not None, browser.on_screen(page)
    return dict(found)


def in_view(page: Any, *targets: Any) -> bool:
    """Whether every target lies wholly on screen, above the navigation bar."""
    boxes = [box(page, target) for target in targets]
    return all(b["y"] >= 0 and b["y"] + b["height"] <= SCREEN for b in boxes)


def bring_to_top(page: Any, target: Any, margin: int = 60) -> None:
    """Scroll until ``target`` lies ``margin`` pixels under the screen's top, as a player
    scrolls to a line to read it."""
    for _ in range(6):
        y = box(page, target)["y"]
        if abs(y - margin) < 30:
            return
        browser.scroll(page, int(y - margin))


def in_row(page: Any, found: Any, line: Any) -> Any:
    """Of the elements ``found``, the first under ``line`` (another row may offer the same
    card: the 8♠ read's next reads hold the 7♠ too)."""
    top = box(page, line)["y"]
    under = [found.nth(i) for i in range(found.count()) if box(page, found.nth(i))["y"] > top]
    assert under, browser.on_screen(page)
    return min(under, key=lambda e: box(page, e)["y"])


def image(page: Any, name: str) -> Any:
    return page.get_by_role("img", name=name).filter(visible=True).first


def upload(page: Any, path: Path) -> None:
    with page.expect_file_chooser() as chooser:
        browser.button(page, "Photo of the table").click()
    chooser.value.set_files(str(path))
    browser.seen(page, re.compile("cards read|Who sits where")).wait_for(timeout=60000)


def order(hands: dict[str, tuple[str, ...]]) -> list[str]:
    table = {
        "board": list(RIVER),
        "players": [{"name": p, "cards": list(c)} for p, c in hands.items()],
    }
    return [hid for group in run_showdown(table_from_json(table)).order for hid in group]


def test_a_misread_card_is_put_right_from_its_crop_with_one_tap(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    requests: dict[str, str] = {}
    offline: list[str] = []
    with (
        browser.running_app(data, port) as url,
        browser.phone_page(url, offline=offline, requests=requests) as page,
    ):
        browser.start_night(page, PLAYERS)
        upload(page, SCENE)
        browser.tap(
            page, browser.button(page, "Keep these seats"), browser.seen(page, "Seats kept")
        )
        misread = browser.seen(page, re.compile(r"^• 7♣ \([^']+'s hand\): the reader is not sure"))
        owner = re.findall(r"\(([^']+)'s", misread.inner_text())[0]

        # All three doubtful reads side by side, the one button under them, all in view.
        every = browser.button(page, "Every doubtful read is right")
        glance = page.get_by_text("The 3 doubtful reads side by side:")
        bring_to_top(page, glance)
        corners = page.get_by_role("img", name=re.compile("its index corner on the photo"))
        tiles = [corners.nth(i) for i in range(corners.count())][:3]
        assert len(tiles) == 3 and in_view(page, glance, every, *tiles), browser.on_screen(page)
        assert box(page, every)["y"] > max(box(page, t)["y"] for t in tiles)  # under them
        browser.screenshot(page, "evidence-01-glance")

        # The misread judged in its own row: its crops, its answers, all on screen at once.
        bring_to_top(page, misread)
        # In its row: the tiles side by side above bear the same names.
        index = in_row(
            page, page.get_by_role("img", name="7♣: its index corner on the photo"), misread
        )
        face = in_row(page, page.get_by_role("img", name="7♣: the card on the photo"), misread)
        pick = in_row(page, page.get_by_role("button", name="7s", exact=True), misread)
        right = in_row(page, page.get_by_role("button", name="Right as it is"), misread)
        assert in_view(page, misread, index, face, pick, right), browser.on_screen(page)
        # A finger-sized answer (44 px and more each way), the crops enlarged to be read.
        assert min(box(page, pick)["width"], box(page, pick)["height"]) >= 44, box(page, pick)
        assert min(box(page, index)["height"], box(page, face)["height"]) >= 100
        browser.screenshot(page, "evidence-02-row")
        page.evaluate(
            "() => { window.taps = 0;"
            " addEventListener('pointerdown', () => { window.taps += 1; }, true); }"
        )
        browser.tap(page, pick, page.get_by_text("The 2 doubtful reads side by side:"))
        assert page.evaluate("window.taps") == 1  # one tap, no scroll
        assert not page.get_by_text(re.compile("^• 7♣")).count()
        hands = hands_shown(page, PLAYERS)
        assert sorted(hands[owner]) == ["7s", "8s"], hands
        assert {tuple(sorted(cards)) for cards in hands.values()} == TRUTH

        # The two reads left (right ones): confirmed at once, under their two crops.
        browser.tap(
            page, browser.button(page, "Every doubtful read is right"), browser.seen(page, TOKENS)
        )
        assert not browser.seen(page, DOUBTS).is_visible()
        give_tokens(page, order({n: tuple(c) for n, c in hands.items()}))
        browser.seen(page, "VAULT OPENS").wait_for()
        save(page, 1)

    log = SqliteGameLog.in_folder(data)
    try:
        (night,) = log.list_nights()
        (heist,) = log.heists(night.night.id)
    finally:
        log.close()
    assert sorted(heist.hands[owner]) == ["7s", "8s"] and heist.verdict.opens
    # Every request the page made went to the app itself, and none was refused.
    assert requests and all(address.startswith(url) for address in requests), requests
    assert offline == []


def test_a_hidden_hole_card_shows_where_it_should_lie(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.start_night(page, ("Ana", "Bob", "Chloé", "Dan"))
        seats_kept(page, photos.covered(photos.scene(), "8s"), tmp_path, "hidden")
        line = browser.seen(page, re.compile(r"^• [^:]+: 1 card read, 2 expected$"))
        short = re.findall(r"• ([^:]+):", line.inner_text())[0]
        bring_to_top(page, line)
        where = image(page, "Where the missing card should lie (marked on the photo):")
        field = page.get_by_label(f"Type the missing card: {short}")
        sits_out = browser.button(page, f"{short} sits out")
        assert in_view(page, line, where, field, sits_out), browser.on_screen(page)
        assert box(page, where)["width"] >= 250  # across the panel, not a thumbnail
        browser.screenshot(page, "evidence-03-missing")
        browser.type_into(page, f"Type the missing card: {short}", "8s", None)
        line.wait_for(state="hidden")
        assert "8s" in hands_shown(page, ("Ana", "Bob", "Chloé", "Dan"))[short]
