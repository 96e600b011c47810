"""Table photos on disk as the app lets them go: a discarded table's photo is removed, a saved
heist's stays (a real game log in a temporary folder, real files)."""

from __future__ import annotations

from companion.ui.kit.services import Services
from companion.ui.night.actions import start_night
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import load_photo
from companion.ui.showdown.state import ShowdownState
from tests.ui.screens import Session, png


def stored(services: Services) -> set[str]:
    return {p.name for p in (services.data_dir / "photos").iterdir() if not p.name.startswith(".")}


def test_a_new_table_removes_its_unsaved_photo(services: Services) -> None:
    session = Session(AppState(), services)
    session.dispatch(load_photo(png(64, 48)))
    first = session.state.table.photo
    assert first is not None and stored(services) == {first}
    session.dispatch(load_photo(png(80, 60)))  # another photo of the table: the first goes
    second = session.state.table.photo
    assert second not in (None, first) and stored(services) == {second}
    session.tap("new-table")
    assert session.state.table.photo is None and stored(services) == set()


def test_a_saved_heists_photo_stays(services: Services) -> None:
    session = Session(AppState(table=ShowdownState(("Ana", "Bob"))), services)
    session.dispatch(start_night)
    session.dispatch(load_photo(png()))
    ref = session.state.table.photo
    session.submit("river-text", "As Kd Qh 7c 2s")
    session.submit("hand-0-text", "Ah Ad")
    session.submit("hand-1-text", "3c 2c")
    for hand in ("Bob", "Ana"):
        session.tap(f"token-{hand}")
    session.tap("save-heist")
    assert session.state.heists and session.state.heists[-1].photo == ref
    assert session.state.table.photo is None and stored(services) == {ref}
