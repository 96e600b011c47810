"""History in pictures in a real browser at phone size: each figure drawn (its pixels counted
in the page's own rendering), its caption and its numbers, with many nights, one night and an
empty log; and the page asks no host but its own while drawing them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.e2e import browser
from tests.e2e.history_log import seed_nights

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

# The figures' colours (``ui/history/charts.py``) as the page paints them, in BGR.
GREEN, RED = (60, 142, 56), (47, 47, 211)  # GREEN_700, RED_700
ORANGE, BLUE = (0, 101, 216), (210, 118, 25)  # ORANGE_800, BLUE_700
TRACK = (220, 216, 207)  # BLUE_GREY_100: a bar's empty track


def figure(page: Any, key: str) -> Any:
    """The drawing named ``key``, found by its semantics identifier."""
    return page.locator(f'flt-semantics[flt-semantics-identifier="{key}"]').first


def painted(page: Any, key: str, colour: tuple[int, int, int]) -> int:
    """How many of the figure's pixels are painted ``colour`` (within a small tolerance)."""
    box = figure(page, key)
    box.scroll_into_view_if_needed()
    page.wait_for_timeout(600)
    image = cv2.imdecode(np.frombuffer(box.screenshot(), np.uint8), cv2.IMREAD_COLOR)
    near = np.abs(image.astype(int) - np.array(colour)).max(axis=2) <= 24
    return int(near.sum())


def open_history(page: Any, shows: str | re.Pattern[str], english: bool = True) -> None:
    if english:
        browser.button(page, "English").click()
    browser.open_tab(page, "History" if english else "Historique", shows)


def test_many_nights_draw_each_figure_and_ask_no_other_host(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    seed_nights(data, 12)
    requests: dict[str, str] = {}
    offline: list[str] = []
    with (
        browser.running_app(data, port) as url,
        browser.phone_page(url, offline, requests) as page,
    ):
        open_history(page, "In pictures")
        browser.seen(page, re.compile(r"^A bar per night.*12 nights")).wait_for()
        browser.screenshot(page, "history-pictures-12")
        assert painted(page, "figure-nights", GREEN) > 50
        assert painted(page, "figure-nights", RED) > 50
        assert painted(page, "bar-variant-classic", GREEN) > 20
        assert painted(page, "bar-tokens-lsd", GREEN) > 20
        browser.seen(page, re.compile(r"^Each bar is the share")).wait_for()
        # Ana over-claims (her lean bar orange, right of the middle), Bob under-claims (blue).
        assert painted(page, "judging-Ana-lean", ORANGE) > 20
        assert painted(page, "judging-Ana-lean", BLUE) < 10  # the "under" label only
        assert painted(page, "judging-Bob-lean", BLUE) > 20
        assert painted(page, "judging-Bob-lean", ORANGE) < 10  # the "over" label only
        browser.seen(page, re.compile(r"^How far each final token")).wait_for()
        browser.seen(page, re.compile(r"right, off by \d\.\d\d on average, lean \+")).wait_for()
        browser.screenshot(page, "history-judging-12")
        # The numbers on a tap: Ana's night by night, then her pre-flop figure.
        figure(page, "judging-Ana-lean").scroll_into_view_if_needed()
        page.get_by_text("The numbers").nth(1).click()  # the nights' first, then Ana's
        browser.seen(page, re.compile(r"^#1: \d+/\d+ right, off by")).wait_for()
        browser.seen(page, re.compile(r"^pre-flop: off by")).wait_for()
        browser.screenshot(page, "history-judging-numbers")
    elsewhere = {u: failed for u, failed in requests.items() if not u.startswith(url)}
    assert len(requests) > 10 and elsewhere == {} and offline == [], (elsewhere, offline)


def test_one_night_in_french(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    seed_nights(data, 1)
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        open_history(page, "En images", english=False)
        browser.seen(page, re.compile(r"^Une barre par soirée.*1 soirée :")).wait_for()
        assert painted(page, "figure-nights", GREEN) + painted(page, "figure-nights", RED) > 50
        browser.seen(page, re.compile(r"jetons? justes?, écart moyen \d,\d\d")).wait_for()
        assert painted(page, "judging-Ana-lean", TRACK) > 500
        browser.screenshot(page, "history-one-night")


def test_two_hundred_nights(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    seed_nights(data, 200)
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        open_history(page, "In pictures")
        browser.seen(page, re.compile(r"^A bar per night.*200 nights")).wait_for(timeout=60000)
        assert painted(page, "figure-nights", GREEN) > 200
        assert painted(page, "figure-nights", RED) > 200
        browser.screenshot(page, "history-pictures-200")
        figure(page, "judging-Dan-line").scroll_into_view_if_needed()
        page.wait_for_timeout(600)
        browser.screenshot(page, "history-judging-200")


def test_an_empty_log_says_so(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        open_history(page, "In pictures")
        browser.seen(page, "No heist saved yet: the pictures appear once").wait_for()
        assert figure(page, "figure-nights").count() == 0
        browser.screenshot(page, "history-empty")
