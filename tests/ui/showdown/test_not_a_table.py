"""A photo that is not of a table (an app screenshot, a photo with no card on it) is refused with
a message that says so, and changes nothing: not the table, not the seats; the photo is not
kept. Real screenshots of the app (taken by ``tests/e2e/screen_fixtures.py``, and the docs'),
real reads: the table photos of the fixtures read as before."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion.ui.kit.photo.read import PAPER_PAGE, SURE_SHARE, not_a_table
from companion.ui.kit.services import LazyDetector, Services
from companion.ui.night.actions import start_night
from companion.ui.shell.dispatch import run
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import load_photo
from companion.ui.showdown.state import RIVER, ShowdownState
from companion.vision import Detections
from tests.helpers import FIXTURES, ROOT
from tests.vision.layouts.builders import reads

# The verdict's pictures to share (``share_*.png``) are left out: not screenshots of the app, they
# hold the table's own photo (the vault's is read as that table, 13 cards).
SCREENSHOTS = sorted(FIXTURES.glob("app_screenshot_*")) + sorted(
    p for p in (ROOT / "docs" / "screenshots").glob("*.png") if not p.name.startswith("share_")
)
# Each fixture photo of a table and the cards the reader reads on it, as before this rule
# (all of them; two of hand_of_four's cascade of four are left to the players).
TABLES = {"scene_0001.jpg": 13, "scene_0002.jpg": 3, "scene_0004.jpg": 11, "hand_of_four.jpg": 7}
PLAYERS = ("Ana", "Bob", "Chloé", "Dan")
SEATS = {"Ana": 90.0, "Bob": 180.0, "Chloé": 270.0, "Dan": 0.0}


@pytest.fixture
def reading(services: Services) -> Services:
    return replace(services, detector=LazyDetector())


def seated(services: Services) -> AppState:
    """A night with its seats kept, and a table typed and fixed by hand."""
    state = run(start_night, AppState(lang="en", table=ShowdownState(PLAYERS)), services)
    assert state.night is not None
    state = state.with_night_status(services.log.save_seats(state.night.night.id, SEATS))
    table = state.table.with_cards_text(RIVER, "As Kd Qh 7c 2s")
    for seat, text in enumerate(("Ah Ad", "Th 9h", "3c 2c", "5d 5h")):
        table = table.with_cards_text(seat, text)
    return state.with_table(table.tap_hand("Bob"))


def stored_photos(services: Services) -> list[Path]:
    return [p for p in (services.data_dir / "photos").rglob("*") if p.is_file()]


@pytest.mark.parametrize("path", SCREENSHOTS, ids=lambda p: p.name)
def test_a_screenshot_of_the_app_is_refused_and_changes_nothing(
    path: Path, reading: Services
) -> None:
    before = seated(reading)
    state = run(load_photo(path.read_bytes(), path.name), before, reading)
    assert state.banner is not None and state.banner.error
    assert state.banner.text("en") == (
        f"{path.name}: this does not look like a table photo (mostly white page, its cards"
        " read with doubt: a screenshot?). Nothing was changed."
    )
    assert state.table == before.table and state.night == before.night
    assert dict(reading.log.night_status(before.night.night.id).night.seats) == SEATS  # type: ignore[union-attr]
    assert stored_photos(reading) == []


@pytest.mark.parametrize("name", TABLES)
def test_the_fixtures_table_photos_still_read(name: str, reading: Services) -> None:
    state = run(load_photo((FIXTURES / name).read_bytes(), name), AppState(lang="en"), reading)
    assert state.table.read is not None and len(state.table.read.spots) == TABLES[name]
    assert state.banner is not None and not state.banner.error


def test_an_empty_table_holds_no_card_and_changes_nothing(reading: Services) -> None:
    before = seated(reading)
    state = run(load_photo((FIXTURES / "empty_00.jpg").read_bytes(), "empty.jpg"), before, reading)
    assert state.table == before.table and stored_photos(reading) == []
    assert state.banner is not None and state.banner.text("fr") == (
        "empty.jpg : aucune carte sur cette photo. Rien n'a changé."
    )


def detections(sure: int, doubted: int, unread: int = 0) -> Detections:
    codes = [f"{r}s" for r in "AKQJT98765432"][: sure + doubted]
    found = reads(*[(code, 100 * i, 100) for i, code in enumerate(codes)])
    check = np.array([i >= sure for i in range(len(codes))], bool)
    faces = np.zeros((unread, 4, 2), np.float32)
    return replace(found, check=check, unread=faces)


@pytest.mark.parametrize(
    ("sure", "doubted", "unread", "paper", "said"),
    [
        (0, 0, 0, 0.0, "photo.no_cards"),  # nothing on it
        (0, 0, 2, 0.9, None),  # faces seen, none read: shown, to be typed
        (0, 6, 0, 0.7, "photo.not_a_table"),  # a page of doubted reads
        (2, 6, 0, 0.7, "photo.not_a_table"),
        (3, 3, 0, 0.7, None),  # half the reads sure: cards on a white cloth, say
        (0, 6, 0, 0.3, None),  # a table read badly: its doubts are listed
        (9, 1, 0, 0.1, None),
    ],
)
def test_the_rule(sure: int, doubted: int, unread: int, paper: float, said: str | None) -> None:
    assert SURE_SHARE == 0.5 and PAPER_PAGE == 0.4
    assert not_a_table(detections(sure, doubted, unread), paper) == said
