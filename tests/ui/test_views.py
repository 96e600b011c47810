"""Screens built from state without a client; their handlers called as a tap would."""

from __future__ import annotations

import flet as ft
import pytest

from companion.ui.kit.services import Services
from companion.ui.shell.root import bug_view
from companion.ui.shell.state import SCREENS, AppState
from companion.ui.showdown.state import RIVER, ShowdownState
from tests.ui.screens import Session, codes, find, texts


@pytest.fixture
def session(services: Services) -> Session:
    return Session(AppState(table=ShowdownState(("Ana", "Bob", "Cy"))), services)


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_screen_builds_in_both_languages(session: Session, screen: str, lang: str) -> None:
    session.state = AppState(lang=lang).go(screen)
    page = session.view()
    assert find(page, "nav").selected_index == SCREENS.index(screen)
    assert texts(page)


def test_type_fix_tokens_and_verdict_through_the_screen(session: Session) -> None:
    session.submit("river-text", "As Kd Qh 7c 2s")
    session.submit("hand-0-text", "Ah Ad")
    session.submit("hand-1-text", "Th 9h")
    session.submit("hand-2-text", "3c 2s")  # 2s is already in the river
    problems = find(session.view(), "problems")
    assert any("2♠ apparaît deux fois" in text for text in texts(problems))
    session.tap("hand-2-card-1")
    assert find(session.view(), "fix-panel")
    session.submit("replace", "2c")
    assert codes(session.state.table.hands[2]) == ("3c", "2c")
    for hand in ("Cy", "Bob", "Ana"):
        session.tap(f"token-{hand}")
    verdict = find(session.view(), "verdict")
    assert texts(verdict)[0] == "ALARME"
    assert any("Bob" in text for text in texts(verdict)[1:])
    session.tap("tokens-clear")
    session.submit("tokens-text", "3 1 2")
    assert texts(find(session.view(), "verdict")) == ["LE COFFRE S'OUVRE"]
    ana = [find(session.view(), f"best-Ana-{i}") for i in range(5)]
    held = [chip.content.value for chip in ana if chip.bgcolor == ft.Colors.AMBER_100]
    assert sorted(held) == ["A♥", "A♦"]  # Ana's own cards stand out; As comes from the river


def test_move_a_card_to_another_hand(session: Session) -> None:
    session.submit("river-text", "As Kd Qh 7c 2s 3c")
    session.tap("river-card-5")
    session.tap("move-2")
    assert codes(session.state.table.river) == ("As", "Kd", "Qh", "7c", "2s")
    assert codes(session.state.table.hands[2]) == ("3c",)


def test_night_screen_saves_and_undoes_heists(session: Session) -> None:
    nav = find(session.view(), "nav")
    nav.selected_index = SCREENS.index("night")
    nav.on_change(ft.Event("change", nav))
    assert session.state.screen == "night"
    session.tap("start-night")
    assert find(session.view(), "score").value == "Coffres 0 / 3 — Alarmes 0 / 3"
    session.state = session.state.go("showdown")
    session.type_table("As Kd Qh 7c 2s", ("Ah Ad", "Th 9h", "3c 2c"), "3 1 2")
    session.tap("save-heist")
    assert session.state.banner is not None and session.state.banner.key == "heist_saved"
    session.state = session.state.go("night")
    page = session.view()
    assert find(page, "score").value == "Coffres 1 / 3 — Alarmes 0 / 3"
    assert find(page, "heist-1")
    session.tap("undo")
    assert find(session.view(), "score").value == "Coffres 0 / 3 — Alarmes 0 / 3"


def test_history_shows_stats_and_exports(session: Session) -> None:
    session.state = session.state.go("night")
    session.tap("start-night")
    session.tap("close-night")
    # Asked first: "Keep playing" leaves the night open, "Close it" closes it.
    assert find(session.view(), "close-night-ask") and session.state.night is not None
    session.tap("close-night-no")
    assert session.state.night is not None and not session.state.closing_night
    session.tap("close-night")
    assert texts(find(session.view(), "close-night-ask"))[0] == (
        "Clore la soirée n°1 maintenant, à 0 coffre et 0 alarme ? Elle ne pourra pas être rouverte."
    )
    session.tap("close-night-yes")
    assert session.state.night is None
    session.state = session.state.go("history")
    page = session.view()
    assert find(page, "overall").value.startswith("Gagnées 0, perdues 0, abandonnées 1")
    session.tap("export-json")
    assert (session.services.data_dir / "exports" / "all.json").is_file()
    night = session.state.history[0].night.id
    session.tap(f"export-night-csv-{night}")
    assert (session.services.data_dir / "exports" / f"night-{night}-heists.csv").is_file()


def test_language_button_switches_to_english(session: Session) -> None:
    session.tap("lang")
    assert session.state.lang == "en"
    assert find(session.view(), "new-table").content == "New table"


def test_river_place_is_named(session: Session) -> None:
    assert session.state.table.place_name(RIVER, "en") == "River"


def test_a_screen_that_fails_to_build_shows_the_bug_and_a_way_back(session: Session) -> None:
    session.submit("river-text", "As Kd")
    page = bug_view(session.state, session.dispatch, IndexError("list index out of range"))
    assert "IndexError: list index out of range" in find(page, "bug").value
    reset = find(page, "bug-reset")
    reset.on_click(ft.Event("click", reset))
    assert codes(session.state.table.river) == () and session.state.screen == "showdown"


def test_a_preset_saved_by_name_shows_as_a_chip_and_applies(session: Session) -> None:
    session.submit("preset-name", "mardi")
    chip = find(session.view(), "preset-mardi")
    session.state = session.state.with_table(session.state.table.with_variant("high-low"))
    chip.on_click(ft.Event("click", chip))
    assert session.state.banner is not None and session.state.banner.key == "preset_applied"


def test_two_rivers_switch_adds_the_second_river(session: Session) -> None:
    switch = find(session.view(), "two-rivers")
    switch.value = True
    switch.on_change(ft.Event("change", switch))
    session.submit("river2-text", "Jd Jc 8s 4h 5d")
    assert codes(session.state.table.river2) == ("Jd", "Jc", "8s", "4h", "5d")
    assert find(session.view(), "river2-card-4")


def test_francois_and_circular_fields_appear_with_their_variant(session: Session) -> None:
    session.state = session.state.with_table(session.state.table.with_variant("francois"))
    session.submit("francois-1", "10s")
    assert codes(session.state.table.francois) == ("", "Ts", "")
    session.state = session.state.with_table(session.state.table.with_variant("circular"))
    session.submit("shared-2", "Jc Js")
    assert codes(session.state.table.shared[2]) == ("Jc", "Js")
    assert find(session.view(), "shared-2").label == "Main partagée Cy+Ana"


def test_fix_a_card_with_two_taps(session: Session) -> None:
    session.submit("river-text", "As Kd Qh 7c 2s")
    session.tap("river-card-4")
    session.tap("rank-T")
    session.tap("suit-c")
    assert str(session.state.table.river[4]) == "Tc"
    assert find(session.view(), "river-card-4").content.value == "10♣"
