"""Screenshots of the app as a phone takes them, for the test that a screenshot is refused as a
table photo: ``python -m tests.e2e.screen_fixtures tests/fixtures/images``.

The app at 390x844 with 3 device pixels per page pixel (a phone's own screenshot, 1170x2532),
in French as it opens: a table photo read on the Showdown screen (the photo, its outlines and
codes; kept as a JPEG, as a messaging app sends a screenshot on), a typed table with its
card chips and tokens (the PNG the phone saves), and, in English, a photo's doubtful reads
with their crops side by side (a JPEG).
"""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path

import cv2

from tests.e2e import browser

SCENE = browser.ROOT / "tests" / "fixtures" / "images" / "scene_0001.jpg"
FACE_DOWN = browser.ROOT / "tests" / "fixtures" / "images" / "backs" / "face_down_01.jpg"
SHOTS = ("app_screenshot_photo.jpg", "app_screenshot_verdict.png", "app_screenshot_doubts.jpg")


def shoot(out: Path) -> list[Path]:
    shots = []
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        with (
            browser.running_app(data, browser.free_port()) as url,
            browser.phone_page(url, scale=3) as page,
        ):
            browser.type_into(
                page, "Joueurs (séparés par des virgules)", "Ana, Bob, Chloé, Dan", None
            )
            with page.expect_file_chooser() as chooser:
                browser.button(page, "Photo de la table").click()
            chooser.value.set_files(str(SCENE))
            browser.seen(page, re.compile("cartes lues")).wait_for(timeout=90_000)
            browser.scroll(page, -3000)
            browser.scroll(page, 450)  # the photo with its reads
            shots.append(browser.screenshot(page, Path(SHOTS[0]).stem, out))
            browser.button(page, "Nouvelle table").click()
            for label, cards in (
                ("Rivière", "As Kd Qh 7c 2s"),
                ("Ana", "Ah Ad"),
                ("Bob", "Th 9h"),
                ("Chloé", "3c 2c"),
                ("Dan", "5d 4d"),
            ):
                browser.type_into(page, f"Cartes : {label}", cards, cards.split()[-1])
            for hand in ("Bob", "Chloé", "Dan", "Ana"):
                browser.button(page, hand, exact=True).click()
            browser.seen(page, re.compile("LE COFFRE S'OUVRE|ALARME")).wait_for()
            browser.scroll(page, 1500)
            shots.append(browser.screenshot(page, Path(SHOTS[1]).stem, out))
        with (
            browser.running_app(Path(tmp) / "doubts", browser.free_port()) as url,
            browser.phone_page(url, scale=3) as page,
        ):
            browser.start_night(page, ("Ana", "Bob", "Chloé"))  # in English, seats asked
            with page.expect_file_chooser() as chooser:
                browser.button(page, "Photo of the table").click()
            chooser.value.set_files(str(FACE_DOWN))
            browser.seen(page, re.compile("cards read")).wait_for(timeout=90_000)
            browser.tap(
                page, browser.button(page, "Keep these seats"), browser.seen(page, "Seats kept")
            )
            doubt = page.get_by_text(re.compile("the reader is not sure")).first
            for _ in range(120):  # down to the doubtful reads' crops side by side
                box = doubt.bounding_box() if doubt.count() else None
                if box is not None and box["y"] < 200:
                    break
                page.mouse.move(360, 420)  # beside the fields, which would take the wheel
                page.mouse.wheel(0, 200)
                time.sleep(0.3)
            shots.append(browser.screenshot(page, Path(SHOTS[2]).stem, out))
    kept = []
    for path, name in zip(shots, SHOTS, strict=True):  # small files for the repository
        image = cv2.imread(str(path))
        if name.endswith(".jpg"):
            path.unlink()
            cv2.imwrite(str(out / name), image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        else:
            cv2.imwrite(str(out / name), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        kept.append(out / name)
    return kept


if __name__ == "__main__":
    from tests.e2e.screenshots import main

    main(shoot, "tests/fixtures/images")
