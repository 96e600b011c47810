"""A show photographed with its five cards in a row: the cards kept in the fields in the order
they lie, the starter asked with one tap, then counted; with the real reader."""

from __future__ import annotations

from dataclasses import replace

import cv2
import pytest

from companion.ui.cribbage.actions import load_show_photo, show_read
from companion.ui.cribbage.state import ShowCount
from companion.ui.kit.services import LazyDetector, Services
from companion.ui.shell.dispatch import run
from companion.ui.shell.navigation import open_screen
from companion.ui.shell.state import AppState
from tests.helpers import cards
from tests.ui.cribbage.row_photo import five_in_a_row, label
from tests.ui.screens import Session, find, texts
from tests.vision.layouts.builders import ROW, reads


@pytest.fixture
def reading(services: Services) -> Services:
    return replace(services, detector=LazyDetector())


def test_five_cards_in_a_row_ask_the_starter_and_count_after_one_tap(reading: Services) -> None:
    entry = label()
    data = cv2.imencode(".jpg", five_in_a_row())[1].tobytes()
    state = run(open_screen("cribbage"), AppState(lang="en"), reading)
    state = run(load_show_photo(data, "row.jpg"), state, reading)
    count = state.cribbage.count
    # Every card read is in the hand's field, in the order they lie; nothing is refused.
    assert count.hand == cards(" ".join([*entry["hand"], entry["starter"]]))
    assert count.starter is None and count.asking and count.show() is None
    assert state.banner is not None and state.banner.key in ("crib_row", "crib_row_unsure")
    session = Session(state, reading)
    page = session.view()
    assert "Which card is the starter? Tap it." in texts(find(page, "crib-starter-ask"))
    assert find(page, "crib-hand").value == " ".join([*entry["hand"], entry["starter"]])
    session.tap("crib-pick-starter-4")  # the last card of the row
    count = session.state.cribbage.count
    assert count.hand == cards(" ".join(entry["hand"])) and not count.asking
    assert count.starter == cards(entry["starter"])[0]
    assert count.show().total == entry["total"]  # type: ignore[union-attr]
    page = session.view()
    assert find(page, "crib-starter").value == entry["starter"]


def test_a_row_of_five_from_made_up_reads_lists_them_left_to_right(services: Services) -> None:
    state = run(open_screen("cribbage"), AppState(lang="en"), services)
    row = [*ROW[:2], ("5s", 580, 500), *ROW[2:]]  # the starter laid among the hand
    state = show_read(state, reads(*reversed(row)))
    assert state.cribbage.count == ShowCount.of_row(cards("4c 5d 6h Kc 5s"), (), False)
    # Typing the starter instead answers the question too.
    typed = state.cribbage.count.with_hand_text("4c 5d 6h Kc").with_starter_text("5s")
    assert not typed.asking and typed.show() is not None
