"""In a real browser at phone size: a table fixed by hand is not lost to the next photo (one
tap brings it back), and an empty file gets a message saying what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e import browser
from tests.e2e.test_seats_browser import PLAYERS, hands_shown, upload
from tests.ui.showdown import photos

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]


def test_a_hand_fixed_table_survives_another_photo_and_an_empty_file_is_refused(
    tmp_path: Path,
) -> None:
    data, port = tmp_path / "data", browser.free_port()
    with browser.running_app(data, port) as url, browser.phone_page(url) as page:
        browser.start_night(page, PLAYERS)
        upload(page, photos.covered(photos.scene(), "8s"), tmp_path, "first")
        (short,) = [n for n, c in hands_shown(page, PLAYERS).items() if len(c) == 1]
        held = hands_shown(page, PLAYERS)[short]
        fixed = " ".join(c.replace("T", "10") for c in held) + " 8s"
        browser.type_into(page, f"Cards: {short}", fixed, None)
        browser.seen(page, f"{short}: 1 card read, 2 expected").wait_for(state="hidden")

        # Another photo: it is read, and the table fixed by hand is one tap away.
        upload(page, photos.covered(photos.scene(), "Jh", "Kd"), tmp_path, "second")
        browser.seen(page, "This photo replaced the table you had.").wait_for()
        browser.scroll(page, -3000)
        browser.screenshot(page, "lost-01-replaced")
        browser.button(page, "Back to that table").click()
        page.get_by_text("This photo replaced the table you had.").wait_for(state="hidden")
        assert sorted(hands_shown(page, PLAYERS)[short]) == sorted([*held, "8s"])

        # An empty file: a message naming it, and what to do.
        empty = tmp_path / "IMG_0002.jpg"
        empty.write_bytes(b"")
        with page.expect_file_chooser() as chooser:
            browser.button(page, "Photo of the table").click()
        chooser.value.set_files(str(empty))
        browser.seen(page, "IMG_0002.jpg: cannot be read as an image (an empty file").wait_for()
        browser.scroll(page, -3000)
        browser.screenshot(page, "lost-02-empty-file")
        assert sorted(hands_shown(page, PLAYERS)[short]) == sorted([*held, "8s"])
