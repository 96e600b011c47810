"""No lost work: a photo never silently replaces a table that had cards (one tap brings it
back, its photo kept on disk until then), a photo with no card read says the listed cards are
the table's own, and an empty file says what to do; on a real game log with the real reader."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.storage.errors import NotFoundError
from companion.ui.kit.services import LazyDetector, Services
from companion.ui.shell.dispatch import run
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import load_photo
from companion.ui.showdown.setup_view import table_action
from companion.ui.showdown.state import RIVER, ShowdownState
from tests.helpers import cards
from tests.ui.screens import find, png, shown, walk
from tests.ui.showdown import photos

PLAYERS = ("Ana", "Bob", "Chloé", "Dan")


@pytest.fixture
def reading(services: Services) -> Services:
    return replace(services, detector=LazyDetector())


def typed() -> AppState:
    table = ShowdownState(PLAYERS).with_cards_text(RIVER, "As Kd Qh 7c 2s")
    for seat, text in enumerate(("Ah Ad", "Th 9h", "3c 2c", "5d 5h")):
        table = table.with_cards_text(seat, text)
    return AppState(lang="en", table=table)


def undo(state: AppState, services: Services) -> AppState:
    return run(table_action(lambda tb: tb.back_before_photo()), state, services)


def test_a_typed_table_comes_back_after_a_photo_replaced_it(reading: Services) -> None:
    before = typed()
    read = run(load_photo(photos.jpeg(photos.scene()), "scene.jpg"), before, reading)
    assert read.table.river == cards(" ".join(photos.RIVER))
    assert read.table.before is not None
    assert find(root_view(read, lambda action: None), "undo-photo") is not None
    assert "This photo replaced the table you had." in list(shown(root_view(read, print)))
    new_photo = reading.log.photo_path(read.table.photo or "")
    back = undo(read, reading)
    assert back.table.river == before.table.river and back.table.hands == before.table.hands
    keys = [getattr(c, "key", None) for c in walk(root_view(back, print))]
    assert back.table.before is None and "undo-photo" not in keys
    # The photo the undo let go is removed; nothing else was on disk.
    assert not new_photo.exists()


def test_a_hand_fixed_read_keeps_its_photo_until_the_undo_brings_it_back(
    reading: Services,
) -> None:
    first = run(load_photo(photos.jpeg(photos.scene()), "first.jpg"), AppState(), reading)
    assert first.table.before is None  # an empty table had nothing to lose
    fixed = first.with_table(first.table.with_cards_text(2, "6c 8s Jc"))
    second_image = photos.covered(photos.scene(), "8s")
    second = run(load_photo(photos.jpeg(second_image), "second.jpg"), fixed, reading)
    kept_photo = reading.log.photo_path(fixed.table.photo or "")
    assert kept_photo.exists() and second.table.photo != fixed.table.photo
    back = undo(second, reading)
    assert back.table.hands[2] == cards("6c 8s Jc") and back.table.photo == fixed.table.photo
    assert kept_photo.exists()
    with pytest.raises(NotFoundError):
        reading.log.photo_path(second.table.photo or "")


def test_a_photo_with_no_card_changes_nothing_and_says_so(reading: Services) -> None:
    before = typed()
    state = run(load_photo(png(640, 480), "blank.png"), before, reading)
    assert state.table == before.table and state.table.photo is None
    assert state.banner is not None and state.banner.error
    assert state.banner.text("en") == "blank.png: no card on this photo. Nothing was changed."
    assert [p for p in (reading.data_dir / "photos").rglob("*") if p.is_file()] == []


def test_an_empty_file_says_what_to_do(services: Services) -> None:
    state = run(load_photo(b"", "IMG_0001.jpg"), typed(), services)
    assert state.banner is not None and state.banner.error
    assert state.banner.text("en") == (
        "IMG_0001.jpg: cannot be read as an image (an empty file (0 bytes): take the photo"
        " again, or pick another file)"
    )
    assert state.table == typed().table
