"""In a real browser at phone size, the webcam's live preview on a recorded video played as
the app's webcam (``companion app --webcam VIDEO``): the preview with the cards read drawn, a
capture that reads the frames' fused cards into the table, and, on a video whose cards are
too small to read surely, the preview asking to bring the webcam closer."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.e2e import browser
from tests.ui.showdown import photos

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]


def video(path: Path, frame: np.ndarray, frames: int = 40) -> Path:
    """A motion-JPEG video of ``frame`` held by a slightly shaking hand (a pixel or two)."""
    h, w = frame.shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (w, h))
    assert writer.isOpened()
    for k in range(frames):
        shift = np.float32([[1, 0, (k % 3) - 1], [0, 1, (k % 2)]])
        writer.write(cv2.warpAffine(frame, shift, (w, h), borderMode=cv2.BORDER_REPLICATE))
    writer.release()
    return path


def start_webcam(page: object) -> None:
    browser.button(page, "English").click()
    browser.button(page, "Computer webcam").click()
    browser.button(page, "Capture").wait_for(timeout=60_000)


def test_the_webcam_preview_reads_the_table_and_its_capture_keeps_the_fused_read(
    tmp_path: Path,
) -> None:
    scene = photos.scene()  # 13 cards about 77 px wide
    source = video(tmp_path / "table.avi", scene)
    data = tmp_path / "data"
    options = ["--webcam", str(source)]
    with browser.running_app(data, browser.free_port(), options=options) as url:
        with browser.phone_page(url) as page:
            start_webcam(page)
            page.wait_for_timeout(3000)  # a few frames read and fused
            assert page.get_by_text(re.compile("cards are small")).count() == 0
            browser.screenshot(page, "webcam-preview")
            browser.button(page, "Capture").click()
            browser.seen(page, re.compile(r"\d+ cards read")).wait_for(timeout=60_000)
            said = browser.seen(page, re.compile(r"\d+ cards read")).inner_text()
            assert int(re.search(r"(\d+) cards read", said).group(1)) >= 11  # type: ignore[union-attr]
            page.get_by_text("Table photo with its reads").first.wait_for(timeout=30_000)
            browser.screenshot(page, "webcam-captured")


@contextmanager
def small_cards_preview(folder: Path) -> Iterator[Any]:
    """A phone page of the app whose webcam plays the scene shrunk to 55 % (cards about 43 px
    wide), once the preview asks to bring the webcam closer."""
    folder.mkdir(parents=True, exist_ok=True)
    far = cv2.resize(photos.scene(), None, fx=0.55, fy=0.55, interpolation=cv2.INTER_AREA)
    options = ["--webcam", str(video(folder / "far.avi", far))]
    with browser.running_app(folder / "data", browser.free_port(), options=options) as url:
        with browser.phone_page(url) as page:
            start_webcam(page)
            small = re.compile(r"The cards are small in the frame \(about \d+ px wide\)")
            browser.seen(page, small).wait_for(timeout=60_000)
            yield page


def test_the_webcam_preview_asks_to_come_closer_when_the_cards_are_small(
    tmp_path: Path,
) -> None:
    with small_cards_preview(tmp_path) as page:
        browser.screenshot(page, "webcam-small")
