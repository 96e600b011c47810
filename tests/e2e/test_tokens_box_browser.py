"""In a real browser at phone size: the typed tokens' field shows its whole label on one line,
in English and in French, with room to spare for a larger text setting."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.e2e import browser

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]

TABLE = {"River": "As Kd Qh 7c 2s", "Ana": "Ah Ad", "Bob": "Th 9h", "Cy": "3c 2c"}
FIELD = {"en": "Or type the numbers, hand by hand", "fr": "Ou tapez les numéros, main par main"}


def field_picture(page: Any, label: str, name: str) -> np.ndarray:
    field = page.get_by_label(label, exact=True)
    field.scroll_into_view_if_needed()
    box = field.bounding_box()
    assert box is not None
    browser.screenshot(page, name)
    time.sleep(2.0)  # the page's scrollbar, drawn over the field's edge, fades away
    png = page.screenshot(clip=box)
    return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)


def room_after_label(field: np.ndarray) -> float:
    """The room between the label's last letter and the field's right border, as a share of
    the label's width: none when the label runs into it, cut. (The border is lighter than the
    letters' strokes.)"""
    sides = np.flatnonzero((field < 170).sum(axis=0) > field.shape[0] // 2)
    assert sides.size, "no border found around the field"
    letters = field < 100
    columns, lines = np.flatnonzero(letters.any(axis=0)), np.flatnonzero(letters.any(axis=1))
    assert columns.size, "no label painted in the field"
    assert lines.max() - lines.min() < 24, "the label wraps onto a second line"
    return (int(sides.max()) - int(columns.max())) / (int(columns.max()) - int(columns.min()))


def test_the_tokens_field_label_is_whole_in_both_languages(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.button(page, "English").click()
        browser.type_into(page, "Players (comma separated)", "Ana, Bob, Cy", None)
        browser.type_cards(page, TABLE)
        browser.seen(page, "Red tokens").wait_for()
        browser.scroll(page, 1200)
        en = field_picture(page, FIELD["en"], "tokens-box-en")
        browser.button(page, "Français").click()
        browser.seen(page, "Jetons rouges").wait_for()
        fr = field_picture(page, FIELD["fr"], "tokens-box-fr")
    rooms = {"en": room_after_label(en), "fr": room_after_label(fr)}
    print("room after the tokens field's label, share of its width:", rooms)
    # Room for a phone's text a fifth larger than the browser's (a larger-text setting).
    assert min(rooms.values()) >= 0.2, rooms
