"""In a real browser at phone size: the mouse wheel over a table photo scrolls the page until
its zoom is asked for; then it zooms the photo, and one tap brings the whole photo back."""

from __future__ import annotations

import re
import time
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

PHOTO = "Table photo with its reads"


def photo_box(page: Any) -> dict[str, float]:
    box = page.get_by_text(PHOTO).first.bounding_box()
    assert box is not None
    return dict(box)


def wheel_over_photo(page: Any, dy: int) -> None:
    box = photo_box(page)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, dy)
    time.sleep(1.0)


def picture(page: Any) -> np.ndarray:
    """The photo as the page paints it now (grey levels)."""
    time.sleep(0.5)
    png = page.screenshot(clip=photo_box(page))
    return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE).astype(np.float32)


def test_the_wheel_scrolls_past_the_photo_until_zoom_is_asked(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), photos.scene())
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.button(page, "English").click()
        with page.expect_file_chooser() as chooser:
            browser.button(page, "Photo of the table").click()
        chooser.value.set_files(str(path))
        said = browser.seen(page, re.compile("cards read"))
        said.wait_for(timeout=60000)
        page.get_by_text(PHOTO).first.wait_for(timeout=30000)
        # The banner floats over the page's foot, over the photo's lower edge: closed first.
        said.click()
        said.wait_for(state="hidden", timeout=10000)
        # The whole photo in view, under the setup (a clip past the page's foot is cut).
        browser.scroll(page, 250)
        top = photo_box(page)["y"]
        assert top + photo_box(page)["height"] < browser.PHONE["height"] - 100, photo_box(page)
        whole = picture(page)

        # Not zoomed: the wheel over the photo scrolls the page, the photo stays whole.
        wheel_over_photo(page, 200)
        assert photo_box(page)["y"] < top - 100, (top, photo_box(page))
        wheel_over_photo(page, -200)
        assert photo_box(page)["y"] == top
        assert float(np.abs(picture(page) - whole).mean()) < 2.0

        # Zoom asked for: the wheel over the photo zooms it, the page stays.
        browser.tap(
            page, browser.button(page, "Zoom", exact=True), browser.button(page, "Whole photo")
        )
        top = photo_box(page)["y"]
        wheel_over_photo(page, -300)
        assert photo_box(page)["y"] == top
        zoomed = picture(page)
        browser.screenshot(page, "zoom-01-zoomed")
        assert float(np.abs(zoomed - whole).mean()) > 10.0

        # One tap back to the whole photo.
        browser.tap(
            page, browser.button(page, "Whole photo"), browser.button(page, "Zoom", exact=True)
        )
        assert float(np.abs(picture(page) - whole).mean()) < 2.0
