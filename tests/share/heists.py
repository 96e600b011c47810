"""Two heists judged by the engine on the fixture photos, saved in a real SQLite log with the
shipped reader's recorded reads (``tests/fixtures/images/reads.json``) as their outlines."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from companion.engine.gang.showdown import run_showdown
from companion.formats.table import table_from_json, tokens_from_json
from companion.storage import CardOutline, Heist, HeistDraft, SqliteGameLog
from companion.ui.showdown.actions import heist_draft
from tests.helpers import ROOT

IMAGES = ROOT / "tests" / "fixtures" / "images"
PHOTO_SIZE = (960, 640)  # the fixture scenes' size (``tests/fixtures/images/README.md``)

# scene_0001: river 9h 9s 6d Qc Th; the tokens right (Ana's twos, Chloé's and Zoë's sixes tied,
# Bob's straight).
VAULT = {
    "variant": "classic",
    "board": "9h 9s 6d Qc Th",
    "players": [
        {"name": "Chloé", "cards": "6c 8s"},
        {"name": "Bob", "cards": "Kd Jh"},
        {"name": "Zoë", "cards": "4c 6s"},
        {"name": "Ana", "cards": "2h 2c"},
    ],
    "tokens": {"Ana": 1, "Zoë": 2, "Chloé": 3, "Bob": 4},
}
# scene_0004: river Ah Tc 4d 4s 3d; Bob's pair of aces took token 1: the alarm.
ALARM = {
    "variant": "classic",
    "board": "Ah Tc 4d 4s 3d",
    "players": [
        {"name": "Chloé", "cards": "7s 8s"},
        {"name": "Bob", "cards": "Ad 7h"},
        {"name": "Zoë", "cards": "8d 2s"},
    ],
    "tokens": {"Bob": 1, "Zoë": 2, "Chloé": 3},
}
PLAYERS = ("Ana", "Bob", "Chloé", "Zoë")


def draft(table: dict[str, Any], photo: str | None) -> HeistDraft:
    """The heist as the Showdown screen saves it (``heist_draft``), photo outlines apart."""
    parsed = table_from_json(table)
    tokens = tokens_from_json(table["tokens"]) or {}
    return heist_draft(parsed, tokens, run_showdown(parsed, tokens), photo)


def recorded_outlines(image: str, table: dict[str, Any]) -> tuple[CardOutline, ...]:
    """Each card the shipped reader read on ``image`` (its recorded box), placed in the river
    or in the hand of the player ``table`` gives it."""
    reads = json.loads((IMAGES / "reads.json").read_text(encoding="utf-8"))[image]["free"]
    board = table["board"].split()
    owner = {card: p["name"] for p in table["players"] for card in p["cards"].split()}
    w, h = PHOTO_SIZE
    found = []
    for read in reads["reads"]:
        x0, y0, x1, y1 = read["box"]
        place = CardOutline.RIVER if read["card"] in board else owner[read["card"]]
        corners = ((x0 / w, y0 / h), (x1 / w, y0 / h), (x1 / w, y1 / h), (x0 / w, y1 / h))
        found.append(CardOutline(read["card"], place, corners))
    return tuple(found)


def save_two_heists(data: Path) -> tuple[Heist, Heist]:
    """A night in ``data`` with the vault (scene_0001) and the alarm (scene_0004) saved."""
    with SqliteGameLog.in_folder(data) as log:
        night = log.start_night(PLAYERS, "classic")
        saved = []
        for image, table in (("scene_0001.jpg", VAULT), ("scene_0004.jpg", ALARM)):
            ref = log.store_photo((IMAGES / image).read_bytes())
            heist = dataclasses.replace(draft(table, ref), outlines=recorded_outlines(image, table))
            saved.append(log.save_heist(night.id, heist))
    return saved[0], saved[1]
