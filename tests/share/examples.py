"""The two example pictures of ``docs/screenshots``: ``python -m tests.share.examples
docs/screenshots``.

The two fixture heists (``heists.py``: a vault on scene_0001, an alarm on scene_0004) saved in a
fresh game log with the outlines the shipped card reader finds on their photos now (as the app
saves them), then drawn by the command players use: ``companion log image``, the vault in
English, the alarm in French.
"""

from __future__ import annotations

import dataclasses
import sys
import tempfile
from pathlib import Path
from typing import Any

import cv2

from companion.cli import main
from companion.storage import CardOutline, SqliteGameLog
from tests.share.heists import ALARM, IMAGES, PLAYERS, VAULT, draft

SHOTS = (("share_vault.png", "en"), ("share_alarm.png", "fr"))


def read_outlines(image_path: Path, table: dict[str, Any]) -> tuple[CardOutline, ...]:
    """Each card the shipped reader reads on the photo, placed as ``table`` has it."""
    from companion.vision import CardDetector

    image = cv2.imread(str(image_path))
    read = CardDetector().detect(image)
    h, w = image.shape[:2]
    board = table["board"].split()
    owner = {card: p["name"] for p in table["players"] for card in p["cards"].split()}
    found = []
    for card, quad in zip(read.cards, read.quads, strict=True):
        code = str(card)
        place = CardOutline.RIVER if code in board else owner.get(code)
        if place is not None:
            corners = tuple((float(x) / w, float(y) / h) for x, y in quad)
            found.append(CardOutline(code, place, corners))
    return tuple(found)


def make(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        with SqliteGameLog.in_folder(data) as log:
            night = log.start_night(PLAYERS, "classic")
            for image, table in (("scene_0001.jpg", VAULT), ("scene_0004.jpg", ALARM)):
                ref = log.store_photo((IMAGES / image).read_bytes())
                outlines = read_outlines(IMAGES / image, table)
                log.save_heist(night.id, dataclasses.replace(draft(table, ref), outlines=outlines))
        for heist, (name, lang) in enumerate(SHOTS, start=1):
            argv = ["log", "--data", str(data), "--lang", lang, "image"]
            if main([*argv, "--heist", str(heist), "--out", str(out / name)]) != 0:
                raise SystemExit(f"companion log image failed for {name}")
            written.append(out / name)
    return written


if __name__ == "__main__":
    for path in make(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")):
        print(path)
