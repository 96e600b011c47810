"""A heist keeps where each read card lay on its photo (schema 7): saved, read back, checked."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.storage import CardOutline, InvalidRecordError, SqliteGameLog
from tests.storage.builders import heist, ticking_clock

SQUARE = ((0.1, 0.2), (0.3, 0.2), (0.3, 0.5), (0.1, 0.5))


def _saved(tmp_path: Path) -> tuple[Path, int]:
    path = tmp_path / "companion.sqlite3"
    with SqliteGameLog(path, clock=ticking_clock()) as log:
        night = log.start_night(["Ann", "Bob", "Cy"], "classic")
        ref = log.store_photo(b"\xff\xd8\xff not really a jpeg")
        outlines = (
            CardOutline("As", CardOutline.RIVER, SQUARE),
            CardOutline("Ah", "Ann", ((0.5, 0.6), (0.6, 0.6), (0.6, 0.9), (0.5, 0.9))),
        )
        draft = dataclasses.replace(heist(True, photo=ref), outlines=outlines)
        log.save_heist(night.id, draft)
    return path, night.id


def test_outlines_come_back_as_saved(tmp_path: Path) -> None:
    path, night = _saved(tmp_path)
    with SqliteGameLog(path) as log:
        (saved,) = log.heists(night)
    assert [(o.card, o.place) for o in saved.outlines] == [("As", "river"), ("Ah", "Ann")]
    assert saved.outlines[0].corners == SQUARE
    assert saved.draft().outlines == saved.outlines


def test_a_heist_without_outlines_stores_none(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    with SqliteGameLog(path) as log:
        night = log.start_night(["Ann", "Bob", "Cy"], "classic")
        log.save_heist(night.id, heist(False))
        assert log.heists(night.id)[0].outlines == ()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT outlines FROM heists").fetchone() == (None,)


@pytest.mark.parametrize(
    "corners",
    [SQUARE[:3], ((0.1, 0.2),) * 3 + ((0.1, float("nan")),), ((9.0, 0.0),) * 4, ((True, 0),) * 4],
    ids=["three corners", "nan", "far off the photo", "a bool"],
)
def test_an_outline_that_is_not_four_corners_on_the_photo_is_refused(
    corners: tuple[tuple[float, float], ...],
) -> None:
    with pytest.raises(InvalidRecordError) as refused:
        CardOutline("As", "Ann", corners)
    assert "the outline of As" in refused.value.message("en")
    assert "le contour de As" in refused.value.message("fr")


def test_outlines_need_the_photo_they_lie_on() -> None:
    with pytest.raises(InvalidRecordError) as refused:
        dataclasses.replace(heist(True), outlines=(CardOutline("As", "river", SQUARE),))
    assert "without a photo" in refused.value.message("en")


def test_a_damaged_outlines_column_leaves_the_heist_out_and_names_it(tmp_path: Path) -> None:
    path, night = _saved(tmp_path)
    with sqlite3.connect(path) as conn:
        conn.execute("""UPDATE heists SET outlines = '[{"card": "As"}]'""")
    with SqliteGameLog(path) as log:
        assert log.heists(night) == ()
        (damaged,) = log.damaged_records()
    assert "heist 1 of game night 1" in damaged.message("en")
    assert "outlines" in damaged.message("en")


_reach = st.floats(-0.5, 1.5, allow_nan=False)
_outlines = st.lists(
    st.builds(
        CardOutline,
        st.text(st.characters(blacklist_categories=("Z", "C")), min_size=1, max_size=4),
        st.text(st.characters(blacklist_categories=("C",)), min_size=1, max_size=12).filter(
            str.strip
        ),
        st.tuples(*[st.tuples(_reach, _reach)] * 4),
    ),
    max_size=30,
).map(tuple)


@settings(max_examples=40, deadline=None)
@given(outlines=_outlines)
def test_any_outlines_come_back_as_saved(
    tmp_path_factory: pytest.TempPathFactory, outlines: Any
) -> None:
    with SqliteGameLog(tmp_path_factory.mktemp("log") / "companion.sqlite3") as log:
        night = log.start_night(["Ann", "Bob", "Cy"], "classic")
        ref = log.store_photo(b"\xff\xd8\xff a photo")
        draft = dataclasses.replace(heist(True, photo=ref), outlines=outlines)
        saved = log.save_heist(night.id, draft)
        assert log.heists(night.id) == (saved,)
        assert saved.draft() == draft
